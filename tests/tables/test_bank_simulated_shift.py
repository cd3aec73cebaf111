"""A simulated shift through the real services (issue #39, docs/bank.md): tables in dealt mode with floats, drop,
fills and credits, reconciled to 0 difference; a one-chip mispay shown as a difference of -1. The suite's small
version of ``simulate_pit_shift --tables 20 --hours 8`` (docs/benchmarks.md)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from tables.management.commands.simulate_pit_shift import Shift
from tables.models import ChipSlip, DropEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def test_a_simulated_shift_in_dealt_mode_reconciles_every_table_to_the_chip():
    rows = Shift(tables=5, hours=2, hands_per_hour=2, seed=7, mispay=False).run()
    assert len(rows) == 5 and all(row.hands == 4 for row in rows)
    for row in rows:
        r = row.result
        assert row.floats_signed and r.fills == 3_000 and r.credits == 2_000 and r.drop > 0
        assert r.win == r.drop + r.closing - r.opening + r.credits - r.fills == r.hands
        assert r.difference == 0
    assert ChipSlip.objects.filter(state="received").count() == 10
    assert DropEntry.objects.count() == 10


def test_a_one_chip_mispay_in_a_simulated_shift_is_shown_as_a_difference_of_one_chip():
    rows = Shift(tables=2, hours=1, hands_per_hour=2, seed=3, mispay=True).run()
    assert [row.result.difference for row in rows] == [-1, 0]


def test_the_command_fails_when_a_shift_does_not_reconcile(capsys):
    call_command("simulate_pit_shift", tables=1, hours=1, hands_per_hour=1)
    assert "total difference 0" in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("simulate_pit_shift", tables=0, hours=1)
