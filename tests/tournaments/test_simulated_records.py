"""The simulator's records are legal (issue #38 items 13, 14, 15): a player who must sit a hand out is not
dealt it (C-03, CC-53, CC-57, TDA-10), a redraw's seats carry the drawn button of the table's next hand
(CC-82, docs/tournament-record.md), and hand-for-hand starts as the bubble approaches (RP-08-A), busts at
different tables in one round sharing their places (CC-20, CC-21)."""

from __future__ import annotations

import pytest

from casino.rules.tournament.record import verify_record
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def record_of(tournament) -> list[dict]:
    return [event.as_record() for event in tournament.events.order_by("seq")]


@pytest.fixture
def thirty_nine_one():
    """The issue's example: 30 entries, 9 seats, seed 1."""
    return record_of(simulate_tournament(entries=30, seed=1, seats=9).tournament)


def test_a_simulated_player_moved_onto_the_button_is_not_dealt_the_next_hand_CC_53_CC_57(thirty_nine_one):
    events = thirty_nine_one
    moved_out = [e for e in events if e["type"] == "seated" and e["sits_out"]]
    assert moved_out  # the example has such moves: entry 3 to table 1 seat 2, the next button
    for move in moved_out:
        next_hand = next(e for e in events if e["seq"] > move["seq"] and e["type"] == "hand"
                         and e["table"] == move["table"])
        assert move["entry"] not in [p["entry"] for p in next_hand["players"]], (move, next_hand)
    assert verify_record(events).ok


def test_a_redraws_and_the_final_tables_seats_carry_the_button_drawn_for_the_next_hand_CC_82(thirty_nine_one):
    """docs/tournament-record.md: a draw's ``button`` is the drawn button of the table's next hand (the record
    said the table's old one: issue #38 item 14, 30 entries, 9 seats, seed 1)."""
    events = thirty_nine_one
    drawn = {(e["plan"], e["table"]): e["seat"] for e in events if e["type"] == "button" and e.get("plan")}
    redrawn = [e for e in events if e["type"] == "seated" and e["why"] in ("redraw", "final_table")]
    assert {e["why"] for e in redrawn} == {"redraw", "final_table"}
    for seat in redrawn:
        assert seat["button"] == drawn[seat["plan"], seat["table"]], seat
    # the replay reads the next hand's button from the seats alone, before the button events that follow them
    from casino.rules.tournament.record import replay

    last = max((e for e in redrawn if e["why"] == "final_table"), key=lambda e: e["seq"])
    final = replay(events[:last["seq"]]).table(last["table"])
    assert final.button == drawn[last["plan"], last["table"]] and final.button_is_next


def test_a_rounds_busts_at_different_tables_share_their_places_CC_20():
    """A simulated round deals a hand at every table at one instant: busts at two tables in it cannot be told
    apart, so they share their places (20 entries, 6 seats, seed 3: places 7 and 8)."""
    report = simulate_tournament(entries=20, seed=3, seats=6, final_table_size=6)
    events = record_of(report.tournament)
    at_once: dict[str, list[dict]] = {}
    for e in events:
        if e["type"] == "bust" and e.get("hand") is not None and not e.get("hand_for_hand_hand"):
            at_once.setdefault(e["at"], []).append(e)
    rounds = [busts for busts in at_once.values() if len({b["table"] for b in busts}) > 1]
    assert rounds
    (results,) = [e for e in events if e["type"] == "results"]
    shared = [set(place["entries"]) for place in results["places"]]
    for busts in rounds:
        assert {b["entry"] for b in busts} in shared
    assert {5, 13} in shared
    assert verify_record(events).ok


def test_hand_for_hand_starts_where_one_bust_a_table_could_pass_the_bubble_RP_08_A():
    """Places paid plus tables playing (issue #38 item 15: it waited for exactly one more than the places paid,
    and a round busting several at several tables went past it)."""
    from types import SimpleNamespace

    from tournaments.simulation import _hand_for_hand_due

    def state(left: int, tables: int, on: bool = False):
        return SimpleNamespace(players_left=left, hand_for_hand=on,
                               tables=[SimpleNamespace(count=5) for _ in range(tables)])

    paid = 125
    assert [_hand_for_hand_due(state(left, 3), paid) for left in (129, 128, 127, 126, 125)] == \
        [False, True, True, True, False]
    assert not _hand_for_hand_due(state(127, 1), paid)  # one table: nothing to synchronise (CC-11)
    assert _hand_for_hand_due(state(127, 2, on=True), paid)  # a table broke: it stays on to the bubble's end
    assert not _hand_for_hand_due(state(125, 2, on=True), paid)  # the bubble burst


def test_verify_tournament_record_reports_a_hand_dealing_a_player_who_had_to_sit_it_out_CC_53(tmp_path, capsys):
    import json

    from django.core.management import CommandError, call_command

    from tests.rules.tournament.test_record import hand_at, two_tables

    record = two_tables()  # entry 6 moved to table 1 with ``sits_out``
    hand_at(record, 1, 2, [1, 2, 3, 6])
    path = tmp_path / "record.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in record.events), encoding="utf-8")
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_tournament_record", str(path))
    assert "deals entry 6, who had to sit it out (CC-53, CC-57)" in capsys.readouterr().err
