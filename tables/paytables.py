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
from casino.rules.holdem_bonus.paytable import get_paytable, is_registered, paytable_names
from tables.models import Paytable, PaytableVersion


def known_paytable_names() -> list[str]:
    """Every name a table may play: the engine's paytables, then the casino's with a version."""
    own = Paytable.objects.filter(versions__isnull=False).distinct().order_by("name").values_list("name", flat=True)
    return [*paytable_names(), *own]


def resolve_paytable(name: str, version: int | None = None) -> RulesPaytable:
    """The paytable a table named ``name`` plays: the engine's of that name, or the casino's at its latest
    version (or at ``version``). Unknown names are refused citing THB-53, with the names that exist."""
    if is_registered(name):
        if version is not None:
            raise RuleViolation(N_("The paytable %(name)r is the engine's: it has no versions"), "THB-53", name=name)
        return get_paytable(name)
    rows = PaytableVersion.objects.select_related("paytable").filter(paytable__name=name)
    row = rows.filter(number=version).first() if version is not None else rows.order_by("-number").first()
    if row is None:
        if version is not None and rows.exists():
            raise RuleViolation(N_("The paytable %(name)r has no version %(version)s"), "THB-53", name=name,
                                version=version)
        raise RuleViolation(N_("There is no paytable named %(name)r; known paytables: %(known)s"), "THB-53",
                            name=name, known=", ".join(known_paytable_names()))
    return row.engine_paytable()


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
