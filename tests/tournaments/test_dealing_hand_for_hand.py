"""Hand-for-hand at the dealers' tablets (issue #15; CC-11, CC-12, RP-08): every table finishes its
hand and waits; the director releases the next deal at every table at once; after an all-in and a
call no card is dealt until the director says so (RP-08-F)."""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


# Hand-for-hand synchronises several tables (issue #36): these tests deal at the first of two tables, the other
# one's hand of each deal still to run; one table alone is tests/tournaments/test_hand_for_hand_tables.py.
@pytest.fixture
def event_in_play(two_tables_in_play):
    return two_tables_in_play


@pytest.fixture
def first_table(two_dealt_tables):
    return two_dealt_tables[0]


def fold_to_the_big_blind(table, dealer):
    while to_act(table) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": to_act(table)})
    at(table, dealing.act, dealer, record={"action": "award-pots"})


def test_each_hand_for_hand_deal_waits_for_the_directors_release_CC_11(first_table, dealer_dana_here, event_in_play,
                                                                       director_dora):
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.start_hand, dealer_dana_here)
    assert refused.value.clause == "CC-11"
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_hand")  # the director releases a deal
    at(first_table, dealing.start_hand, dealer_dana_here)
    first = hand_in_play(first_table)
    fold_to_the_big_blind(first_table, dealer_dana_here)
    first.refresh_from_db()
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.start_hand, dealer_dana_here)  # played its hand of this deal: it waits
    assert refused.value.clause == "CC-11"
    # the hand went into the event as a hand-for-hand hand (RP-08: busts in it share their places, CC-21)
    reported = event_reads.tournament_record(event_in_play)[first.reported_seq - 1]
    assert reported["hand_for_hand_hand"] == 1
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_hand")
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert hand_in_play(first_table).number == 2


def test_a_misdealt_hand_for_hand_hand_is_dealt_again_within_the_same_release(first_table, dealer_dana_here,
                                                                               event_in_play, director_dora):
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_hand")
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "misdeal"})
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert hand_in_play(first_table).number == 2


def test_after_an_all_in_and_a_call_no_card_is_dealt_until_the_director_releases_it_RP_08_F(
    first_table, dealer_dana_here, event_in_play, director_dora
):
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_hand")
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    flop = {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.act, dealer_dana_here, record=flop)
    assert refused.value.clause == "RP-08-F"
    with pytest.raises(NotAllowed):
        at(first_table, dealing.release_board, dealer_dana_here)  # the director's word, not the dealer's
    at(first_table, dealing.release_board, director_dora)
    at(first_table, dealing.act, dealer_dana_here, record=flop)
    assert len(hand_reads.hand_state(hand_in_play(first_table)).board) == 3
    assert AuditEvent.objects.filter(action="tournament.table_board_released").exists()


def test_without_hand_for_hand_the_board_is_dealt_at_once(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "deal-flop", "cards": ["2c", "7d", "9h"]})
    assert len(hand_reads.hand_state(hand_in_play(first_table)).board) == 3
