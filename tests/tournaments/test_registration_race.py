"""Issue #34, item 5: the same new player registered at two events at the same moment. Each event locks
only itself, so both desks find no player with that ID and both insert one: the second insert hit the
unique ID constraint (IntegrityError, a 500, 5 of 5 tries). Now it takes the row the first one made."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, date, datetime

import pytest
from django.db import connections

from casino.rules.tournament import eligibility
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def monday_event(director_dora):
    tournament, _result = services.create_tournament(
        by=director_dora, key=uuid.uuid4().hex, name="Monday Turbo",
        starts_at=datetime(2026, 11, 30, 18, 0, tzinfo=UTC), buy_in=50, fee=5, starting_stack=5_000)
    act(services.open_registration, tournament, director_dora)
    return tournament


def test_the_same_new_player_registered_at_two_events_at_once_gets_one_player_and_two_entries_CC_24(
        registering, monday_event, floor_fede, monkeypatch):
    both_looked = threading.Barrier(2, timeout=20)
    checked = eligibility.refusal

    def after_both_desks_found_no_player(*args, **kwargs):
        # both desks have looked the ID up (and found nobody) before either inserts the player
        both_looked.wait()
        return checked(*args, **kwargs)

    monkeypatch.setattr(eligibility, "refusal", after_both_desks_found_no_player)
    outcomes: dict[str, object] = {}

    def desk(event) -> None:
        try:
            outcomes[event.name] = act(services.register, event, floor_fede, name="Uma Ugarte", id_type="dni",
                                       id_number="41.999.000", birth_date=date(1990, 5, 5))
        except Exception as error:  # noqa: BLE001 - the test reports what a desk got
            outcomes[event.name] = error
        finally:
            connections.close_all()

    desks = [threading.Thread(target=desk, args=(event,)) for event in (registering, monday_event)]
    for thread in desks:
        thread.start()
    for thread in desks:
        thread.join(60)

    assert all(getattr(result, "entry", None) == 1 for result in outcomes.values()), outcomes
    (player,) = Player.objects.filter(id_type="dni", id_number="41999000")
    assert {e.tournament_id for e in Entry.objects.filter(player=player)} == {registering.pk, monday_event.pk}
