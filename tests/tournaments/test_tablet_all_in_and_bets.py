"""What the dealer's tablet shows of each seat during the betting (issue #38 item 11): the all-in marker on
an all-in player's seat (RP-01) and each seat's running bet, "In front", for the dealer to announce
(RP-12). Rendered from the hand's record: remove either from the tablet and these fail."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments.reads import hands as hand_reads
from tournaments.rendering import tablet
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def seat_rows(table) -> dict[int, str]:
    """Each seat's row of the tablet, in English, by seat."""
    table.refresh_from_db()
    with translation.override("en"):
        html = tablet.tablet_fragment(table)
    return {int(seat): row for seat, row in re.findall(r'<tr data-seat="(\d+)"[^>]*>(.*?)</tr>', html, re.S)}


def in_front(row: str) -> int | None:
    """The seat's running bet as its row shows it (digits only: the language's thousands separator aside)."""
    shown = re.search(r"<td class=\"num\" data-bet>(.*?)</td>", row, re.S)
    assert shown is not None, "the seat's row has no running bet cell (RP-12)"
    digits = re.sub(r"\D", "", shown.group(1))
    return int(digits) if digits else None


def test_each_seats_running_bet_is_shown_on_the_tablet_RP_12(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    engine = hand_reads.hand_state(hand_in_play(first_table))
    rows = seat_rows(first_table)
    sb, bb = engine.setup.sb_seat, engine.setup.bb_seat
    assert (in_front(rows[sb]), in_front(rows[bb])) == (25, 50)  # the blinds of level 1 (25/50)
    assert all(in_front(rows[s]) is None for s in rows if s not in (sb, bb))
    seat = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": seat, "to": 150})
    assert in_front(seat_rows(first_table)[seat]) == 150  # the raise as it stands, for the dealer to announce
    following = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": following})
    rows = seat_rows(first_table)
    assert (in_front(rows[seat]), in_front(rows[following])) == (150, 150)


def test_an_all_in_players_seat_carries_the_all_in_marker_on_the_tablet_RP_01(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert not any("data-all-in" in row for row in seat_rows(first_table).values())
    seat = to_act(first_table)
    engine = hand_reads.hand_state(hand_in_play(first_table))
    stack = engine.stack[engine.seats.index(seat)]
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": seat})
    rows = seat_rows(first_table)
    assert [s for s, row in rows.items() if "data-all-in" in row] == [seat]
    assert re.search(r"data-all-in>All-in<", rows[seat])
    assert in_front(rows[seat]) == stack  # his whole stack in front of him, the marker beside it
    caller = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": caller})
    marked = sorted(s for s, row in seat_rows(first_table).items() if "data-all-in" in row)
    engine = hand_reads.hand_state(hand_in_play(first_table))
    all_in = [s for s in engine.seats if engine.stacks[s] == 0 and not engine.folded[engine.seats.index(s)]]
    assert marked == sorted(all_in)
    assert seat in marked
