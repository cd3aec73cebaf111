"""The table's bank through the services (issue #39, docs/bank.md): the float counted by the dealer and signed by
the pit boss (THB-70), a closing that does not add up refused, fill and credit slips with their four steps and no
one signing two, the drop, and the shift's counted win against the hands recorded over the same sessions."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tables import bank, bank_reads, services, sessions
from tables.models import ChipSlip, ChipSlipStep, DropEntry, FloatCount, Hand, TableSession
from tests.conftest import _staff

from .helpers import CLOSE_BETS, DEAL, act, ante, fold, play, play_to_settlement

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]

OPENING_FLOAT = {1000: 5, 100: 40, 25: 80, 5: 100}  # 11,500


def chips_for(amount: int) -> dict[int, int]:
    """``amount`` in the house's chips, the largest first."""
    chips = {}
    for denomination in (1000, 100, 25, 5, 1):
        chips[denomination], amount = divmod(amount, denomination)
    return {d: n for d, n in chips.items() if n}


@pytest.fixture
def cashier_carla(django_user_model):
    return _staff(django_user_model, "carla", "cage_cashier", "Carla")


@pytest.fixture
def security_sam(django_user_model):
    return _staff(django_user_model, "sam", "security_officer", "Sam")


def opened_with_float(table, dealer, pit_boss, chips=OPENING_FLOAT):
    act(sessions.request_opening, table, dealer)
    act(sessions.confirm_deck_check, table, pit_boss)
    act(bank.count_float, table, dealer, stage="opening", chips=chips)
    act(bank.sign_float, table, pit_boss, stage="opening")
    return TableSession.objects.get(table=table, status=TableSession.Status.OPEN)


def request(table, by, kind, chips):
    done = bank.request_slip(table=table, by=by, key=uuid.uuid4().hex, kind=kind, chips=chips)
    return ChipSlip.objects.get(pk=done.ids["slip"])


def sign(slip, by):
    slip.refresh_from_db()
    return bank.sign_slip(slip=slip, by=by, key=uuid.uuid4().hex, expected_version=slip.version)


def a_hand(table, dealer):
    act(services.start_hand, table, dealer)
    play(table, dealer, ante(1, 10), ante(3, 20), CLOSE_BETS, DEAL, fold(1), fold(3))


def closing(table, dealer, pit_boss, short_by=0, reason=""):
    act(sessions.request_closing, table, dealer)
    session = TableSession.objects.get(table=table, status=TableSession.Status.CLOSING)
    expected = bank_reads.expected_closing(session)
    act(bank.count_float, table, dealer, stage="closing", chips=chips_for(expected - short_by))
    act(bank.sign_float, table, pit_boss, stage="closing", reason=reason)
    act(sessions.confirm_closing, table, pit_boss)
    return session


# --- The float (THB-70) -------------------------------------------------------------------------------


def test_the_opening_float_is_counted_by_the_dealer_and_signed_by_the_pit_boss_THB_70(
        table_one, dealer_dana, pit_boss_pat):
    session = opened_with_float(table_one, dealer_dana, pit_boss_pat)
    count = bank_reads.signed_float(session, "opening")
    assert (count.total, count.counted_by, count.signature.signed_by) == (11_500, dealer_dana, pit_boss_pat)
    assert count.chips == {"1000": 5, "100": 40, "25": 80, "5": 100}
    assert AuditEvent.objects.filter(action="table.float_counted").count() == 1
    assert AuditEvent.objects.get(action="table.float_signed").details["total"] == 11_500


def test_the_float_is_counted_by_the_dealer_and_a_denomination_the_house_has_not_is_refused_THB_70(
        table_one, dealer_dana, pit_boss_pat):
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    with pytest.raises(NotAllowed):
        act(bank.count_float, table_one, pit_boss_pat, stage="opening", chips=OPENING_FLOAT)
    with pytest.raises(RuleViolation) as refused:
        act(bank.count_float, table_one, dealer_dana, stage="opening", chips={7: 10})
    assert refused.value.clause == "THB-70"
    with pytest.raises(RuleViolation):  # nothing counted: nothing to sign
        act(bank.sign_float, table_one, pit_boss_pat, stage="opening")
    assert not FloatCount.objects.exists()


def test_a_closing_that_does_not_add_up_is_refused_until_recounted_THB_70(
        table_one, dealer_dana, pit_boss_pat):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    a_hand(table_one, dealer_dana)
    act(sessions.request_closing, table_one, dealer_dana)
    session = TableSession.objects.get(table=table_one)
    expected = bank_reads.expected_closing(session)
    assert expected == 11_500 + 30  # two antes lost to the house
    act(bank.count_float, table_one, dealer_dana, stage="closing", chips=chips_for(expected - 5))
    with pytest.raises(RuleViolation) as refused:
        act(bank.sign_float, table_one, pit_boss_pat, stage="closing")
    assert refused.value.clause == "THB-70" and refused.value.params["difference"] == -5
    with pytest.raises(RuleViolation):  # and the table does not close without its closing float signed
        act(sessions.confirm_closing, table_one, pit_boss_pat)
    act(bank.count_float, table_one, dealer_dana, stage="closing", chips=chips_for(expected))  # the recount
    act(bank.sign_float, table_one, pit_boss_pat, stage="closing")
    act(sessions.confirm_closing, table_one, pit_boss_pat)
    session.refresh_from_db()
    assert session.status == TableSession.Status.CLOSED
    assert bank_reads.signed_float(session, "closing").signature.expected == expected


def test_a_closing_that_does_not_add_up_may_be_signed_with_a_reason_THB_70(table_one, dealer_dana, pit_boss_pat):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    session = closing(table_one, dealer_dana, pit_boss_pat, short_by=25, reason="a 25 chip fell under the table")
    signed = bank_reads.signed_float(session, "closing")
    assert signed.signature.reason == "a 25 chip fell under the table"
    assert bank_reads.session_result(session)[0].difference == -25


# --- The drop ------------------------------------------------------------------------------------------


def test_the_dealer_records_the_drop_as_it_happens_and_markers_only_where_the_house_allows(
        table_one, dealer_dana, pit_boss_pat):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    act(bank.record_drop, table_one, dealer_dana, amount=500)
    with pytest.raises(RuleViolation):
        act(bank.record_drop, table_one, dealer_dana, amount=1_000, kind="marker")
    with pytest.raises(NotAllowed):
        act(bank.record_drop, table_one, pit_boss_pat, amount=500)
    table_one.house_options = {**table_one.house_options, "markers_allowed": True}
    table_one.save(update_fields=["house_options"])
    act(bank.record_drop, table_one, dealer_dana, amount=1_000, kind="marker")
    assert sorted(DropEntry.objects.values_list("kind", "amount")) == [("cash", 500), ("marker", 1_000)]


# --- Slips ------------------------------------------------------------------------------------------------


def test_a_fill_takes_four_steps_by_four_people_and_reaches_the_tray_when_received(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    slip = request(table_one, pit_boss_pat, "fill", {100: 20, 25: 40})
    assert slip.amount == 3_000 and slip.number == f"F-{slip.pk:06d}"
    for person in (cashier_carla, security_sam, dealer_dana):
        sign(slip, person)
    slip.refresh_from_db()
    assert slip.state == "received" and slip.in_tray_at is not None
    assert list(ChipSlipStep.objects.filter(slip=slip).values_list("step", "by__username")) == [
        ("requested", "pat"), ("issued", "carla"), ("carried", "sam"), ("received", "dana")]
    assert [e.action for e in AuditEvent.objects.filter(stream=f"tables.chipslip.{slip.pk}").order_by("seq")] == [
        "slip.requested", "slip.issued", "slip.carried", "slip.received"]
    assert bank_reads.tray_movements(slip.session)["fills"] == 3_000


def test_a_slips_step_is_refused_to_someone_who_signed_another_step_of_it(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    from django.contrib.auth.models import Group

    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    cashier_carla.groups.add(Group.objects.get(name="security_officer"))  # one person with both roles
    slip = request(table_one, pit_boss_pat, "fill", {100: 10})
    sign(slip, cashier_carla)
    with pytest.raises(RuleViolation) as refused:
        sign(slip, cashier_carla)
    assert "No one signs two steps" in refused.value.message
    sign(slip, security_sam)
    with pytest.raises(RuleViolation):  # the pit boss requested it: he may not receive it at the table too
        sign(slip, pit_boss_pat)
    assert ChipSlip.objects.get(pk=slip.pk).state == "carried"
    sign(slip, dealer_dana)


def test_each_step_of_a_slip_is_its_roles_and_nothing_is_recorded_when_refused(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    with pytest.raises(NotAllowed):
        request(table_one, dealer_dana, "fill", {100: 10})
    slip = request(table_one, pit_boss_pat, "fill", {100: 10})
    for wrong in (security_sam, dealer_dana):
        with pytest.raises(NotAllowed):
            sign(slip, wrong)
    assert ChipSlipStep.objects.filter(slip=slip).count() == 1


def test_a_credit_leaves_the_tray_when_the_table_releases_it_and_ends_at_the_cage(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    slip = request(table_one, pit_boss_pat, "credit", {1000: 2})
    sign(slip, dealer_dana)
    slip.refresh_from_db()
    assert slip.state == "released" and bank_reads.tray_movements(slip.session)["credits"] == 2_000
    sign(slip, security_sam)
    sign(slip, cashier_carla)
    assert ChipSlip.objects.get(pk=slip.pk).state == "received"


# --- The shift's result -------------------------------------------------------------------------------------


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_the_shifts_counted_win_equals_the_recorded_hands_result_to_the_chip(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    start = timezone.now()
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    act(bank.record_drop, table_one, dealer_dana, amount=2_000)
    fill = request(table_one, pit_boss_pat, "fill", {100: 30})
    for person in (cashier_carla, security_sam, dealer_dana):
        sign(fill, person)
    act(services.start_hand, table_one, dealer_dana)
    play_to_settlement(table_one, dealer_dana)
    a_hand(table_one, dealer_dana)
    credit = request(table_one, pit_boss_pat, "credit", {1000: 1})
    for person in (dealer_dana, security_sam, cashier_carla):
        sign(credit, person)
    closing(table_one, dealer_dana, pit_boss_pat)
    rows = bank_reads.shift_report(start, timezone.now())
    assert len(rows) == 1
    result = rows[0].result
    hands = sum(Hand.objects.filter(table=table_one).values_list("house_net", flat=True))
    assert (result.opening, result.fills, result.credits, result.drop) == (11_500, 3_000, 1_000, 2_000)
    assert result.win == result.drop + result.closing - result.opening + result.credits - result.fills
    assert result.win == hands == result.hands and result.difference == 0
    assert result.hold == result.win / 2_000


def test_a_one_chip_mispay_is_shown_as_a_difference_in_the_shift(table_one, dealer_dana, pit_boss_pat):
    start = timezone.now()
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    act(services.start_hand, table_one, dealer_dana)
    play(table_one, dealer_dana, ante(1, 10), ante(3, 5), CLOSE_BETS, DEAL, fold(1), fold(3))
    # the dealer paid one chip too many somewhere: the tray is one short, signed with the pit boss's reason
    closing(table_one, dealer_dana, pit_boss_pat, short_by=1, reason="short one chip: mispay suspected")
    [row] = bank_reads.shift_report(start, timezone.now())
    assert row.result.hands == 15 and row.result.win == 14 and row.result.difference == -1
    assert bank_reads.difference_over_time(start, timezone.now())[-1][1] == -1
    csv = bank_reads.report_csv([row])
    assert csv.splitlines()[0].startswith("pit,table,sessions") and ",-1," in csv.splitlines()[1]


def test_verify_audit_checks_each_slips_steps_against_its_stream(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    from django.db import connection

    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    slip = request(table_one, pit_boss_pat, "fill", {100: 10})
    sign(slip, cashier_carla)
    assert bank_reads.verify_slip_steps() == (1, [])
    # a step written behind the services' back (no audit event) is reported
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO tables_chipslipstep (slip_id, seq, step, by_id, at) VALUES (%s, 3, 'carried', %s, "
                       "now())", [slip.pk, security_sam.pk])
    checked, problems = bank_reads.verify_slip_steps(f"tables.chipslip.{slip.pk}")
    assert checked == 1 and "differ from the log" in problems[0]


# --- An unused slip voided (docs/bank.md) --------------------------------------------------------------------


def void(slip, by, reason="the table closed before the fill came"):
    slip.refresh_from_db()
    return bank.void_slip(slip=slip, by=by, key=uuid.uuid4().hex, expected_version=slip.version, reason=reason)


def test_an_unused_slip_is_voided_by_the_pit_boss_with_a_reason_audited_and_takes_no_more_steps(
        table_one, dealer_dana, pit_boss_pat, cashier_carla):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    slip = request(table_one, pit_boss_pat, "fill", {100: 10})
    void(slip, pit_boss_pat)
    slip.refresh_from_db()
    assert slip.state == "voided" and slip.in_tray_at is None and slip.session is None
    last = ChipSlipStep.objects.filter(slip=slip).order_by("seq").last()
    assert (last.step, last.by, last.reason) == ("voided", pit_boss_pat, "the table closed before the fill came")
    event = AuditEvent.objects.filter(stream=f"tables.chipslip.{slip.pk}").order_by("seq").last()
    assert event.action == "slip.voided" and event.details["reason"] == "the table closed before the fill came"
    with pytest.raises(RuleViolation, match="void"):
        sign(slip, cashier_carla)
    with pytest.raises(RuleViolation, match="void already"):
        void(slip, pit_boss_pat)
    assert ChipSlipStep.objects.filter(slip=slip).count() == 2
    assert bank_reads.verify_slip_steps() == (1, [])
    closed = closing(table_one, dealer_dana, pit_boss_pat)  # the tray never saw it: the closing adds up without it
    assert bank_reads.tray_movements(closed)["fills"] == 0


def test_a_slip_is_voided_only_unused_by_its_pit_boss_and_with_a_reason_nothing_recorded_when_refused(
        table_one, dealer_dana, pit_boss_pat, pit_boss_paula, cashier_carla):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    slip = request(table_one, pit_boss_pat, "fill", {100: 10})
    for someone in (dealer_dana, cashier_carla, pit_boss_paula):  # pit_boss_paula supervises another pit
        with pytest.raises(NotAllowed):
            void(slip, someone)
    with pytest.raises(RuleViolation, match="Say why"):
        void(slip, pit_boss_pat, reason="   ")
    sign(slip, cashier_carla)  # out of the cage: its chips are on their way
    with pytest.raises(RuleViolation, match="not yet issued or released"):
        void(slip, pit_boss_pat)
    credit = request(table_one, pit_boss_pat, "credit", {100: 2})
    sign(credit, dealer_dana)  # out of the tray
    with pytest.raises(RuleViolation, match="not yet issued or released"):
        void(credit, pit_boss_pat)
    assert not ChipSlipStep.objects.filter(step="voided").exists()
    assert not AuditEvent.objects.filter(action="slip.voided").exists()


# --- The last closing proposed as the next opening (THB-70) ----------------------------------------------------


def test_the_last_closing_is_proposed_as_the_next_opening_and_the_dealers_count_is_compared_THB_70(
        table_one, dealer_dana, pit_boss_pat):
    first = opened_with_float(table_one, dealer_dana, pit_boss_pat)
    assert bank_reads.proposed_opening(first) is None  # the table's first session: nothing to propose
    closing(table_one, dealer_dana, pit_boss_pat)  # 11,500 as chips_for counts it: 11 of 1000, 5 of 100
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    second = TableSession.objects.get(table=table_one, status=TableSession.Status.OPEN)
    proposal = bank_reads.proposed_opening(second)
    assert proposal.chips == {1000: 11, 100: 5} and proposal.closing.total == 11_500
    assert proposal.count is None and proposal.difference == {} and proposal.total_difference is None
    # it only proposes: nothing is counted, and the pit boss has nothing to sign until the dealer counts
    assert not second.float_counts.exists()
    with pytest.raises(RuleViolation, match="counts the float before"):
        act(bank.sign_float, table_one, pit_boss_pat, stage="opening")
    act(bank.count_float, table_one, dealer_dana, stage="opening", chips={1000: 11, 100: 4, 25: 4})
    proposal = bank_reads.proposed_opening(second)
    assert proposal.difference == {25: 4, 100: -1} and proposal.total_difference == 0
    act(bank.count_float, table_one, dealer_dana, stage="opening", chips={1000: 11, 100: 4})  # a recount: the last
    assert bank_reads.proposed_opening(second).total_difference == -100
    act(bank.sign_float, table_one, pit_boss_pat, stage="opening")
    assert bank_reads.signed_float(second, "opening").total == 11_400  # what was counted, not what was proposed


def test_no_opening_is_proposed_after_a_session_closed_without_a_signed_closing_float_THB_70(
        table_one, dealer_dana, pit_boss_pat):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    closing(table_one, dealer_dana, pit_boss_pat)
    act(sessions.request_opening, table_one, dealer_dana)  # a session opened and closed without a float
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    act(sessions.request_closing, table_one, dealer_dana)
    act(sessions.confirm_closing, table_one, pit_boss_pat)
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    third = TableSession.objects.get(table=table_one, status=TableSession.Status.OPEN)
    assert bank_reads.proposed_opening(third) is None  # the closing two sessions back is no longer the tray's
