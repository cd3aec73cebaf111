"""The pit's configuration in the admin: pits, tables, their limits, paytable and house options.

Every rule is the engine's: a pit boss's tables (THB-72), limits (THB-18..20), the paytable's name
and the house options (checklist section 5) are checked by ``Pit.clean`` / ``Table.clean``, which ask
the engine, before anything is saved. A table's hands keep the rules they were played under, so a
change applies from the next hand. Each change is audited (``casino.admin.AuditedAdmin``).
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from casino.admin import AuditedAdmin
from tables.models import Pit, Table


@admin.register(Pit)
class PitAdmin(AuditedAdmin):
    list_display = ("name", "pit_boss")
    search_fields = ("name",)


@admin.register(Table)
class TableAdmin(AuditedAdmin):
    list_display = ("name", "pit", "game", "min_ante", "max_ante", "paytable", "status")
    list_filter = ("pit", "game", "status")
    search_fields = ("name",)
    fields = ("pit", "name", "game", "min_ante", "max_ante", "bonus_min", "bonus_max", "paytable", "house_options",
              "dealer", "odds")
    readonly_fields = ("odds",)

    @admin.display(description=_("The game's numbers"))
    def odds(self, table: Table) -> str:
        """The table's exact house edges as configured: the Bonus paytable's and the base game's."""
        from casino.rules.errors import RuleViolation
        from casino.rules.holdem_bonus import paytable_odds
        from tables.reads import table_rules

        if not table.pk:
            return "—"
        try:
            rules = table_rules(table)
        except RuleViolation:
            return "—"
        bonus = paytable_odds(rules.paytable).house_edge
        text = _("Bonus bet: house edge %(edge)s (exactly %(exact)s).") % {
            "edge": f"{float(bonus):.4%}", "exact": f"{bonus.numerator}/{bonus.denominator}"}
        try:
            from casino.rules.holdem_bonus.base_game import published_base_game_figures

            base = published_base_game_figures()[rules.ante_pays_from.value]
        except (ImportError, OSError, KeyError):
            return text
        text += " " + _("Base game, ante paid from a %(option)s up: house edge %(edge)s of the ante, element of "
                         "risk %(risk)s.") % {"option": rules.ante_pays_from.value,
                                              "edge": f"{float(base.house_edge):.4%}",
                                              "risk": f"{float(base.element_of_risk):.4%}"}
        return format_html("{}", text)
