"""The flights page's live part (issue #37 item 3's leftovers, docs/tournaments.md "Flights"): the series, the day's
end with each table's counts, the counts sheets, the Final Stage and its check-in (CC-05..CC-10), rendered for the
page's first load and for every push of its socket (``tournaments.consumers.FlightsConsumer``), so a series started,
a day ended (the tables bagged) or a receipt checked in elsewhere shows on every open page without a reload.

The fragment is its viewer's: the forms are those his role may use at this event (``access.may_direct``,
``access.may_work_floor``); it carries the event's version (``data-version``) and no CSRF token (a plain form a
socket pushed takes the page's own as it is sent, ``static/js/casino.js``)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_lazy

from casino.rules.tournament import chip_race, clock
from casino.rules.tournament.flights import day_end_due
from casino.rules.tournament.structure import Structure
from tournaments.access import may_direct, may_work_floor
from tournaments.models import DealtTable, Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering.console import entry_names

#: The id of the fragment's root, which every push replaces.
SCREEN_ID = "flights-live"

#: Why a day may end, as the page says it.
DAY_END_REASONS = {"level": gettext_lazy("its last level has been played"),
                   "qualifiers": gettext_lazy("the announced qualifiers are all that remain")}


def tablet_tables(tournament: Tournament) -> set[int]:
    """The tables whose hands a tablet dealt: their stacks are the counts (CC-09)."""
    return set(DealtTable.objects.filter(tournament=tournament, hands__isnull=False).values_list("number", flat=True)
               .distinct())


def flights_context(tournament: Tournament, user) -> dict:
    """What the flights page shows ``user`` of the event as it is now."""
    state = event_reads.tournament_state(tournament)
    q = state.qualifying
    names = entry_names(tournament)
    structure = Structure.from_dict(state.setup.structure) if state.setup else None
    due_why, due_level = None, None
    if structure is not None and q is not None:
        reading = clock.clock_at(structure, list(state.clock_events), timezone.now(),
                                 hand_for_hand_seconds=state.setup.options.hand_for_hand_seconds)
        due_why, due_level = day_end_due(state, structure, reading)
    tablets = tablet_tables(tournament) if state.tables else set()
    # TDA-24-A: the tables still racing the colour-up the day ends at (bagged once raced, ``day_end_chip_race``)
    races = ([d.table for d in chip_race.races_due(state, timezone.now())]
             if state.tables and q is not None and state.setup.options.day_end_chip_race == "before_bagging" else [])
    tables = [{"table": t.table, "tablet": t.table in tablets,
               "players": [{"seat": seat, "entry": n, "name": names.get(n, ""), "stack": state.entry(n).stack}
                           for seat, n in t.players]} for t in state.tables]
    series = []
    if q is not None:
        for s in q.series:
            series.append({"number": s.number, "status": s.status, "end_level": s.end_level,
                           "qualifiers": s.qualifiers, "players": len(q.entries_of(s.number)),
                           "ended_level": s.ended_level})
    # CC-05: the series play one after the other; the start form offers the lowest one still waiting
    next_series = min((s.number for s in q.series if s.status == "waiting"), default=None) if q is not None else None
    unassigned = [e.entry for e in state.entries
                  if e.status == "registered" and (q is None or q.series_of(e.entry) is None)]
    # the record as far as the state read (a write committed since is the next push's): one version, never torn
    days = [e for e in event_reads.record_of(tournament) if e["type"] == "day_ended" and e["seq"] <= state.last_seq]
    to_check_in = []
    if q is not None and q.final_stage:
        to_check_in = [{"entry": e.entry, "name": names.get(e.entry, ""), "table": e.table, "seat": e.seat,
                        "checked_in": q.has_checked_in(e.entry, q.day)}
                       for e in state.entries if e.status == "seated" and q.bag_of(e.entry) is not None]
    return {
        "tournament": tournament, "screen_id": SCREEN_ID, "may_direct": may_direct(user, tournament),
        "may_work_floor": may_work_floor(user, tournament), "q": q, "series": series, "tables": tables,
        "next_series": next_series,
        "unassigned": unassigned, "due": DAY_END_REASONS.get(due_why) if due_why else None, "due_level": due_level,
        "days": [{"seq": d["seq"], "day": d.get("day"), "series": d.get("series"), "level": d.get("level"),
                  "bags": len(d.get("bags") or ())} for d in days],
        "to_check_in": to_check_in, "registration": state.registration, "races": races}


def flights_fragment(tournament: Tournament, user) -> str:
    """The flights page's live part for ``user``, at the event's current version."""
    return render_to_string("tournaments/_flights_fragment.html", flights_context(tournament, user))
