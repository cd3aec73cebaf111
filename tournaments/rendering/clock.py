"""The room's screens (its clock display and its seating display) and the clock's part of every phone
(TDA-23, CC-87, RP-07), from a ``Board``.

The clock itself is never kept here: each render asks the pure clock (``casino.rules.tournament.clock``) at
"now", and the fragment carries that "now" and the instants its countdowns end, so the browser counts down
from them (static/js/tournament_clock.js) without a timer of its own. The display is a public screen: no
name, no entry number, no seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from casino.memo import BoundedCache
from casino.rules.tournament.clock import ClockReading, clock_at
from casino.rules.tournament.structure import Break, Level
from tournaments.projections import epoch_ms
from tournaments.reads.event import ANNOUNCEMENTS, LADDER_PLACES, Board, seating_rows


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock as a screen shows it: the pure reading, and the instants its countdowns end."""

    reading: ClockReading | None
    now: datetime
    step_ends_at: datetime | None = None  # while the wall clock runs the step
    break_at: datetime | None = None  # while it runs, before the next break
    ended_at: datetime | None = None  # the last level's time ran out then (it keeps its level: TDA-23)
    next_step: Level | Break | None = None

    @property
    def key(self) -> tuple:
        """What the rendered HTML depends on besides the board: a step and its end, not the instant."""
        r = self.reading
        if r is None:
            return ("no-clock",)
        return (r.step, r.running, r.paused, r.on_break, r.started, r.hand_for_hand, r.finished,
                r.structure_ended, epoch_ms(self.step_ends_at) if self.step_ends_at else r.seconds_left,
                epoch_ms(self.break_at), None if self.ended_at is None else epoch_ms(self.ended_at) // 1000)


def _reading(board: Board, now: datetime) -> ClockReading | None:
    if board.structure is None or not board.structure.steps:
        return None
    return clock_at(board.structure, list(board.clock_events), now, hand_for_hand_seconds=board.hand_for_hand_seconds)


def clock_view(board: Board, now: datetime | None = None) -> ClockView:
    """The clock at ``now``. The pure clock gives the exact instant the running step ends
    (``step_ends_at``, to the microsecond): the screens count down to it, never from whole seconds."""
    now = now or timezone.now()
    reading = _reading(board, now)
    if reading is None:
        return ClockView(None, now)
    steps = board.structure.steps
    next_step = steps[reading.step + 1] if reading.step + 1 < len(steps) else None
    break_at = ended_at = None
    if reading.step_ends_at is not None and reading.seconds_to_break is not None and not reading.on_break:
        # The levels before the break are whole seconds: the break comes exactly that much later.
        break_at = reading.step_ends_at + timedelta(seconds=reading.seconds_to_break - reading.seconds_left)
    if reading.structure_ended and reading.running:
        ended_at = now - timedelta(seconds=reading.seconds_past_end)
    return ClockView(reading, now, step_ends_at=reading.step_ends_at, break_at=break_at, ended_at=ended_at,
                     next_step=next_step)


def final_standings(board: Board) -> list[dict]:
    """Issue #36: the final standings as the room's screens show them once the event is over: each place
    (a shared one once) and its prize, place 1 first, the places paid and at least the first
    ``LADDER_PLACES``. No name, entry or seat (what the room's display may show)."""
    if board.status != "finished":
        return []
    rows = {finish.places: finish.prize for finish in board.finishes.values()}
    return [{"first": places[0], "last": places[-1], "prize": prize}
            for places, prize in sorted(rows.items()) if prize or places[0] <= LADDER_PLACES]


NOW_MARK = "data-server-now=\"0\""


_clock_html: BoundedCache[str] = BoundedCache(256)


def clock_display_fragment(board: Board, now: datetime | None = None) -> str:
    """The TV's fragment (``#clock-display``): rendered once per board, clock step and language in this
    process, then stamped with the server's "now" for each screen (the offset is measured from it)."""
    view = clock_view(board, now)
    key = (board.tournament_id, board.version, view.key, translation.get_language())
    html = _clock_html.get(key)
    if html is None:
        html = _clock_html.put(key, render_to_string("tournaments/_clock_display.html", clock_context(board, view)))
    return stamped(html)


def stamped(html: str) -> str:
    """A cached fragment with the server's "now" of this send (the screen measures its offset from it).
    The HTML is safe (rendered by a template); stamping a number into it keeps it so."""
    return mark_safe(html.replace(NOW_MARK, f'data-server-now="{epoch_ms(timezone.now())}"', 1))  # noqa: S308


def clock_context(board: Board, view: ClockView) -> dict:
    reading = view.reading
    ladder = [{"place": place, "prize": prize} for place, prize in enumerate(board.prizes[:LADDER_PLACES], 1)]
    return {
        "board": board,
        "clock": view,
        "reading": reading,
        "state": clock_state(view),
        "level_number": reading.level_number if reading else None,
        "next_level": reading.next_level if reading else None,
        "next_is_break": isinstance(view.next_step, Break),
        "step_ends_ms": epoch_ms(view.step_ends_at),
        "ended_ms": epoch_ms(view.ended_at),
        "break_at_ms": epoch_ms(view.break_at),
        "ladder": ladder,
        "more_places": max(0, len(board.prizes) - LADDER_PLACES),
        "announcements": board.announcements[-ANNOUNCEMENTS:][::-1],
        "ante_label": _ante_label(board.ante_mode),
        "standings": final_standings(board),
    }


def clock_state(view: ClockView) -> str:
    """One word for the screen's look: not-started, running, paused, break, finished (a pause is never
    shown as a break: another clock's bug)."""
    r = view.reading
    if r is None or not r.started:
        return "not-started"
    if r.paused:
        return "paused"
    if r.finished:
        return "finished"
    return "break" if r.on_break else "running"


def _ante_label(mode: str):
    return {"button": _("Button ante"), "big_blind": _("Big blind ante")}.get(mode, _("Ante"))


_seating_html: BoundedCache[str] = BoundedCache(64)


def seating_display_fragment(board: Board) -> str:
    """The room's seating screen (``#seating-display``, issue #36): rendered once per board and language in this
    process."""
    key = (board.tournament_id, board.version, translation.get_language())
    html = _seating_html.get(key)
    if html is None:
        html = _seating_html.put(key, render_to_string("tournaments/_seating_display.html", {
            "board": board, "rows": seating_rows(board), "tables": len({s.table for s in board.seats.values()})}))
    return mark_safe(html)  # noqa: S308 - rendered by a template
