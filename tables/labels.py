"""The names the pit's screens give the engine's keys, in the viewer's language: one place for every screen (the
dealer's tablet, the pit console, the admin, the alerts) so that a hand's award reads the same everywhere."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: The Bonus awards (THB-53), by the paytable's key.
AWARD_LABELS = {
    "aa-vs-dealer-aa": _("A-A with the dealer's A-A"),
    "aa": _("A-A"),
    "ak-suited": _("A-K suited"),
    "aq-aj-suited": _("A-Q or A-J suited"),
    "ak-offsuit": _("A-K offsuit"),
    "kk-qq-jj": _("K-K, Q-Q or J-J"),
    "aq-aj-offsuit": _("A-Q or A-J offsuit"),
    "pair-2-10": _("Pair of 2s to 10s"),
}

#: A fill's or credit's steps (``casino.rules.bank``'s keys, kept in ``ChipSlipStep.step``), as the screens say them.
SLIP_STEP_LABELS = {
    "requested": _("Requested"),
    "issued": _("Issued by the cage"),
    "released": _("Released by the table"),
    "carried": _("Carried by security"),
    "received": _("Received"),
    "voided": _("Void"),
}

#: Who signs a slip's step (``casino.rules.bank``'s roles), as the screens say it.
SLIP_ROLE_LABELS = {"pit": _("the pit boss"), "cage": _("the cage"), "security": _("security"),
                    "table": _("the table")}


def slip_step_label(step: str) -> str:
    """A slip's step in the reader's language (an unknown key as it is: never an error screen)."""
    return SLIP_STEP_LABELS.get(step, step)
