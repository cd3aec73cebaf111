"""The dealer's tablet names a held Bonus award as the pit's console does, never by its key (issue #36, item 16).

The tablet's notice is the write's alert text (``tables.writing.raise_alert`` -> ``tables.reads.alert_text``);
the console's list is ``tables.rendering.alert_text``: one function, the award's label in both (THB-54)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_noop

from tables import reads, rendering
from tables.models import Alert
from tables.projections import AWARD_LABELS

HELD = gettext_noop("%(table)s, hand %(hand)d: box %(box)d's Bonus award (%(award)s, %(payout)d) waits for approval.")


def _held_alert() -> Alert:
    return Alert(kind=Alert.Kind.APPROVAL, message=HELD,
                 params={"table": "BJ-1", "hand": 4, "box": 1, "award": "aa-vs-dealer-aa", "payout": 5000})


def test_the_tablets_notice_names_the_held_award_as_the_console_does_thb_54():
    with translation.override("en"):
        tablet = reads.alert_text(_held_alert())
        assert "aa-vs-dealer-aa" not in tablet
        assert str(AWARD_LABELS["aa-vs-dealer-aa"]) in tablet
        assert tablet == rendering.alert_text(_held_alert())
