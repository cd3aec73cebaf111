"""Out-of-turn action at a dealt tournament table (issue #38 item 1): the dealer records it at its seat from
the tablet (TDA-53-A), it binds at the player's turn or the house option decides (CC-134, CC-135, C-08), a
skipped hand goes to the director's ruling from the console (TDA-53-B), and the hand's line carries it all
and replays to the recorded stacks."""

from __future__ import annotations

import uuid

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem.replay import replay_holdem_hand
from casino.writes import NotAllowed
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tests.tournaments.test_tablet import tap
from tournaments import services
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def engine(table):
    return hand_reads.hand_state(hand_in_play(table))


def next_after(table, seat: int) -> int:
    """The seat in turn after ``seat`` if ``seat`` calls."""
    return engine(table).call(seat).to_act


def rows(table) -> list[dict]:
    return [r.record for r in hand_reads.effective_rows(hand_in_play(table))]


def test_an_out_of_turn_call_is_recorded_at_its_seat_and_binds_at_its_turn_on_the_tablet_CC_134_CC_135(
    client, event_in_play, first_table, dealer_dana_here
):
    client.force_login(dealer_dana_here)
    dealt = tap(client, event_in_play, first_table.number, "new-hand").content.decode()
    assert 'data-out-of-turn' in dealt and 'id="tap-out-of-turn"' in dealt
    in_turn = to_act(first_table)
    later = next_after(first_table, in_turn)
    answer = tap(client, event_in_play, first_table.number, "out-of-turn", seat=later, act="call")
    body = answer.content.decode()
    assert answer.status_code == 200 and f'data-oot="{later}"' in body and "Out of turn: call" in body
    assert to_act(first_table) == in_turn  # the action goes back to the player skipped (TDA-53-A)
    assert rows(first_table)[-1] == {"action": "out-of-turn", "seat": later, "act": "call"}
    # the player in turn calls: no change, the call out of turn binds
    body = tap(client, event_in_play, first_table.number, "call", seat=in_turn).content.decode()
    assert to_act(first_table) == later and 'data-binding="CC-135"' in body
    assert f'id="tap-fold-{later}"' not in body and 'data-action="raise"' not in body
    assert f'id="tap-call-{later}"' in body
    before = len(rows(first_table))
    refused = tap(client, event_in_play, first_table.number, "raise", seat=later, to=200)
    assert refused.status_code == 422 and "CC-135" in refused.content.decode()
    assert len(rows(first_table)) == before  # nothing recorded
    assert tap(client, event_in_play, first_table.number, "call", seat=later).status_code == 200
    assert rows(first_table)[-1] == {"action": "call", "seat": later}


def test_a_changed_action_leaves_the_out_of_turn_player_call_or_fold_by_the_house_default_CC_134_C_08(
    client, event_in_play, first_table, dealer_dana_here
):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    in_turn = to_act(first_table)
    later = next_after(first_table, in_turn)
    tap(client, event_in_play, first_table.number, "out-of-turn", seat=later, act="call")
    body = tap(client, event_in_play, first_table.number, "raise", seat=in_turn, to=150).content.decode()
    assert to_act(first_table) == later and 'data-binding="CC-134"' in body and "calls or folds" in body
    assert 'data-action="raise"' not in body and f'id="tap-fold-{later}"' in body
    refused = tap(client, event_in_play, first_table.number, "raise", seat=later, to=300)
    assert refused.status_code == 422 and "CC-134" in refused.content.decode()
    assert tap(client, event_in_play, first_table.number, "fold", seat=later).status_code == 200


def test_where_the_house_follows_the_tda_a_changed_action_leaves_every_option_TDA_53_A_C_08(
    client, event_in_play, first_table, dealer_dana_here, director_dora
):
    act(services.change_setup, event_in_play, director_dora, reason="C-08", options={"oot_after_change": "all_options"})
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    assert hand_in_play(first_table).rules["oot_after_change"] == "all_options"
    in_turn = to_act(first_table)
    later = next_after(first_table, in_turn)
    tap(client, event_in_play, first_table.number, "out-of-turn", seat=later, act="call")
    body = tap(client, event_in_play, first_table.number, "raise", seat=in_turn, to=150).content.decode()
    assert 'data-binding="TDA-53-A"' in body and 'data-action="raise"' in body
    assert tap(client, event_in_play, first_table.number, "raise", seat=later, to=300).status_code == 200


@pytest.mark.parametrize(("fields", "status", "says"), [
    ({"act": "shove"}, 400, "act out of turn"),
    ({"act": "raise"}, 400, "amount"),
    ({"act": "raise", "to": 75}, 422, "TDA-43"),
])
def test_a_bad_act_out_of_turn_says_what_is_wrong_and_records_nothing_TDA_53_A(
    client, event_in_play, first_table, dealer_dana_here, fields, status, says
):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    later = next_after(first_table, to_act(first_table))
    before = len(rows(first_table))
    answer = tap(client, event_in_play, first_table.number, "out-of-turn", seat=later, **fields)
    body = answer.content.decode()
    assert answer.status_code == status and says in body, body[body.find("notice"):body.find("notice") + 400]
    assert len(rows(first_table)) == before


def test_the_act_of_the_player_in_turn_is_not_out_of_turn_TDA_53_A(client, event_in_play, first_table,
                                                                   dealer_dana_here):
    client.force_login(dealer_dana_here)
    tap(client, event_in_play, first_table.number, "new-hand")
    answer = tap(client, event_in_play, first_table.number, "out-of-turn", seat=to_act(first_table), act="fold")
    assert answer.status_code == 422 and "TDA-53-A" in answer.content.decode()


def skip_with_substantial_action(table, dealer):
    """Four players: the one in turn raises, the next is skipped, the two after him call and fold out of turn."""
    opener = to_act(table)
    at(table, dealing.act, dealer, record={"action": "raise", "seat": opener, "to": 150})
    skipped = to_act(table)
    third = next_after(table, skipped)
    fourth = engine(table).call(skipped).call(third).to_act
    at(table, dealing.act, dealer, record={"action": "out-of-turn", "seat": third, "act": "call"})
    at(table, dealing.act, dealer, record={"action": "out-of-turn", "seat": fourth, "act": "fold"})
    return skipped, third, fourth


def test_a_skipped_hand_goes_to_the_directors_ruling_from_the_console_and_the_line_replays_TDA_53_B(
    client, event_in_play, first_table, dealer_dana_here, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    skipped, third, fourth = skip_with_substantial_action(first_table, dealer_dana_here)
    assert engine(first_table).skipped_ruling == skipped
    with pytest.raises(RuleViolation) as waits:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": skipped})
    assert waits.value.clause == "TDA-53-B"
    with pytest.raises(NotAllowed):  # the dealer does not rule
        at(first_table, dealing.rule_skipped_hand, dealer_dana_here, seat=skipped, ruling="dead")
    client.force_login(director_dora)
    page = client.get(f"/tournaments/{event_in_play.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-skipped-hand="{skipped}"' in page and 'data-ruling="dead"' in page
    event_in_play.refresh_from_db()
    response = client.post(f"/tournaments/{event_in_play.pk}/act/rule-skipped-hand/",
                           {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
                            "seat": skipped, "ruling": "dead"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    state = engine(first_table)
    assert state.folded[state.seats.index(skipped)] and state.to_act == third
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": third})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": fourth})
    line = hand_reads.hand_line(hand_in_play(first_table))
    assert {"seat": third, "act": "call", "out_of_turn": True} in line["actions"]
    assert {"seat": skipped, "act": "skipped-hand", "ruling": "dead"} in line["actions"]
    answer = replay_holdem_hand(line)
    assert answer["stacks"] == {str(s): c for s, c in sorted(engine(first_table).stacks.items())}


def test_a_bad_ruling_from_the_console_is_refused_with_a_message_never_a_500_TDA_53_B(
    client, event_in_play, first_table, dealer_dana_here, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    skipped, _third, _fourth = skip_with_substantial_action(first_table, dealer_dana_here)
    client.force_login(director_dora)
    for fields in ({"seat": skipped, "ruling": "warning"}, {"seat": "x", "ruling": "dead"}):
        event_in_play.refresh_from_db()
        response = client.post(f"/tournaments/{event_in_play.pk}/act/rule-skipped-hand/",
                               {"version": event_in_play.version, "key": uuid.uuid4().hex,
                                "table": first_table.number, **fields}, HTTP_HX_REQUEST="true")
        assert response.status_code == 400
    assert engine(first_table).skipped_ruling == skipped  # nothing recorded


def test_the_dealer_does_not_undo_the_directors_ruling_on_a_skipped_hand_but_the_director_may_TDA_53_B(
    event_in_play, first_table, dealer_dana_here, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    skipped, _third, _fourth = skip_with_substantial_action(first_table, dealer_dana_here)
    at(first_table, dealing.rule_skipped_hand, director_dora, seat=skipped, ruling="non-aggressive")
    with pytest.raises(NotAllowed):
        at(first_table, dealing.undo_last, dealer_dana_here, reason="the dealer disagrees")
    assert rows(first_table)[-1] == {"action": "skipped-hand", "seat": skipped, "ruling": "non-aggressive"}
    at(first_table, dealing.undo_last, director_dora, reason="ruled on the wrong facts")
    assert engine(first_table).skipped_ruling == skipped


def test_an_act_out_of_turn_does_not_restart_the_time_to_act_of_the_player_in_turn_TDA_53_A_CC_114(
    first_table, dealer_dana_here
):
    from datetime import timedelta

    from django.utils import timezone

    from casino.writes import simulated_time
    from tests.tournaments.test_time_to_act import timed_now

    t0 = timezone.now().replace(microsecond=0) + timedelta(minutes=5)
    with simulated_time(t0):
        at(first_table, dealing.start_hand, dealer_dana_here)
    in_turn = to_act(first_table)
    later = next_after(first_table, in_turn)
    with simulated_time(t0 + timedelta(seconds=20)):
        at(first_table, dealing.act, dealer_dana_here, record={"action": "out-of-turn", "seat": later, "act": "call"})
    timed = timed_now(first_table)
    assert (timed.seat, timed.since) == (in_turn, t0)  # his 60 seconds still run from the deal


def test_the_tables_page_lists_the_acts_out_of_turn_and_the_ruling_for_the_directors_back_up_TDA_53_TDA_01(
    client, event_in_play, first_table, dealer_dana_here, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    skipped, third, _fourth = skip_with_substantial_action(first_table, dealer_dana_here)
    at(first_table, dealing.rule_skipped_hand, director_dora, seat=skipped, ruling="dead")
    client.force_login(director_dora)
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    listed = page[page.index('class="hand-actions"'):]
    assert f"Seat {third}: <strong>out-of-turn</strong> call" in listed
    assert f"Seat {skipped}: <strong>skipped-hand</strong> dead" in listed


def test_the_out_of_turn_seats_start_with_the_player_after_the_one_in_turn_TDA_53_A(
    client, event_in_play, first_table, dealer_dana_here
):
    import re

    client.force_login(dealer_dana_here)
    dealt = tap(client, event_in_play, first_table.number, "new-hand").content.decode()
    in_turn = to_act(first_table)
    seat_list = dealt.split("data-oot-seat>")[1].split("</select>")[0]
    offered = [int(s) for s in re.findall(r'<option value="(\d+)">', seat_list)]
    # the one who acts out of turn is most often the next player: he is the first seat offered (and pre-selected)
    assert offered[0] == next_after(first_table, in_turn)
    assert in_turn not in offered and len(offered) == len(set(offered))
