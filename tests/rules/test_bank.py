"""The table's bank as a pure engine (issue #39, docs/bank.md): the float's counts (THB-70), a slip's four steps
with no one signing two, the drop, and the shift's arithmetic. No Django."""

from __future__ import annotations

import pytest

from casino.rules import bank
from casino.rules.errors import RuleViolation

DENOMS = bank.DEFAULT_DENOMINATIONS


def test_a_float_is_counted_in_the_houses_denominations_in_whole_chips_THB_70():
    bank.verify_chips({25: 40, 100: 20}, DENOMS)
    assert bank.total({25: 40, 100: 20}) == 3000
    for bad in ({3: 1}, {25: -1}, {25: 1.5}, {25: True}, {}, "25x4"):
        with pytest.raises(RuleViolation) as refused:
            bank.verify_chips(bad, DENOMS)
        assert refused.value.clause == "THB-70"


def test_the_float_is_signed_by_another_person_than_the_dealer_who_counted_it_THB_70():
    bank.verify_sign_float(counted_by=1, by=2)
    for counted_by, by in ((None, 2), (1, None), (1, 1)):
        with pytest.raises(RuleViolation) as refused:
            bank.verify_sign_float(counted_by=counted_by, by=by)
        assert refused.value.clause == "THB-70"


def test_a_closing_that_does_not_add_up_is_refused_unless_signed_with_a_reason_THB_70():
    expected = bank.expected_closing(opening=10_000, fills=2_000, credits=500, hands=340, drop_chips=1_200)
    assert expected == 10_640
    bank.verify_closing(10_640, expected)
    with pytest.raises(RuleViolation) as refused:
        bank.verify_closing(10_639, expected)
    assert refused.value.clause == "THB-70" and refused.value.params["difference"] == -1
    assert not bank.can_close(10_639, expected, "  ")
    assert bank.can_close(10_639, expected, "one chip overpaid on hand 12")


def test_a_fill_takes_its_four_steps_in_order_each_by_its_role_and_reaches_the_tray_when_received_house():
    slip = bank.Slip.request("fill", {100: 20, 25: 40}, DENOMS, by=1)
    assert slip.amount == 3000 and slip.state == "requested" and not slip.in_tray
    with pytest.raises(RuleViolation):
        slip.sign("carried", bank.SECURITY, 3)  # not its next step
    with pytest.raises(RuleViolation):
        slip.sign("issued", bank.SECURITY, 3)  # the cage's step
    slip = slip.sign("issued", bank.CAGE, 2).sign("carried", bank.SECURITY, 3)
    assert not slip.in_tray
    slip = slip.sign("received", bank.TABLE, 4)
    assert slip.complete and slip.in_tray
    with pytest.raises(RuleViolation):
        slip.sign("received", bank.TABLE, 5)


def test_a_credit_leaves_the_tray_when_the_table_releases_it_and_ends_at_the_cage_house():
    slip = bank.Slip.request("credit", {500: 4}, DENOMS, by=1)
    assert slip.next_step == (bank.SlipStep.RELEASED, bank.TABLE)
    slip = slip.sign("released", bank.TABLE, 4)
    assert slip.in_tray and not slip.complete
    slip = slip.sign("carried", bank.SECURITY, 3).sign("received", bank.CAGE, 2)
    assert slip.complete


@pytest.mark.parametrize("signer", [1, 2])
def test_a_slips_step_is_refused_to_someone_who_signed_another_step_of_it_house(signer):
    slip = bank.Slip.request("fill", {100: 10}, DENOMS, by=1).sign("issued", bank.CAGE, 2)
    assert not slip.can_sign("carried", bank.SECURITY, signer)
    with pytest.raises(RuleViolation) as refused:
        slip.sign("carried", bank.SECURITY, signer)
    assert "No one signs two steps" in refused.value.message


def test_a_slip_carries_chips_of_the_house_and_is_a_fill_or_a_credit_house():
    for kind, chips in (("fill", {}), ("loan", {100: 1}), ("fill", {7: 1}), ("credit", {100: 0})):
        with pytest.raises(RuleViolation):
            bank.Slip.request(kind, chips, DENOMS, by=1)


def test_the_drop_is_a_whole_amount_and_a_marker_only_where_the_house_allows_house():
    bank.verify_drop("cash", 500, markers_allowed=False)
    bank.verify_drop("marker", 500, markers_allowed=True)
    for kind, amount, allowed in (("marker", 500, False), ("cash", 0, True), ("cash", -5, True),
                                  ("cash", 2.5, True), ("cheque", 5, True)):
        with pytest.raises(RuleViolation):
            bank.verify_drop(kind, amount, markers_allowed=allowed)


def test_the_shifts_win_is_drop_plus_closing_less_opening_plus_credits_less_fills_and_the_hold_win_over_drop():
    result = bank.TableResult(opening=10_000, closing=9_000, fills=3_000, credits=500, drop=4_000, hands=500)
    assert result.win == 4_000 + 9_000 - 10_000 + 500 - 3_000 == 500
    assert result.hold == 500 / 4_000
    assert result.difference == 0
    assert bank.TableResult(1, 1, 0, 0, 0, 0).hold is None
    short = bank.TableResult(opening=10_000, closing=8_999, fills=3_000, credits=500, drop=4_000, hands=500)
    assert short.difference == -1
    assert (result + short).to_dict()["difference"] == -1


def test_a_closing_count_equal_to_the_expected_tray_makes_the_win_equal_to_the_hands_result():
    for opening, fills, credits, hands, drop in ((10_000, 0, 0, 0, 0), (5_000, 2_000, 700, -1_340, 900),
                                                 (8_000, 0, 3_000, 2_222, 12_000)):
        closing = bank.expected_closing(opening=opening, fills=fills, credits=credits, hands=hands, drop_chips=drop)
        result = bank.TableResult(opening, closing, fills, credits, drop, hands)
        assert result.win == hands and result.difference == 0


def test_an_unused_slip_is_voided_by_the_pit_boss_with_a_reason_and_takes_no_more_steps_house():
    for kind, first in (("fill", ("issued", bank.CAGE)), ("credit", ("released", bank.TABLE))):
        slip = bank.Slip.request(kind, {100: 5}, DENOMS, by=1)
        for role, by, reason in ((bank.CAGE, 2, "not needed"), (bank.PIT, None, "not needed"), (bank.PIT, 1, " ")):
            with pytest.raises(RuleViolation) as refused:
                slip.void(role, by, reason)
            assert refused.value.clause is None  # the house's procedure
        voided = slip.void(bank.PIT, 1, "the table closed before the fill came")  # the requester may void it
        assert voided.voided and voided.state == "voided" and voided.next_step is None
        assert not voided.complete and not voided.in_tray
        with pytest.raises(RuleViolation, match="void"):
            voided.sign(*first, 2)
        with pytest.raises(RuleViolation, match="void already"):
            voided.void(bank.PIT, 5, "twice")


def test_a_slip_whose_chips_have_moved_is_not_voided_house():
    fill = bank.Slip.request("fill", {100: 5}, DENOMS, by=1).sign("issued", bank.CAGE, 2)  # out of the cage
    credit = bank.Slip.request("credit", {100: 5}, DENOMS, by=1).sign("released", bank.TABLE, 4)  # out of the tray
    for slip in (fill, credit, fill.sign("carried", bank.SECURITY, 3)):
        assert not slip.can_void(bank.PIT, 1)
        with pytest.raises(RuleViolation, match="not yet issued or released"):
            slip.void(bank.PIT, 1, "too late")
