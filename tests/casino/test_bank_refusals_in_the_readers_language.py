"""A slip's refusal names its step and who signs it in the reader's language, never as a code."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.i18n import explain
from casino.rules import bank
from casino.rules.errors import RuleViolation

DENOMS = (1, 5, 25, 100, 500, 1000)


def test_a_step_signed_by_the_wrong_role_names_the_step_and_the_role_in_spanish():
    slip = bank.Slip.request("fill", {100: 10}, DENOMS, by=1)
    with pytest.raises(RuleViolation) as refused:
        slip.verify_sign("issued", bank.SECURITY, 2)  # the cage issues a fill, not security
    with translation.override("en"):
        assert explain(refused.value).startswith("The step issued by the cage is signed by the cage cashier")
    with translation.override("es"):
        said = explain(refused.value)
    assert "emitido por la caja" in said and "cajero de caja" in said and "cage" not in said
