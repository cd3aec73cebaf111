"""Bonus awards held for approval (THB-54): who approves (C-30), what is audited, what the table waits for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.utils import translation

from casino.i18n import explain
from casino.models import AuditEvent
from tables import reads, services, sessions
from tables.models import Alert, Hand

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    flop,
    pass_river,
    pass_turn,
    play,
    reveal_box,
    reveal_dealer,
    river,
    turn,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def play_aces_against_aces(table, dealer):
    """Box 1: ante 10, Bonus 5, A-A against the dealer's A-A: 1000 to 1 (THB-53); the main bets push."""
    return play(
        table, dealer,
        ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL, bet_flop(1, 20), flop("2c 7d 9h"), pass_turn(1), turn("Js"),
        pass_river(1), river("Kc"), reveal_dealer("Ah Ad"), reveal_box(1, "As Ac"),
    )


@pytest.fixture
def award_held(hand_started, dealer_dana):
    result = play_aces_against_aces(hand_started, dealer_dana)
    hand_started.refresh_from_db()
    return hand_started, Hand.objects.get(pk=result.hand_id), result


def decide(table, by, hand, approve=True, **kwargs):
    return act(services.decide_award, table, by, hand_id=hand.pk, box=1, approve=approve, **kwargs)


def test_the_1000_to_1_award_holds_the_table_until_it_is_decided_THB_54(award_held, dealer_dana, pit_a):
    table, hand, result = award_held
    assert hand.phase == "settled" and hand.pending_approvals == 1 and not hand.is_finished
    assert hand.house_net is None  # not final while the award waits
    alert = Alert.objects.get(kind=Alert.Kind.APPROVAL)
    assert result.alerts == [reads.alert_text(alert)] and "5000" in reads.alert_text(alert)
    [pending] = reads.pending_approvals(pit_a)
    assert (pending.hand, pending.box, pending.award, pending.odds, pending.stake, pending.payout) == (
        hand, 1, "aa-vs-dealer-aa", 1000, 5, 5000)
    assert [str(c) for c in pending.state.dealer_cards] == ["Ah", "Ad"]  # the approver sees the cards
    with pytest.raises(services.RuleViolation) as refused:
        act(services.start_hand, table, dealer_dana)
    assert refused.value.clause == "THB-54"
    with pytest.raises(services.RuleViolation, match="Finish the hand"):
        act(sessions.request_closing, table, dealer_dana)


def test_the_pit_boss_approves_and_approver_role_time_and_decision_are_audited_C_30(award_held, pit_boss_pat,
                                                                                     dealer_dana, pit_a):
    table, hand, _ = award_held
    decide(table, pit_boss_pat, hand)
    hand.refresh_from_db()
    assert hand.pending_approvals == 0 and hand.is_finished and hand.house_net == -5000
    event = AuditEvent.objects.get(action="hand.award_approved")
    assert event.actor == pit_boss_pat and event.role == "pit_boss" and event.at is not None
    assert event.details["decision"] == "approved" and event.details["approver"] == "pat"
    assert event.details["award"] == "aa-vs-dealer-aa" and event.details["payout"] == 5000
    assert hand.actions.last().record == {"action": "approve-bonus", "box": 1, "approver": "pat"}
    alert = Alert.objects.get(kind=Alert.Kind.APPROVAL)
    assert alert.acknowledged_by == pit_boss_pat
    assert reads.pending_approvals(pit_a) == [] and reads.open_alerts(pit_a) == []
    act(services.start_hand, table, dealer_dana)  # the table goes on


def test_the_dealer_who_asked_can_never_approve_the_1000_to_1_C_30(award_held, dealer_dana, pit_a):
    table, hand, _ = award_held
    with pytest.raises(services.NotAllowed):
        decide(table, dealer_dana, hand)
    # Even someone who is also the pit's pit boss: they dealt this hand, so a second person decides.
    dealer_dana.groups.add(Group.objects.get(name="pit_boss"))
    pit_a.pit_boss = dealer_dana
    pit_a.save()
    dealer_dana = type(dealer_dana).objects.get(pk=dealer_dana.pk)  # fresh role and permission caches
    with pytest.raises(services.NotAllowed, match="never approve"):
        decide(table, dealer_dana, hand)
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1


def test_a_pit_boss_of_another_pit_cannot_approve(award_held, pit_boss_paula):
    table, hand, _ = award_held
    with pytest.raises(services.NotAllowed):
        decide(table, pit_boss_paula, hand)


def test_with_the_games_director_as_the_house_approver_the_pit_boss_is_refused_C_30(
    award_held, pit_boss_pat, games_director_gloria
):
    table, hand, _ = award_held
    table.house_options = {"award_approver_role": "games_director"}
    table.save()
    with translation.override("en"), pytest.raises(services.NotAllowed, match="Only the Games director"):
        decide(table, pit_boss_pat, hand)
    decide(table, games_director_gloria, hand)
    assert AuditEvent.objects.get(action="hand.award_approved").role == "games_director"


def test_a_denied_award_is_not_paid_and_its_stake_is_returned_THB_54(award_held, pit_boss_pat):
    table, hand, _ = award_held
    decide(table, pit_boss_pat, hand, approve=False, reason="dealer's aces not verified on camera")
    hand.refresh_from_db()
    box = reads.hand_state(hand).settlement.box(1)
    assert box.bonus.wager.net == 0 and box.net == 0 and hand.house_net == 0 and hand.is_finished
    event = AuditEvent.objects.get(action="hand.award_denied")
    assert event.details["reason"] == "dealer's aces not verified on camera"


def test_an_award_is_decided_once(award_held, pit_boss_pat, games_director_gloria):
    table, hand, _ = award_held
    decide(table, pit_boss_pat, hand)
    with pytest.raises(services.RuleViolation, match="no Bonus award waiting"):
        decide(table, games_director_gloria, hand, approve=False)


def test_a_hand_of_another_table_cannot_be_decided_here(award_held, table_two, pit_boss_pat):
    _, hand, _ = award_held
    with pytest.raises(services.NotAllowed):
        act(services.decide_award, table_two, pit_boss_pat, hand_id=hand.pk, box=1, approve=True)


def test_a_house_threshold_holds_any_award_above_it_THB_54(table_one, dealer_dana, pit_boss_pat):
    from .helpers import open_for_play

    # THB-67's house option off, so that only the threshold holds the award
    table_one.house_options = {"approval_above": 100, "release_every_bonus": False}
    table_one.save()
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    act(services.start_hand, table_one, dealer_dana)
    result = play(table_one, dealer_dana, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL,
                  {"action": "fold", "box": 1, "cards": ["Ah", "Ac"]})
    hand = Hand.objects.get(pk=result.hand_id)
    # A-A alone pays 30 to 1: 150 is above the house's 100, so it waits (the dealer's cards are
    # needed first to rule out the 1000 to 1, C-31).
    assert hand.phase != "settled"
    play(table_one, dealer_dana, reveal_dealer("Kd Ks"))
    hand.refresh_from_db()
    assert hand.phase == "settled" and hand.pending_approvals == 1
    decide(table_one, pit_boss_pat, hand)
    hand.refresh_from_db()
    assert hand.house_net == -(150 - 10)


def test_a_pit_boss_who_reported_an_irregularity_in_the_hand_may_still_approve_it(hand_started, dealer_dana,
                                                                                   pit_boss_pat):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL, bet_flop(1, 20))
    act(services.report_irregularity, hand_started, pit_boss_pat,
        record={"action": "report-face-up-card", "count": 1, "card": "5h"})
    result = play(hand_started, dealer_dana, flop("2c 7d 9h"), pass_turn(1), turn("Js"), pass_river(1), river("Kc"),
                  reveal_dealer("Ah Ad"), reveal_box(1, "As Ac"))
    hand = Hand.objects.get(pk=result.hand_id)
    decide(hand_started, pit_boss_pat, hand)
    hand.refresh_from_db()
    assert hand.is_finished


# --- One answer to "may this person decide this award?" for the console and the service (C-30) -----


def _console_and_service_answers(table, hand, pit, person):
    """What the pit console shows this person instead of the buttons, and what the service answers them."""
    from tables import rendering

    with translation.override("es"):
        [approval] = rendering.pit_context(pit, person)["approvals"]
        shown = approval["why_not"]
        try:
            decide(table, person, hand)
        except services.NotAllowed as refused:
            return shown, explain(refused)
    return shown, None


@pytest.mark.parametrize("approver_role, person, refused", [
    ("pit_boss", "pit_boss_pat", None),
    ("pit_boss", "games_director_gloria", None),
    ("pit_boss", "pit_boss_paula", "Solo el Jefe de mesa puede aprobar este premio (C-30)."),
    ("pit_boss", "dealer_dana", "Solo el Jefe de mesa puede aprobar este premio (C-30)."),
    ("games_director", "pit_boss_pat", "Solo el Director de juego puede aprobar este premio (C-30)."),
    ("games_director", "games_director_gloria", None),
])
def test_the_console_offers_the_buttons_to_exactly_those_the_service_lets_decide_C_30(
    award_held, pit_a, approver_role, person, refused, request
):
    table, hand, _ = award_held
    table.house_options = {"award_approver_role": approver_role}
    table.save()
    person = request.getfixturevalue(person)
    assert _console_and_service_answers(table, hand, pit_a, person) == (refused, refused)


def test_the_dealer_of_the_hand_is_refused_alike_by_the_console_and_the_service_even_as_pit_boss_C_30(
    award_held, dealer_dana, pit_a
):
    table, hand, _ = award_held
    dealer_dana.groups.add(Group.objects.get(name="pit_boss"))
    pit_a.pit_boss = dealer_dana
    pit_a.save()
    dealer_dana = type(dealer_dana).objects.get(pk=dealer_dana.pk)
    said = "El crupier que pidió el premio nunca puede aprobarlo (C-30)."
    assert _console_and_service_answers(table, hand, pit_a, dealer_dana) == (said, said)


def test_the_casinos_approver_role_comes_from_the_setting_when_the_table_does_not_say_C_30(
    award_held, pit_boss_pat, games_director_gloria, settings
):
    table, hand, _ = award_held
    settings.AWARD_APPROVER_ROLE = "games_director"
    assert services.award_approver_role(table) == "games_director"
    with translation.override("en"), pytest.raises(services.NotAllowed, match="Only the Games director"):
        decide(table, pit_boss_pat, hand)
    decide(table, games_director_gloria, hand)


def test_a_denial_without_a_reason_is_refused_and_nothing_is_recorded_THB_54(award_held, pit_boss_pat):
    """Issue #16: a denial took no reason. The reason is the record's answer to the player."""
    table, hand, _result = award_held
    for reason in ("", "   "):
        with pytest.raises(services.RuleViolation) as refused:
            decide(table, pit_boss_pat, hand, approve=False, reason=reason)
        assert refused.value.clause == "THB-54"
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1
    assert not AuditEvent.objects.filter(action="hand.award_denied").exists()
    decide(table, pit_boss_pat, hand, approve=False, reason="the dealer's aces were not shown to the camera")
    denied = AuditEvent.objects.get(action="hand.award_denied")
    assert denied.details["reason"] == "the dealer's aces were not shown to the camera"


def test_the_console_approves_only_with_the_confirmation_step(award_held, pit_boss_pat, client):
    from .screens import console

    table, hand, _result = award_held
    boss = console(client, pit_boss_pat, table)
    assert 'data-action="confirm-approve"' in boss.html and 'name="confirm" value="1"' in boss.html
    boss.tap("award", hand=str(hand.pk), box="1", approve="1", expect=400)  # one tap alone: refused
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1
    boss.tap("award", hand=str(hand.pk), box="1", approve="0", expect=422)  # a denial without its reason
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1
    boss.tap("award", hand=str(hand.pk), box="1", approve="1", confirm="1")
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 0


def test_a_table_whose_house_has_the_pit_boss_release_every_bonus_holds_a_30_to_1_THB_67(open_table, dealer_dana):
    from .helpers import play_to_settlement

    open_table.house_options = {"release_every_bonus": True}
    open_table.save(update_fields=["house_options"])
    act(services.start_hand, open_table, dealer_dana)  # the hand keeps the rules it starts under
    result = play_to_settlement(open_table, dealer_dana)  # box 1's A-A Bonus: 30 to 1
    hand = Hand.objects.get(pk=result.hand_id)
    assert hand.pending_approvals == 1 and not hand.is_finished
    assert reads.hand_state(hand).settlement.pending_approvals == (1,)


def test_thb67_by_default_every_winning_bonus_waits_for_the_pit_boss_and_thb65_its_cards_stay_out_of_the_discards(
    hand_started, dealer_dana, pit_boss_pat, client
):
    from .screens import tablet

    assert hand_started.house_options == {}  # the table says nothing: the rules as written
    result = play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), ante(2, 10), bonus(2, 5), CLOSE_BETS, DEAL,
                  {"action": "fold", "box": 1, "cards": ["Qh", "Qd"]},
                  {"action": "fold", "box": 2, "cards": ["7c", "2d"]})
    hand = Hand.objects.get(pk=result.hand_id)
    # Q-Q pays 10 to 1, no 1000 to 1 and no threshold: held all the same, for the pit boss's release (THB-67).
    assert hand.phase == "settled" and hand.pending_approvals == 1 and not hand.is_finished
    pad = tablet(client, dealer_dana, hand_started)
    assert 'data-step="approval"' in pad.html
    assert 'data-cards-kept="1"' in pad.html and "THB-65" in pad.html  # box 2 lost its Bonus: its cards go
    decide(hand_started, pit_boss_pat, hand)
    hand.refresh_from_db()
    assert hand.is_finished and hand.house_net == -(5 * 10 - 10) + (10 + 5)
    pad.refresh()
    assert 'data-step="settled"' in pad.html and "data-cards-kept" not in pad.html


def test_thb67_the_house_option_pays_an_ordinary_bonus_at_once(bonus_paid_without_release, hand_started, dealer_dana):
    result = play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL,
                  {"action": "fold", "box": 1, "cards": ["Qh", "Qd"]})
    hand = Hand.objects.get(pk=result.hand_id)
    assert hand.phase == "settled" and hand.pending_approvals == 0 and hand.is_finished
