"""Dealing errors at a tournament's dealt table (issue #38 item 2): each is a dealer's tap on the tablet through
``services.dealing.act``, recorded, replayed to the same stacks and carried by the hand's export line; the
director is called on the console where the clause says so; bad input never a 500."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import Phase
from casino.rules.holdem.replay import replay_holdem_hand
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tests.tournaments.test_tablet import tap
from tournaments.reads import hands as hand_reads
from tournaments.rendering import console as console_rendering
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def tap_record(table, by, record):
    return at(table, dealing.act, by, record=record)


def engine(table):
    return hand_reads.hand_state(hand_in_play(table))


def close_the_round(table, by):
    street = engine(table).street
    while engine(table).to_act is not None and engine(table).street is street:
        tap_record(table, by, {"action": "call", "seat": to_act(table)})


def test_a_premature_flop_is_recorded_and_the_flop_is_redealt_without_a_burn_RP_05_A(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    tap_record(first_table, dealer_dana_here, {"action": "premature-board", "cards": ["2c", "3d", "4h"], "burn": "5s"})
    close_the_round(first_table, dealer_dana_here)
    with pytest.raises(RuleViolation) as refused:
        tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["2c", "3d", "9h"], "burn": "6s"})
    assert refused.value.clause == "RP-05-A"
    tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["2c", "3d", "9h"]})
    hand = engine(first_table)
    assert [str(c) for c in hand.burns] == ["5s"] and hand.street.value == "flop"
    kinds = [r.record["action"] for r in hand_reads.effective_rows(hand_in_play(first_table))]
    assert "premature-board" in kinds


def test_a_hand_with_a_premature_flop_is_exported_and_replays_to_its_stacks_RP_05_A(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    tap_record(first_table, dealer_dana_here, {"action": "premature-board"})
    while engine(first_table).to_act is not None:
        tap_record(first_table, dealer_dana_here, {"action": "fold", "seat": to_act(first_table)})
    tap_record(first_table, dealer_dana_here, {"action": "award-pots"})
    hand = hand_in_play(first_table)
    line = hand_reads.hand_line(hand)
    assert {"act": "premature-board"} in line["actions"]
    answer = replay_holdem_hand(line)
    assert "error" not in answer
    assert answer["stacks"] == {str(s): c for s, c in sorted(engine(first_table).stacks.items())}


def test_a_four_card_flop_at_the_tablet_is_redealt_CC_103(first_table, dealer_dana_here, event_in_play):
    at(first_table, dealing.start_hand, dealer_dana_here)
    close_the_round(first_table, dealer_dana_here)
    with pytest.raises(RuleViolation) as refused:
        tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["2c", "3d", "4h", "5h"]})
    assert refused.value.clause == "CC-103"
    tap_record(first_table, dealer_dana_here, {"action": "four-card-flop", "cards": ["2c", "3d", "4h", "5h"]})
    assert engine(first_table).phase is Phase.BOARD and engine(first_table).board == ()


def test_a_card_exposed_on_purpose_calls_the_director_on_the_console_CC_95(
    client, first_table, dealer_dana_here, event_in_play, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    tap_record(first_table, dealer_dana_here,
               {"action": "exposed-card", "seat": seat, "card": "Ah", "intentional": True})
    first_table.refresh_from_db()
    summary = hand_reads.table_summary(first_table)
    assert summary["director_called"] == ["CC-95"]
    rows = console_rendering.dealt_tables(event_in_play, False)
    assert rows[0]["director_called"] == ["CC-95"]
    client.force_login(director_dora)
    page = client.get(f"/tournaments/{event_in_play.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-director-called="{first_table.number}"' in page and "(CC-95)" in page
    # the dealer's tablet says it too, and lists the card shown to everyone (CC-94)
    client.force_login(dealer_dana_here)
    tablet = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/",
                        HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-director-called" in tablet and f"seat {seat}: Ah" in tablet


def test_the_first_card_exposed_in_the_deal_is_a_misdeal_and_the_hand_dealt_again_CC_98(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    button = hand_in_play(first_table).level["where"]["button"]
    tap_record(first_table, dealer_dana_here, {"action": "exposed-in-deal", "position": 1})
    assert hand_in_play(first_table).phase == Phase.MISDEAL.value
    assert set(engine(first_table).stacks.values()) == {10_000}  # every bet returned (CC-97)
    at(first_table, dealing.start_hand, dealer_dana_here)
    again = hand_in_play(first_table)
    assert again.number == 2 and again.level["where"]["button"] == button  # the same button (TDA-35-C)


def test_a_wrong_card_count_after_the_misdeal_cutoff_kills_the_hand_and_the_export_replays_TDA_38(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    for _ in range(3):  # three players have acted: no misdeal now (CC-99, C-06)
        tap_record(first_table, dealer_dana_here, {"action": "call", "seat": to_act(first_table)})
    seat = to_act(first_table)  # the big blind, with three cards
    tap_record(first_table, dealer_dana_here, {"action": "wrong-card-count", "seat": seat, "count": 3})
    hand = engine(first_table)
    assert hand.folded[hand.seats.index(seat)] and hand.phase is Phase.BOARD
    tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["2c", "3d", "9h"], "burn": "5s"})
    while engine(first_table).to_act is not None:
        tap_record(first_table, dealer_dana_here, {"action": "fold", "seat": to_act(first_table)})
    tap_record(first_table, dealer_dana_here, {"action": "award-pots"})
    line = hand_reads.hand_line(hand_in_play(first_table))
    assert {"act": "wrong-card-count", "seat": seat, "count": 3} in line["actions"]
    answer = replay_holdem_hand(line)
    assert answer["stacks"] == {str(s): c for s, c in sorted(engine(first_table).stacks.items())}
    assert answer["stacks"][str(seat)] == 9_950  # his big blind stays in the pot


def test_the_tablet_offers_the_dealing_errors_and_records_a_premature_flop_RP_05_A(
    client, event_in_play, first_table, dealer_dana_here
):
    client.force_login(dealer_dana_here)
    body = tap(client, event_in_play, first_table.number, "new-hand").content.decode()
    assert "data-dealing-errors" in body and 'data-action="premature"' in body
    assert 'data-action="four-card-flop"' not in body  # only when the flop is dealt
    response = tap(client, event_in_play, first_table.number, "premature")
    body = response.content.decode()
    assert response.status_code == 200 and 'data-next-deal="RP-05-A"' in body
    assert 'data-action="premature"' not in body  # once per street


@pytest.mark.parametrize("action, fields", [
    ("exposed-in-deal", {"position": "x"}),
    ("wrong-card-count", {"seat": "3", "count": "-1"}),
    ("stub-rebuilt", {"how": "guess"}),
    ("exposed-card", {"seat": "1", "cards": "Zz"}),
    ("burn-error", {"burns": "1"}),
])
def test_bad_input_to_a_dealing_error_says_what_is_wrong_and_records_nothing(
    client, event_in_play, first_table, dealer_dana_here, action, fields
):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    rows = len(hand_reads.effective_rows(hand_in_play(first_table)))
    response = tap(client, event_in_play, first_table.number, action, **fields)
    assert 400 <= response.status_code < 500
    assert len(hand_reads.effective_rows(hand_in_play(first_table))) == rows


# -- CC-95's cases, CC-105 in an all-in hand and the street after a burn error ---------------------------


def test_a_card_seen_by_a_player_not_in_the_hand_is_listed_to_show_at_the_hand_s_end_CC_95(
    client, event_in_play, first_table, dealer_dana_here
):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    folded = to_act(first_table)
    tap(client, event_in_play, first_table.number, "fold", seat=folded)
    seat = to_act(first_table)
    body = tap(client, event_in_play, first_table.number, "exposed-card", seat=seat, cards="Ah",
               seen_by="out").content.decode()
    assert 'name="seen_by"' in body
    at_end = body.split("data-exposed-at-end", 1)[1].split("</p>", 1)[0]
    assert f"seat {seat}: Ah" in at_end and "data-exposed>" not in body  # not shown to everyone now
    record = hand_reads.effective_rows(hand_in_play(first_table))[-1].record
    assert record == {"action": "exposed-card", "seat": seat, "card": "Ah", "seen_by": "out"}
    # another active player saw the next one: shown to everyone at once
    other = next(s for s in engine(first_table).seats if s not in (seat, folded))
    body = tap(client, event_in_play, first_table.number, "exposed-card", seat=other, cards="Kd",
               seen_by="active").content.decode()
    now = body.split("data-exposed>", 1)[1].split("</p>", 1)[0]
    assert f"seat {other}: Kd" in now and f"seat {seat}: Ah" not in now
    assert engine(first_table).exposed_cards(at_end=True) == {seat: ["Ah"]}


def all_in_to_the_showdown(table, by) -> tuple[int, int]:
    """The first player in turn all-in, the next one calls, the others fold; the board dealt without
    burns recorded: the showdown, both hands tabled (TDA-16)."""
    at(table, dealing.start_hand, by)
    shover = to_act(table)
    tap_record(table, by, {"action": "all-in", "seat": shover})
    caller = to_act(table)
    tap_record(table, by, {"action": "call", "seat": caller})
    while engine(table).to_act is not None:
        tap_record(table, by, {"action": "fold", "seat": to_act(table)})
    tap_record(table, by, {"action": "deal-flop", "cards": ["2c", "3d", "4h"]})
    tap_record(table, by, {"action": "deal-turn", "card": "6s"})
    tap_record(table, by, {"action": "deal-river", "card": "8d"})
    assert engine(table).phase is Phase.SHOWDOWN
    return shover, caller


def test_an_all_in_hand_s_flop_burn_error_found_at_the_showdown_is_corrected_at_the_tablet_CC_105(
    client, event_in_play, first_table, dealer_dana_here
):
    shover, caller = all_in_to_the_showdown(first_table, dealer_dana_here)
    client.force_login(dealer_dana_here)
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="street"' in page and '<option value="flop">' in page  # an earlier street may be named
    response = tap(client, event_in_play, first_table.number, "burn-error", burns="0", street="flop")
    assert response.status_code == 200
    hand = engine(first_table)
    assert hand.phase is Phase.BOARD and hand.board == () and hand.street.value == "preflop"
    # dealt again as the cards would have come: the flop's first card was its burn
    tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["3d", "4h", "5h"], "burn": "2c"})
    tap_record(first_table, dealer_dana_here, {"action": "deal-turn", "card": "7c", "burn": "6s"})
    tap_record(first_table, dealer_dana_here, {"action": "deal-river", "card": "9d", "burn": "8d"})
    for seat, cards in ((shover, ["As", "Ad"]), (caller, ["Ks", "Kd"])):
        tap_record(first_table, dealer_dana_here, {"action": "show", "seat": seat, "cards": cards})
    tap_record(first_table, dealer_dana_here, {"action": "award-pots"})
    line = hand_reads.hand_line(hand_in_play(first_table))
    assert {"act": "burn-error", "burns": 0, "street": "flop"} in line["actions"]
    assert line["board"] == ["3d", "4h", "5h", "7c", "9d"]
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["stacks"] == {str(s): c for s, c in sorted(engine(first_table).stacks.items())}


def test_the_turn_after_a_missed_burn_is_recorded_with_two_burns_and_exported_so_CC_105(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    close_the_round(first_table, dealer_dana_here)
    tap_record(first_table, dealer_dana_here, {"action": "deal-flop", "cards": ["2c", "3d", "4h"]})
    tap_record(first_table, dealer_dana_here, {"action": "check", "seat": to_act(first_table)})
    tap_record(first_table, dealer_dana_here, {"action": "burn-error", "burns": 0})  # after action: stands
    close_the_round(first_table, dealer_dana_here)
    tap_record(first_table, dealer_dana_here, {"action": "deal-turn", "card": "9c"})
    record = hand_reads.effective_rows(hand_in_play(first_table))[-1].record
    assert record == {"action": "deal-turn", "card": "9c", "burns": 2}  # two burn cards before it
    while engine(first_table).to_act is not None:
        tap_record(first_table, dealer_dana_here, {"action": "fold", "seat": to_act(first_table)})
    tap_record(first_table, dealer_dana_here, {"action": "award-pots"})
    line = hand_reads.hand_line(hand_in_play(first_table))
    assert line["burns"] == {"flop": 1, "turn": 2}
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["stacks"] == {str(s): c for s, c in sorted(engine(first_table).stacks.items())}
    # a line whose burns do not follow from its acts is refused
    assert "CC-105" in replay_holdem_hand({**line, "burns": {"flop": 1, "turn": 1}})["error"]


@pytest.mark.parametrize("action, fields", [
    ("exposed-card", {"seat": "1", "cards": "Ah", "seen_by": "everyone"}),
    ("burn-error", {"burns": "0", "street": "preflop"}),
])
def test_bad_input_to_CC_95_and_CC_105_says_what_is_wrong_and_records_nothing(
    client, event_in_play, first_table, dealer_dana_here, action, fields
):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    rows = len(hand_reads.effective_rows(hand_in_play(first_table)))
    response = tap(client, event_in_play, first_table.number, action, **fields)
    assert 400 <= response.status_code < 500 and "Choose one of the options" in response.content.decode()
    assert len(hand_reads.effective_rows(hand_in_play(first_table))) == rows
