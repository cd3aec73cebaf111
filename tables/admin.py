"""The pit's configuration in the admin: pits, tables, their limits, paytables and house options.

Every rule is the engine's: a pit boss's tables (THB-72), limits (THB-18..20), the paytable
(THB-53) and the house options (checklist section 5) are checked by ``Pit.clean`` / ``Table.clean``
and the paytable form, which ask the engine, before anything is saved. A table's hands keep the rules
they were played under, so a change applies from the next hand. Each change is audited
(``casino.admin.AuditedAdmin``; a paytable's new version also by ``tables.paytables``).

A casino's own paytable is edited award by award; its page shows the exact house edge of what is
typed as it is typed (``house-edge/``, counted by the engine, static/js/paytable_admin.js), every
version with who made it and why, and the base game's figures, which no paytable changes.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.http import JsonResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.admin import AuditedAdmin
from casino.i18n import explain
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import paytable_odds
from casino.rules.holdem_bonus.paytable import AWARD_KEYS
from casino.rules.holdem_bonus.paytable import Paytable as RulesPaytable
from tables.labels import AWARD_LABELS
from tables.models import Paytable, Pit, Table, known_paytable_names, table_rules
from tables.paytables import add_paytable_version


def award_field(key: str) -> str:
    """The form field of an award: ``pays_aa_vs_dealer_aa`` for ``aa-vs-dealer-aa``."""
    return "pays_" + key.replace("-", "_")


def _edge_text(paytable: RulesPaytable) -> str:
    edge = paytable_odds(paytable).house_edge
    return gettext("House edge of the Bonus bet: %(edge)s of the stake (exactly %(exact)s).") % {
        "edge": f"{float(edge):.4%}", "exact": f"{edge.numerator}/{edge.denominator}"}


def _base_game_text(option: str | None = None) -> str:
    """The base game's exact figures (``paytable_report --base-game``): for ``option`` of the ante, or each."""
    try:
        from casino.rules.holdem_bonus.base_game import published_base_game_figures

        figures = published_base_game_figures()
    except (ImportError, OSError):
        return ""
    return " ".join(
        gettext("Base game, ante paid from a %(option)s up: house edge %(edge)s of the ante, element of risk "
                "%(risk)s.") % {"option": name, "edge": f"{float(f.house_edge):.4%}",
                                "risk": f"{float(f.element_of_risk):.4%}"}
        for name, f in figures.items() if option in (None, name))


@admin.register(Pit)
class PitAdmin(AuditedAdmin):
    list_display = ("name", "pit_boss")
    search_fields = ("name",)


#: What the table's page edits (its ``odds`` beside them is read-only).
TABLE_FIELDS = ("pit", "place", "name", "game", "min_ante", "max_ante", "bonus_min", "bonus_max", "paytable",
                "house_options", "dealer")


class TableForm(forms.ModelForm):
    """The paytable is chosen among those that exist (the engine's and the casino's own), not typed."""

    paytable = forms.ChoiceField(label=_("Bonus paytable"))

    class Meta:
        model = Table
        fields = TABLE_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        names = known_paytable_names()
        current = self.instance.paytable if self.instance.pk else None
        if current and current not in names:
            names.append(current)  # shown as it is, so the page opens; Table.clean names what is wrong
        self.fields["paytable"].choices = [(n, n) for n in names]


@admin.register(Table)
class TableAdmin(AuditedAdmin):
    form = TableForm
    list_display = ("name", "pit", "game", "min_ante", "max_ante", "paytable", "status")
    list_filter = ("pit", "game", "status")
    search_fields = ("name",)
    fields = (*TABLE_FIELDS, "odds")
    readonly_fields = ("odds",)

    @admin.display(description=_("The game's numbers"))
    def odds(self, table: Table) -> str:
        """The table's exact house edges as configured: the Bonus paytable's and the base game's."""
        if not table.pk:
            return "—"
        try:
            rules = table_rules(table)
        except RuleViolation:
            return "—"
        return f"{_edge_text(rules.paytable)} {_base_game_text(rules.ante_pays_from.value)}".strip()


class PaytableForm(forms.ModelForm):
    """A casino's paytable: its name and description, each award's "N to 1" (empty: the award does not
    pay), and why it changes. The engine checks the pays (THB-53); a save with other pays is a new version."""

    note = forms.CharField(label=_("Reason for the change"), max_length=200, required=False,
                           help_text=_("Kept with the new version and in the audit log."))

    class Meta:
        model = Paytable
        fields = ("name", "description")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = self.instance.current_version() if self.instance.pk else None
        for key in AWARD_KEYS:
            if current is not None and key in current.pays:
                self.fields[award_field(key)].initial = current.pays[key]

    def clean(self):
        cleaned = super().clean()
        pays = {key: cleaned[award_field(key)] for key in AWARD_KEYS if cleaned.get(award_field(key))}
        if not pays:
            raise forms.ValidationError(_("A paytable pays at least one award (THB-53)."))
        try:
            RulesPaytable(name=cleaned.get("name") or self.instance.name or "-", pays=pays)
        except RuleViolation as violation:
            raise forms.ValidationError(explain(violation)) from None
        self.pays = pays
        return cleaned

    def pays_changed(self) -> bool:
        current = self.instance.current_version() if self.instance.pk else None
        return current is None or dict(current.pays) != self.pays


# One whole-number field per award, declared on the class so that the admin's fieldsets can name them.
for _key in AWARD_KEYS:
    PaytableForm.base_fields[award_field(_key)] = forms.IntegerField(
        label=AWARD_LABELS[_key], min_value=1, max_value=1_000_000, required=False,
        help_text=_("to 1; leave empty if it does not pay"),
        widget=forms.NumberInput(attrs={"data-award": _key}))
    PaytableForm.declared_fields[award_field(_key)] = PaytableForm.base_fields[award_field(_key)]


@admin.register(Paytable)
class PaytableAdmin(AuditedAdmin):
    """A casino's own Bonus paytables (THB-53): edited award by award, versioned, never deleted."""

    form = PaytableForm
    list_display = ("name", "description", "current", "edge")
    search_fields = ("name", "description")
    readonly_fields = ("live_edge", "base_game", "history")

    class Media:
        js = ("js/paytable_admin.js",)

    def get_fieldsets(self, request, obj=None):
        return [
            (None, {"fields": ("name", "description")}),
            (_("Pays, to 1"), {"fields": [award_field(k) for k in AWARD_KEYS] + ["note"]}),
            (_("The game's numbers"), {"fields": ("live_edge", "base_game")}),
            (_("Versions"), {"fields": ("history",)}),
        ]

    def get_readonly_fields(self, request, obj=None):
        # A name is never changed: tables name the paytable they play (THB-53).
        return (*self.readonly_fields, "name") if obj is not None else self.readonly_fields

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # tables name it and its versions are the record of what was paid: it is kept

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if form.pays_changed():
            add_paytable_version(obj, form.pays, by=request.user, note=form.cleaned_data.get("note", ""))

    def get_urls(self):
        house_edge = path("house-edge/", self.admin_site.admin_view(self.house_edge_view),
                          name="tables_paytable_house_edge")
        return [house_edge, *super().get_urls()]

    def house_edge_view(self, request):
        """The exact house edge of the pays typed so far (GET, reads nothing, changes nothing):
        ``{"house_edge": "8.5406%", "exact": "..."}``, or ``{"error": "..."}`` naming what is wrong."""
        if not self.has_view_permission(request):
            return JsonResponse({"error": gettext("You may not see the paytables.")}, status=403)
        pays = {}
        for key in AWARD_KEYS:
            raw = request.GET.get(award_field(key), "").strip()
            if not raw:
                continue
            if not raw.isdigit() or int(raw) < 1 or int(raw) > 1_000_000:
                return JsonResponse({"error": gettext("%(award)s: a whole number from 1 to 1,000,000, not %(value)s.")
                                     % {"award": AWARD_LABELS[key], "value": raw[:20]}})
            pays[key] = int(raw)
        if not pays:
            return JsonResponse({"error": gettext("A paytable pays at least one award (THB-53).")})
        try:
            edge = paytable_odds(RulesPaytable(name="preview", pays=pays)).house_edge
        except RuleViolation as violation:
            return JsonResponse({"error": explain(violation)})
        return JsonResponse({"house_edge": f"{float(edge):.4%}", "exact": f"{edge.numerator}/{edge.denominator}",
                             "text": gettext("As typed: house edge %(edge)s of the stake (exactly %(exact)s).")
                             % {"edge": f"{float(edge):.4%}", "exact": f"{edge.numerator}/{edge.denominator}"}})

    @admin.display(description=_("Current version"))
    def current(self, obj: Paytable) -> str:
        version = obj.current_version()
        return f"v{version.number}" if version else "—"

    @admin.display(description=_("House edge"))
    def edge(self, obj: Paytable) -> str:
        version = obj.current_version()
        return f"{float(paytable_odds(version.engine_paytable()).house_edge):.4%}" if version else "—"

    @admin.display(description=_("Bonus bet"))
    def live_edge(self, obj: Paytable) -> str:
        version = obj.current_version() if obj.pk else None
        saved = (f"v{version.number}: {_edge_text(version.engine_paytable())}" if version
                 else gettext("No version saved yet."))
        return format_html('<span>{}</span><br><output id="paytable-edge" data-url="{}" aria-live="polite"></output>',
                           saved, reverse("admin:tables_paytable_house_edge"))

    @admin.display(description=_("Base game"))
    def base_game(self, obj: Paytable) -> str:
        return _base_game_text() or "—"

    @admin.display(description=_("Versions"))
    def history(self, obj: Paytable) -> str:
        """Every version, newest first: when, by whom, why, what it pays (in the manual's order) and its edge."""
        if not obj.pk:
            return "—"
        head = format_html("<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
                           _("Version"), _("Made at"), _("Made by"), _("Reason for the change"), _("Pays"),
                           _("House edge"))
        rows = []
        for version in obj.versions.select_related("created_by").order_by("-number"):
            paytable = version.engine_paytable()
            rows.append((version.number, version.created_at.strftime("%Y-%m-%d %H:%M"), version.created_by or "—",
                         version.note or "—", ", ".join(f"{AWARD_LABELS[k]} {p}:1" for k, p in paytable.pays.items()),
                         f"{float(paytable_odds(paytable).house_edge):.4%}"))
        body = format_html_join("", "<tr><td>v{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                                rows)
        return format_html("<table>{}{}</table>", head, body)
