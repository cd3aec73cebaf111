"""The colour-up computed from the stacks (issue #36 item 5; TDA-24-A, CC-68/69): the floor confirms each table's
race in one tap, the dealer runs it from the tablet, the console lists the tables still to race, and no table's
next hand waits for anyone to type odd chips."""

from __future__ import annotations

import random
import uuid

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.tournament.chip_race import races_due
from casino.rules.tournament.record import Replayer
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import console
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)

#: The house default structure: step 9 is the second break, which removes the 25s; step 10 is level 9.
SECOND_BREAK, LEVEL_AFTER_IT = 9, 10
ODD_STACKS = {1: 9_850, 2: 10_175, 3: 10_000, 4: 9_975}


def state(t):
    t.refresh_from_db()
    return event_reads.tournament_state(t)


@pytest.fixture
def at_the_colour_up(event_in_play, director_dora, floor_fede):
    """Four players at one table with stacks in 25s, the clock at the break that removes the 25s."""
    act(services.enter_chip_count, event_in_play, floor_fede, counts=ODD_STACKS)
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=SECOND_BREAK)
    return event_in_play


def test_tda24a_before_the_break_no_table_owes_a_race(event_in_play, floor_fede):
    act(services.enter_chip_count, event_in_play, floor_fede, counts=ODD_STACKS)
    assert races_due(state(event_in_play), timezone.now()) == ()


def test_tda24a_at_the_break_the_table_owes_its_race_computed_from_the_stacks(at_the_colour_up):
    (due,) = races_due(state(at_the_colour_up), timezone.now())
    seats = {entry: seat for seat, entry in state(at_the_colour_up).tables[0].players}
    assert (due.removed, due.into) == (25, 100)
    assert {entry: count for _seat, entry, count in due.odd_chips} == {1: 2, 2: 3, 4: 3}
    assert [seat for seat, _e, _c in due.odd_chips] == sorted(seats[e] for e in (1, 2, 4))


def test_tda24a_cc69_the_floor_races_a_table_in_one_tap_recorded_audited_and_reproducible(at_the_colour_up,
                                                                                        floor_fede):
    table = state(at_the_colour_up).tables[0].table
    act(services.race_odd_chips, at_the_colour_up, floor_fede, table=table, rng=random.Random(36))
    race = event_reads.tournament_record(at_the_colour_up)[-1]
    assert race["type"] == "colour_up" and race["removed"] == 25 and race["into"] == 100
    assert sorted(entry for _seat, entry, _count in race["odd_chips"]) == [1, 2, 4]
    assert sum(len(cards) for _entry, cards in race["cards"]) == 8  # one card per odd chip, CC-70
    after = {e.entry: e.stack for e in state(at_the_colour_up).in_play}
    assert all(chips % 100 == 0 for chips in after.values())
    assert after[3] == 10_000
    assert races_due(state(at_the_colour_up), timezone.now()) == ()
    assert AuditEvent.objects.filter(action="tournament.colour_up", details__from_stacks=True).exists()


def test_tda24a_a_table_that_owes_no_race_is_told_so(event_in_play, floor_fede):
    table = state(event_in_play).tables[0].table
    with pytest.raises(RuleViolation, match="TDA-24-A"):
        act(services.race_odd_chips, event_in_play, floor_fede, table=table)


def test_tda24a_the_next_hand_waits_for_the_race_and_is_dealt_after_it(at_the_colour_up, first_table,
                                                                       dealer_dana_here, director_dora):
    act(services.clock_command, at_the_colour_up, director_dora, kind="skip", step=LEVEL_AFTER_IT)
    first_table.refresh_from_db()
    with pytest.raises(RuleViolation, match="races its odd chips first") as refused:
        dealing.start_hand(table=first_table, by=dealer_dana_here, key=uuid.uuid4().hex,
                           expected_version=first_table.version)
    assert refused.value.clause == "TDA-24-A"
    # the dealer runs it from the tablet: a write on the event, whatever version the tablet showed
    services.race_odd_chips(tournament=at_the_colour_up, by=dealer_dana_here, key=uuid.uuid4().hex,
                            expected_version=None, table=first_table.number, who="table", rng=random.Random(1))
    first_table.refresh_from_db()
    dealing.start_hand(table=first_table, by=dealer_dana_here, key=uuid.uuid4().hex,
                       expected_version=first_table.version)
    assert hand_reads.latest_hand(first_table).number == 1


def test_the_console_lists_the_tables_still_to_race_and_forgets_each_once_raced(at_the_colour_up, floor_fede):
    names = console.entry_names(at_the_colour_up)
    (listed,) = console.colour_ups_due(at_the_colour_up, names)
    assert listed["into"] == 100 and [s["chips"] for s in listed["seats"]] == [
        c for _s, _e, c in races_due(state(at_the_colour_up), timezone.now())[0].odd_chips]
    act(services.race_odd_chips, at_the_colour_up, floor_fede, table=listed["table"])
    assert console.colour_ups_due(at_the_colour_up, names) == []


def _tap(client, tournament, number, action):
    table = hand_reads.dealt_table(tournament, number)
    return client.post(f"/tournaments/{tournament.pk}/tables/{number}/deal/{action}/",
                       {"version": table.version, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="en")


def _tap_seat(client, tournament, number, action, seat):
    table = hand_reads.dealt_table(tournament, number)
    return client.post(f"/tournaments/{tournament.pk}/tables/{number}/deal/{action}/",
                       {"version": table.version, "key": uuid.uuid4().hex, "seat": seat}, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="en")


def test_tda24a_the_tablet_shows_the_race_and_the_dealer_runs_it_in_one_tap(client, at_the_colour_up, first_table,
                                                                            dealer_dana_here):
    client.force_login(dealer_dana_here)
    page = client.get(f"/tournaments/{at_the_colour_up.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-race-due" in page and 'data-action="colour-up"' in page and 'data-action="new-hand"' not in page
    assert page.count("data-race-seat=") == 3
    raced = _tap(client, at_the_colour_up, first_table.number, "colour-up")
    body = raced.content.decode()
    assert raced.status_code == 200 and "data-race-due" not in body and 'data-action="new-hand"' in body
    race = event_reads.tournament_record(at_the_colour_up)[-1]
    assert race["type"] == "colour_up"
    # the race as run, for the dealer to change the chips: each seat's cards, and who wins a chip of 100
    assert body.count("data-raced-seat=") == 3 and body.count("wins a chip of 100") == len(race["won"])
    for _entry, cards in race["cards"]:
        assert " ".join(cards) in body
    again = _tap(client, at_the_colour_up, first_table.number, "colour-up")
    assert again.status_code in (400, 409, 422) and "TDA-24-A" in again.content.decode()


def test_the_console_shows_what_the_floor_does_now_and_races_a_table_in_one_tap(client, at_the_colour_up,
                                                                                floor_fede):
    client.force_login(floor_fede)
    page = client.get(f"/tournaments/{at_the_colour_up.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = state(at_the_colour_up).tables[0].table
    assert f'data-race-table="{table}"' in page and "Nothing to do" not in page
    at_the_colour_up.refresh_from_db()
    done = client.post(f"/tournaments/{at_the_colour_up.pk}/act/race-odd-chips/",
                       {"version": at_the_colour_up.version, "key": uuid.uuid4().hex, "table": table},
                       HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 200 and "data-race-table" not in done.content.decode()
    assert event_reads.tournament_record(at_the_colour_up)[-1]["type"] == "colour_up"


def test_the_race_run_stays_on_the_tablet_until_the_next_hand_starts(client, at_the_colour_up, first_table,
                                                                     dealer_dana_here, director_dora):
    client.force_login(dealer_dana_here)
    _tap(client, at_the_colour_up, first_table.number, "colour-up")
    act(services.clock_command, at_the_colour_up, director_dora, kind="skip", step=LEVEL_AFTER_IT)
    page = client.get(f"/tournaments/{at_the_colour_up.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-raced" in page
    dealt = _tap(client, at_the_colour_up, first_table.number, "new-hand")
    assert dealt.status_code == 200
    while (seat := hand_reads.hand_state(hand_reads.latest_hand(first_table)).to_act) is not None:
        _tap_seat(client, at_the_colour_up, first_table.number, "fold", seat)
    assert _tap(client, at_the_colour_up, first_table.number, "award-pots").status_code == 200
    page = client.get(f"/tournaments/{at_the_colour_up.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-raced" not in page and 'data-step="between-hands"' in page  # the next hand's deal ended it


def test_tda24a_the_replay_keeps_each_tables_last_race_for_its_tablet_without_reading_the_record(at_the_colour_up,
                                                                                               floor_fede):
    """Issue #37: the tablet shows the race just run from the state (``last_races``), not from a scan of the whole
    record at each render; replayed from the record it is the same race."""
    table = state(at_the_colour_up).tables[0].table
    assert table not in (state(at_the_colour_up).last_races or {})
    act(services.race_odd_chips, at_the_colour_up, floor_fede, table=table, rng=random.Random(36))
    race = event_reads.tournament_record(at_the_colour_up)[-1]
    assert state(at_the_colour_up).last_races[table] == race
    assert Replayer(event_reads.tournament_record(at_the_colour_up)).state().last_races == {table: race}
