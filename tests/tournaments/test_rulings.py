"""The director's ruling on a hand in play at a dealt table (issue #15; TDA-01, C-15, CC-43): the hand goes
back to before one of its actions, with his reason, and the dealer enters it again from there."""

from __future__ import annotations

import uuid

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tests.tournaments.test_penalties import fold_it_out
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def rows(table):
    return hand_reads.effective_rows(hand_in_play(table))


def test_the_director_backs_the_hand_up_to_before_a_raise_and_the_dealer_goes_on_from_there_TDA_01(
    first_table, dealer_dana_here, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    before = hand_reads.hand_state(hand_in_play(first_table))
    raiser = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": raiser, "to": 150})
    caller = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": caller})
    raise_row = next(r for r in rows(first_table) if r.record["action"] == "raise")
    at(first_table, dealing.back_up_hand, director_dora, to_seq=raise_row.seq,
       reason="the raise was 100 by the dealer's count")
    now = hand_reads.hand_state(hand_in_play(first_table))
    assert now.to_act == raiser and now.stacks == before.stacks and now.pot_total == before.pot_total
    undo_rows = list(hand_in_play(first_table).actions.filter(record__action="undo").order_by("seq"))
    assert [r.undoes.record["action"] for r in undo_rows] == ["call", "raise"]  # newest first
    assert {r.reason for r in undo_rows} == {"the raise was 100 by the dealer's count"}
    audit = AuditEvent.objects.get(action="tournament.table_hand_backed_up")
    assert [r["action"] for r in audit.details["undone"]] == ["raise", "call"]
    # the dealer enters it again; the hand line has only what stands
    at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": raiser, "to": 100})
    line = fold_it_out(first_table, dealer_dana_here)
    acts = hand_reads.hand_line(hand_in_play(first_table))["actions"]
    assert {"seat": raiser, "act": "raise", "to": 100} in acts
    assert {"seat": raiser, "act": "raise", "to": 150} not in acts
    assert line["type"] == "hand"


def test_only_the_director_or_the_floor_rules_and_always_with_a_reason(first_table, dealer_dana_here, floor_fede):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    fold = rows(first_table)[-1]
    with pytest.raises(NotAllowed):
        at(first_table, dealing.back_up_hand, dealer_dana_here, to_seq=fold.seq, reason="mine")
    with pytest.raises(RuleViolation, match="Say why"):
        at(first_table, dealing.back_up_hand, floor_fede, to_seq=fold.seq, reason="  ")
    at(first_table, dealing.back_up_hand, floor_fede, to_seq=fold.seq, reason="the player only spoke")
    assert rows(first_table)[-1].record["action"] != "fold"


def test_the_deal_is_never_backed_up_and_an_unknown_action_is_refused_CC_43(first_table, dealer_dana_here,
                                                                             director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    deal = next(r for r in rows(first_table) if r.record["action"] == "deal-hole-cards")
    with pytest.raises(RuleViolation) as start:
        at(first_table, dealing.back_up_hand, director_dora, to_seq=deal.seq, reason="reshuffle")
    assert start.value.clause == "CC-43"
    with pytest.raises(RuleViolation, match="not in the hand in play"):
        at(first_table, dealing.back_up_hand, director_dora, to_seq=999, reason="no such action")


def test_a_hand_over_and_in_the_record_is_not_backed_up_here_CC_43(first_table, dealer_dana_here, director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    fold = None
    while (seat := to_act(first_table)) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
        fold = fold or rows(first_table)[-1]
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    with pytest.raises(RuleViolation) as over:
        at(first_table, dealing.back_up_hand, director_dora, to_seq=fold.seq, reason="too late")
    assert over.value.clause == "CC-43"


def test_the_tables_page_lists_the_hand_and_the_director_backs_it_up_from_there(client, event_in_play, first_table,
                                                                                dealer_dana_here, director_dora):
    client.force_login(director_dora)
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "Hand 1 in play" in html and 'data-action="back-up-hand"' in html
    call = rows(first_table)[-1]
    first_table.refresh_from_db()
    event_in_play.refresh_from_db()
    fields = {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
              "table_version": first_table.version, "seq": call.seq, "reason": "called out of turn"}
    # a tap at the tablet since the page was read: the ruling is refused as stale, nothing undone
    at(first_table, dealing.call_clock, dealer_dana_here)
    stale = client.post(f"/tournaments/{event_in_play.pk}/act/back-up-hand/", fields, HTTP_ACCEPT_LANGUAGE="en")
    assert stale["X-Refused"] == "409" and rows(first_table)[-1].pk == call.pk
    # and is told what was recorded at the table since the version it ruled on (issue #35)
    told = client.get(stale["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Since your screen: The clock was called. Check and try again." in told
    first_table.refresh_from_db()
    done = client.post(f"/tournaments/{event_in_play.pk}/act/back-up-hand/",
                       {**fields, "key": uuid.uuid4().hex, "table_version": first_table.version},
                       HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 302 and "X-Refused" not in done
    assert all(r.record["action"] != "call" for r in rows(first_table))
    bad = client.post(f"/tournaments/{event_in_play.pk}/act/back-up-hand/",
                      {**fields, "key": uuid.uuid4().hex, "seq": "first"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad["X-Refused"] == "400"
