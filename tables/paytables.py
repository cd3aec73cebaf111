"""The Bonus paytables a table may play: the engine's (registered in code) and the casino's own (rows).

A table names its paytable (``Table.paytable``). ``resolve_paytable`` finds it: a name registered in
code (the manual's, THB-53) is the engine's and reads nothing; any other is a casino's own paytable,
played at its latest version (``PaytableVersion``). A new version is made by ``add_paytable_version``
(the admin's save), never by changing one: a hand keeps the version it started under in its rules.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from casino.audit import record_event
from casino.models import object_label
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem_bonus.paytable import Paytable as RulesPaytable
from tables.models import Paytable, PaytableVersion


def add_paytable_version(paytable: Paytable, pays: Mapping[str, int], *, by, note: str = "") -> PaytableVersion:
    """A new version of a casino's paytable, checked by the engine (THB-53), numbered after the last and
    audited. The paytable's row is held so two saves at once cannot both take the same number."""
    # The engine's own check: award keys it knows, each paying a whole "N to 1".
    checked = RulesPaytable(name=paytable.name, pays=dict(pays))
    if not checked.pays:
        raise RuleViolation(N_("A paytable pays at least one award"), "THB-53")
    with transaction.atomic():
        Paytable.objects.select_for_update().get(pk=paytable.pk)
        last = paytable.versions.order_by("-number").values_list("number", flat=True).first() or 0
        version = PaytableVersion.objects.create(paytable=paytable, number=last + 1, pays=dict(checked.pays),
                                                 note=note, created_by=by)
        record_event(action="paytable.version_added", actor=by, obj=version, stream=object_label(paytable),
                     details={"paytable": paytable.name, "version": version.number, "pays": dict(checked.pays),
                              "note": note})
    return version
