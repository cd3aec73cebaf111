"""The event's setup page (CC-04): a new event, its structure, buy-in, seats and house options, and structure
templates saved and copied. Only the event's director sees it."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.access import role_required
from casino.form_input import BadInput
from casino.rules.tournament.options import HouseOptions
from casino.writes import is_valid_key
from tournaments import access, forms, services
from tournaments.models import StructureTemplate, Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering import console
from tournaments.views.common import (
    DIRECTORS,
    call_service,
    changed_since_the_page,
    outcome,
    page_context,
    require_directs,
)


def _setup_initial(tournament: Tournament | None) -> dict:
    """The setup form's values: the event's setup as its record stands, or the house's defaults."""
    state = event_reads.tournament_state(tournament) if tournament is not None else None
    the_setup = getattr(state, "setup", None)
    structure = event_reads.board_at(tournament).structure if tournament is not None else None
    options = the_setup.options if the_setup is not None else HouseOptions()
    return {
        "name": tournament.name if tournament else "",
        "starts_at": timezone.localtime(tournament.starts_at).strftime("%Y-%m-%dT%H:%M") if tournament else "",
        "buy_in": the_setup.buy_in if the_setup else "",
        "fee": the_setup.fee if the_setup else 0,
        "starting_stack": the_setup.starting_stack if the_setup else 20000,
        "seats_per_table": the_setup.seats_per_table if the_setup else 9,
        "late_registration_level": (the_setup.late_registration_level if the_setup else None) or "",
        "denominations": " ".join(str(d) for d in (structure.denominations if structure else
                                                   (25, 100, 500, 1000, 5000))),
        "structure": forms.structure_as_text(structure) if structure else DEFAULT_STRUCTURE_TEXT,
        "payouts": forms.payout_table_as_text(the_setup.payout_table if the_setup else ()),
        "break_order": " ".join(str(t) for t in (the_setup.break_order if the_setup else ())),
        "final_table_size": options.final_table_size,
        "ante_mode": options.ante_mode,
        "reentry_allowed": options.reentry_allowed,
        "mucked_hand_recoverable": options.mucked_hand_recoverable,
        "action_seconds": options.action_seconds,
        "clock_seconds": options.clock_seconds,
        "clock_countdown_seconds": options.clock_countdown_seconds,
        "clock_expiry_unfaced": options.clock_expiry_unfaced,
        "max_penalty_rounds": options.max_penalty_rounds,
        "boxed_cards": options.boxed_cards,
        "oot_after_change": options.oot_after_change,
        "day_end_chip_race": options.day_end_chip_race,
        "oot_repeats_call_floor": options.oot_repeats_call_floor,
        "deck_change_on": options.deck_change_on,
    }


DEFAULT_STRUCTURE_TEXT = "\n".join([
    "100/200 20", "100/200/200 20", "200/400/400 20", "300/600/600 20", "break 10 25",
    "400/800/800 20", "500/1000/1000 20", "600/1200/1200 20", "800/1600/1600 20", "break 10 100",
    "1000/2000/2000 20", "1500/3000/3000 20", "2000/4000/4000 20",
])


def _setup_page(request, tournament: Tournament | None, values: dict, status: int = 200, notice: dict | None = None):
    context = {**(page_context(request, tournament, "setup") if tournament else {"may_direct": True}),
               "values": values, "notice": notice,
               "templates": list(StructureTemplate.objects.order_by("name")),
               "ante_modes": (("button", _("Button ante (halved at 6 or fewer, CC-50/51)")),
                              ("big_blind", _("Big blind ante (RP-11)")), ("none", _("No ante"))),
               "seats_choices": forms.SEATS_PER_TABLE}
    if tournament is not None and access.oversees_events(request.user):
        context["directors"] = list(console.tournament_directors().values("pk", "first_name", "username"))
    return render(request, "tournaments/console_setup.html", context, status=status)


@role_required(*DIRECTORS)
def new_tournament(request):
    """Create an event: its whole setup in one form (one service call)."""
    if request.method != "POST":
        return _setup_page(request, None, _setup_initial(None))
    post = request.POST

    def run():
        fields = forms.event_setup(post)
        key = (post.get("key") or "").strip()
        if not is_valid_key(key):
            raise BadInput(_("The form's request key is not valid: reload the page."))
        options = {**HouseOptions().as_dict(), **fields.pop("options")}
        return services.create_tournament(by=request.user, key=key, options=options, **fields)

    status, notice, created = outcome(run)
    if status != 200:
        return _setup_page(request, None, dict(post.items()), status, notice)
    tournament, _result = created
    messages.success(request, _("The tournament is created."))
    return redirect("tournaments:console", tournament_id=tournament.pk)


@role_required(*DIRECTORS)
def setup(request, tournament_id: int):
    """Edit the event's setup (a change during the event is announced to every screen, CC-04). The name
    and the start are the event's, not its setup: they are shown, not edited here."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    require_directs(request, tournament)
    if request.method != "POST":
        return _setup_page(request, tournament, _setup_initial(tournament))
    post = request.POST

    def run():
        fields = forms.event_setup(post, editing=True)
        state = event_reads.tournament_state(tournament)
        current = state.setup.options.as_dict() if state is not None and state.setup is not None else {}
        fields["options"] = {**current, **fields["options"]}
        return call_service(services.change_setup, tournament, request.user, post,
                            {**fields, "reason": forms.text(post, "reason", _("The reason"))})

    status, notice, _result = outcome(run, changed_since_the_page(tournament, post))
    if status != 200:
        tournament.refresh_from_db()
        return _setup_page(request, tournament, dict(post.items()), status, notice)
    messages.success(request, _("The setup is saved."))
    return redirect("tournaments:setup", tournament_id=tournament.pk)


@role_required(*DIRECTORS)
@require_POST
def structure_template(request, tournament_id: int):
    """Save this event's structure as a template, or copy a template's into it."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    require_directs(request, tournament)
    post = request.POST

    def save():
        name = forms.text(post, "template_name", _("The template's name"), required=True, limit=80)
        state = event_reads.tournament_state(tournament)
        if state is None or state.setup is None:
            raise BadInput(_("This event has no structure yet."))
        return services.save_structure_template(by=request.user, name=name, structure=dict(state.setup.structure))

    def copy():
        number = forms.whole(post.get("template"), _("The template"), low=1)
        template = StructureTemplate.objects.filter(pk=number).first()
        if template is None:
            raise BadInput(_("There is no such template."))
        return call_service(services.copy_structure_template, tournament, request.user, post, {"template": template})

    status, notice, _r = outcome(save if post.get("do") == "save" else copy, changed_since_the_page(tournament, post))
    messages.add_message(request, messages.SUCCESS if status == 200 else messages.ERROR,
                         notice["text"] if notice else _("Done."))
    return redirect("tournaments:setup", tournament_id=tournament.pk)
