"""What the pit's screens say, and what they offer (issue #16, item 4).

The phase a screen names is the step the dealer is on; a settled hand whose award waits is waiting,
not settled; "Undo" is offered only where an undo is taken (THB-64); a returned ante says so, a loss
shows what was lost; the keypad offers no chip the table's limits refuse.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from casino.player_links import url_for
from tables import reads, rendering
from tables.projections import PHASE_LABELS, dealer_projection, phase_label, pit_summary
from tests.conftest import issue_box_link

from .helpers import CLOSE_BETS, DEAL, ante, bet_flop, flop, pass_turn, play
from .screens import console, tablet
from .test_bonus_awards_and_approvals import play_aces_against_aces

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def _state(table):
    return reads.current_hand(table)[1]


def test_the_phase_names_the_card_to_deal_once_every_box_has_decided(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    assert phase_label(_state(hand_started)) == PHASE_LABELS["flop-decisions"]
    play(hand_started, dealer_dana, bet_flop(1, 20))
    assert phase_label(_state(hand_started)) == PHASE_LABELS["flop-cards"]
    play(hand_started, dealer_dana, flop("2c 7d 9h"))
    assert phase_label(_state(hand_started)) == PHASE_LABELS["turn-decisions"]
    play(hand_started, dealer_dana, pass_turn(1))
    # Issue #16: the turn-card step said "Decisiones del turn".
    assert phase_label(_state(hand_started)) == PHASE_LABELS["turn-cards"]
    assert dealer_projection(_state(hand_started))["phase_label"] == PHASE_LABELS["turn-cards"]


def test_an_award_waiting_for_approval_is_shown_as_waiting_not_settled_THB_54(hand_started, dealer_dana):
    play_aces_against_aces(hand_started, dealer_dana)
    state = _state(hand_started)
    assert phase_label(state) == PHASE_LABELS["approval"] != PHASE_LABELS["settled"]


def test_undo_is_offered_after_a_bet(client, hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    assert 'data-action="undo"' in tablet(client, dealer_dana, hand_started).html


def test_undo_is_not_offered_while_an_award_waits_for_approval_THB_64(client, hand_started, dealer_dana):
    """Issue #16: "Deshacer" was offered while the award waited, then refused (THB-64)."""
    play_aces_against_aces(hand_started, dealer_dana)
    assert 'data-action="undo"' not in tablet(client, dealer_dana, hand_started).html
    assert rendering.dealer_context(hand_started, dealer_dana)["can_undo"] is False


def test_a_closed_bet_step_offers_no_undo_of_no_more_bets(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS)
    assert rendering.dealer_context(hand_started, dealer_dana)["can_undo"] is False


def test_the_held_award_counts_as_at_risk_and_as_pending_in_the_session_result(client, hand_started, dealer_dana,
                                                                                 pit_boss_pat):
    play_aces_against_aces(hand_started, dealer_dana)
    summary = pit_summary(_state(hand_started))
    assert summary["at_risk"] == 5000 and summary["held"] == 5000
    html = console(client, pit_boss_pat, hand_started).html
    held = html[html.index("data-pending-result"):]
    assert "5000" in held[:200].replace(".", "").replace(",", "")


def test_a_returned_ante_reads_returned_and_a_loss_shows_what_was_lost(client, hand_started, dealer_dana):
    link_1, link_5 = issue_box_link(hand_started, 1, dealer_dana), issue_box_link(hand_started, 5, dealer_dana)
    from .helpers import play_to_settlement

    play_to_settlement(hand_started, dealer_dana)  # box 1: A-A beats Q-Q, ante pushed; box 5 folds
    with translation.override("en"):
        phone = client.__class__()
        phone.get(url_for(link_1))
        page = phone.get(reverse("player_home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Ante returned" in page and not re.search(r"Ante</span> <span>0<", page)
        phone = client.__class__()
        phone.get(url_for(link_5))
        page = phone.get(reverse("player_home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "You lose: 7" in page and "Paid to you: 0" not in page


def test_the_keypad_offers_no_chip_above_the_tables_limits(hand_started, dealer_dana):
    context = rendering.dealer_context(hand_started, dealer_dana)
    assert max(context["chips"]) <= 100  # THB-1: ante 5 to 100, Bonus to the table maximum
    assert 500 not in context["chips"] and 100 in context["chips"]
