"""A tournament dealer's home page says where the event's rotation puts him next (issue #38's edges, item 3; RP-07):
resting, where and when he deals next; on duty, where he goes then; a change due during a hand, that the table is his
when its hand ends. The pit's page shows it through the core's registry (``casino.dealer_home``), importing nothing of
the tournament room."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.conftest import english_client
from tests.tournaments.test_dealer_rotation import at, dealer_diego, minutes_pass, rotate  # noqa: F401 - fixture
from tournaments.models import DealerRotation, Tournament
from tournaments.reads import rotation as rotation_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def home(user) -> str:
    answer = english_client(user).get(reverse("tables:dealer_home"))
    assert answer.status_code == 200
    return answer.content.decode()


def section(html: str, event) -> str:
    found = re.search(rf'<section class="card rotation" data-tournament-rotation="{event.pk}".*?</section>', html, re.S)
    assert found, html
    return found.group(0)


def test_a_resting_dealers_home_says_where_and_when_he_deals_next_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):  # noqa: F811
    rotate(event_in_play, floor_fede, [dealer_diego, dealer_dana_here], [first_table.number], down=20)
    starts = DealerRotation.objects.get(tournament=event_in_play).starts_at
    shown = section(home(dealer_dana_here), event_in_play)
    assert f'data-next-table="{first_table.number}"' in shown
    assert "You are on your break." in shown
    with translation.override("en"):
        at_ = timezone.localtime(starts + timedelta(minutes=20)).strftime("%H:%M")
    assert f"Next: table {first_table.number} at {at_}." in shown
    assert "You are not on duty at any table" not in home(dealer_dana_here)


def test_the_dealer_on_duty_is_told_where_he_goes_then_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):  # noqa: F811
    rotate(event_in_play, floor_fede, [dealer_diego, dealer_dana_here], [first_table.number], down=20)
    shown = section(home(dealer_diego), event_in_play)
    assert f"You deal at table {first_table.number}." in shown and "Next: your break at" in shown
    assert "data-next-table" not in shown


def test_a_change_due_during_a_hand_tells_the_rested_dealer_the_table_is_his_when_the_hand_ends_TDA_23_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):  # noqa: F811
    rotate(event_in_play, floor_fede, [dealer_diego, dealer_dana_here], [first_table.number], down=20)
    at(first_table, dealing.start_hand, dealer_diego)
    minutes_pass(event_in_play, 21)
    shown = section(home(dealer_dana_here), event_in_play)
    assert f"The rotation puts you at table {first_table.number} now: you take it over when its hand ends." in shown


def test_a_dealer_out_of_every_rotation_or_of_an_ended_event_is_shown_none(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):  # noqa: F811
    rotate(event_in_play, floor_fede, [dealer_diego], [first_table.number], down=20)
    assert "data-tournament-rotation" not in home(dealer_dana_here)
    assert rotation_reads.dealer_plans(dealer_diego, timezone.now())
    Tournament.objects.filter(pk=event_in_play.pk).update(status=Tournament.Status.FINISHED)
    assert rotation_reads.dealer_plans(dealer_diego, timezone.now()) == []


def test_a_resting_dealers_home_reloads_itself_just_after_his_break_ends_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):  # noqa: F811
    rotate(event_in_play, floor_fede, [dealer_diego, dealer_dana_here], [first_table.number], down=20)
    starts = DealerRotation.objects.get(tournament=event_in_play).starts_at
    found = re.search(r'<meta http-equiv="refresh" content="(\d+)" data-reload-at-next-change>', home(dealer_dana_here))
    assert found, "the page does not reload itself at the next change"
    due = (starts + timedelta(minutes=20) - timezone.now()).total_seconds()
    assert due + 1 <= int(found.group(1)) <= due + 4  # a few seconds after the change, not before it
