"""The tournament clock, computed from stored times, never kept by a timer (TDA-23, CC-87, RP-07, RP-08).

A reading is a pure function of the structure, the stored clock events and ``now``: reading twice at
the same ``now`` gives the same answer, and no display or consumer keeps time of its own. The events
are replayed in time order (events at the same instant in the order given); the time between them is
counted in whole microseconds, so a thousand pauses lose nothing, and shown in whole seconds
(``seconds_left`` rounds up, as a countdown does: it shows 20:00 at the start of a 20-minute level and
the next step begins at the instant the last second runs out).

The model:

- ``start`` sets the clock running at step 0 (or at the step a ``skip`` before the start chose);
  ``pause``/``resume`` stop and restart it; a paused clock is paused, never "on a break".
- ``adjust`` adds (``seconds`` > 0) or takes (< 0) time from the current step; taking it to exactly 0
  ends the step; below 0 is refused. ``skip`` moves to step index ``step`` with its full time.
- Breaks are steps with their own minutes; running time carries over from one step into the next.
- Hand-for-hand (RP-08-B..D, C-19): while it is on, the wall clock does not run a *level*. The service
  sends ``hand_for_hand_hand`` at the start of each hand-for-hand hand (the synchronised deal, CC-11),
  and each one takes ``hand_for_hand_seconds`` off the level. The hand in progress at the announcement
  counts (RP-08-B): it is charged by the first ``hand_for_hand_hand``, so with 17:30 left at the
  announcement the clock shows 17:30 until the next hand starts, then 15:30, then 13:30 (RP-08-ex2).
  The service must NOT send an event for the hand in progress at the announcement. A deduction that
  passes the level's end carries into the next level (RP-08-D: blinds keep rising), but never into a
  break: the break starts whole at that hand's start, and a break runs on the wall clock even during
  hand-for-hand (no hands are dealt on a break). ``hand_for_hand_off`` does not charge the last hand:
  the wall clock runs the level again from that moment.
- The last level never ends: when its time runs out the clock keeps it (``structure_ended``),
  ``seconds_left`` is 0 and ``seconds_past_end`` counts up, so a display can show "last level +05:12"
  instead of sticking at 00:00; adding time with ``adjust`` gives it a countdown again.
- ``finish`` stops the clock for good.
- ``level_for_hand``: a hand plays the level in play when it starts (TDA-23, CC-87: a new level
  applies from the next hand after the clock reaches 0); a hand started on a break plays the level
  after the break.

Impossible sequences are refused by ``check_clock_event`` (the service checks before it stores); a
stored sequence that is impossible makes ``clock_at`` raise the same RuleViolation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NoReturn

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament.bounds import LONGEST_STEP_READ_MINUTES
from casino.rules.tournament.structure import Break, Level, Structure

#: start, pause, resume, adjust (seconds: + adds time to the current step, - takes it), skip (to step
#: index ``step``), hand_for_hand_on, hand_for_hand_off, hand_for_hand_hand (one hand started:
#: RP-08-B..D deduct the house's seconds), finish
CLOCK_KINDS = ("start", "pause", "resume", "adjust", "skip", "hand_for_hand_on", "hand_for_hand_off",
               "hand_for_hand_hand", "finish")

_MICRO = 1_000_000
_ONE_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    kind: str
    at: datetime  # aware, UTC
    seconds: int = 0
    step: int = 0


@dataclass(frozen=True, slots=True)
class ClockReading:
    started: bool
    running: bool  # false before the start, while paused, and after the finish
    paused: bool
    step: int  # index in structure.steps
    level_number: int | None  # None on a break
    on_break: bool
    level: Level | None  # the level in play (during a break: the level before it)
    seconds_left: int  # in the current step (the last level has no end: it keeps its level, TDA-23)
    next_level: Level | None
    seconds_to_break: int | None  # to the start of the next break after this step; None: no break ahead
    hand_for_hand: bool
    #: when the current step ends, while the wall clock runs it (not paused, not frozen by hand-for-hand,
    #: not past the end of the structure): a browser counts down to it without drifting
    step_ends_at: datetime | None = None
    finished: bool = False
    #: the last level's time has run out: the clock keeps the last level, ``seconds_left`` is 0
    structure_ended: bool = False
    seconds_past_end: int = 0
    #: the number of ``next_level`` (a display shows "next: level 5, 400/800")
    next_level_number: int | None = None


@dataclass(slots=True)
class _State:
    step: int
    left: int  # microseconds left in the step
    started: bool = False
    paused: bool = False
    finished: bool = False
    hand_for_hand: bool = False
    ended: bool = False
    past_end: int = 0  # microseconds played past the end of the last level
    since: datetime | None = None  # the time accounted up to
    last_at: datetime | None = None


def _step_time(structure: Structure, index: int) -> int:
    # A step stored before the bounds (10**20 minutes) reads as indefinitely long, not as a date past
    # year 9999 that no reader can compute (issue #34); every valid step is shorter.
    return min(structure.steps[index].minutes, LONGEST_STEP_READ_MINUTES) * 60 * _MICRO


def _aware(at: datetime) -> None:
    if not isinstance(at, datetime) or at.tzinfo is None or at.utcoffset() is None:
        raise RuleViolation(N_("Clock times must be aware (UTC) times"), "TDA-23")


def _next_step(state: _State, structure: Structure) -> None:
    if state.step + 1 >= len(structure.steps):
        # TDA-23: no level follows, so the last one stays in play with no end
        state.ended = True
        state.left = 0
    else:
        state.step += 1
        state.left = _step_time(structure, state.step)


def _run_until(state: _State, structure: Structure, until: datetime) -> None:
    """Let the wall clock run the steps from ``state.since`` to ``until``."""
    since, state.since = state.since, until
    if not state.started or state.paused or state.finished or since is None:
        return
    elapsed = (until - since) // _ONE_MICROSECOND
    while elapsed > 0:
        if state.hand_for_hand and isinstance(structure.steps[state.step], Level):
            return  # RP-08-B: a level runs by hands, not by the wall clock (the last one too)
        if state.ended:
            state.past_end += elapsed
            return
        if elapsed < state.left:
            state.left -= elapsed
            return
        elapsed -= state.left
        _next_step(state, structure)


def _deduct_hand(state: _State, structure: Structure, seconds: int) -> None:
    """RP-08-B..D: one hand-for-hand hand takes its fixed time off the level."""
    remaining = seconds * _MICRO
    while remaining > 0:
        if state.ended:
            state.past_end += remaining
            return
        if remaining < state.left:
            state.left -= remaining
            return
        remaining -= state.left
        _next_step(state, structure)
        if not state.ended and isinstance(structure.steps[state.step], Break):
            return  # a break starts whole: hand time never shortens it


def _refuse(template: str, clause: str, **values) -> NoReturn:
    raise RuleViolation(template, clause, **values)


def _apply(state: _State, structure: Structure, event: ClockEvent, hand_for_hand_seconds: int) -> None:
    """Check ``event`` against the state it arrives in, then apply it (the state is run up to it)."""
    _aware(event.at)
    if event.kind not in CLOCK_KINDS:
        _refuse(N_("Unknown clock action %(kind)s"), "TDA-23", kind=event.kind)
    if state.last_at is not None and event.at < state.last_at:
        _refuse(N_("A clock action cannot come before the last one"), "TDA-23")
    state.last_at = event.at
    if state.finished:
        _refuse(N_("The clock has finished"), "TDA-23")
    _run_until(state, structure, event.at)
    kind = event.kind
    if kind not in ("start", "skip", "adjust") and not state.started:
        _refuse(N_("The clock has not started"), "TDA-23")
    if kind == "start":
        if state.started:
            _refuse(N_("The clock has already started"), "TDA-23")
        state.started = True
    elif kind == "pause":
        if state.paused:
            _refuse(N_("The clock is already paused"), "TDA-23")
        state.paused = True
    elif kind == "resume":
        if not state.paused:
            _refuse(N_("The clock is not paused"), "TDA-23")
        state.paused = False
    elif kind == "adjust":
        left = state.left + event.seconds * _MICRO
        if left < 0:
            _refuse(N_("Only %(left)s seconds are left: %(seconds)s cannot be taken"), "TDA-23",
                    left=-(-state.left // _MICRO), seconds=-event.seconds)
        if state.ended and event.seconds > 0:
            state.ended = False  # the director gives the last level a countdown again
        state.left = left
        if state.left == 0 and not state.ended:
            _next_step(state, structure)
    elif kind == "skip":
        if not 0 <= event.step < len(structure.steps):
            _refuse(N_("The structure has no step %(step)s"), "CC-86", step=event.step)
        state.step = event.step
        state.left = _step_time(structure, event.step)
        state.ended = False
    elif kind == "hand_for_hand_on":
        if state.hand_for_hand:
            _refuse(N_("Hand-for-hand is already on"), "RP-08-B")
        state.hand_for_hand = True
    elif kind == "hand_for_hand_off":
        if not state.hand_for_hand:
            _refuse(N_("Hand-for-hand is not on"), "RP-08-B")
        state.hand_for_hand = False
    elif kind == "hand_for_hand_hand":
        if not state.hand_for_hand:
            _refuse(N_("A hand-for-hand hand needs hand-for-hand on"), "RP-08-B")
        if state.paused:
            _refuse(N_("No hand is dealt while the clock is paused"), "RP-08-B")
        if isinstance(structure.steps[state.step], Break) and not state.ended:
            _refuse(N_("No hand is dealt during a break"), "RP-08-B")
        _deduct_hand(state, structure, hand_for_hand_seconds)
    elif kind == "finish":
        state.finished = True


def _replay(structure: Structure, events: list[ClockEvent], until: datetime, hand_for_hand_seconds: int) -> _State:
    _aware(until)
    if not structure.steps:
        _refuse(N_("The structure has no level"), "CC-86")
    state = _State(step=0, left=_step_time(structure, 0))
    # sorted() is stable: events at the same instant keep the order they were stored in
    for event in sorted(events, key=lambda e: e.at):
        if event.at > until:
            break
        _apply(state, structure, event, hand_for_hand_seconds)
    _run_until(state, structure, until)
    return state


def check_clock_event(structure: Structure, events: list[ClockEvent], new: ClockEvent, *,
                      hand_for_hand_seconds: int = 120) -> None:
    """Refuse (RuleViolation) a clock action that cannot follow the stored ones: pausing a paused clock,
    resuming a running one, skipping to a step that does not exist, taking more time than is left,
    anything after the finish, or an action dated before the last one."""
    _aware(new.at)
    last = max((e.at for e in events), default=None)
    if last is not None and new.at < last:
        _refuse(N_("A clock action cannot come before the last one"), "TDA-23")
    state = _replay(structure, events, new.at, hand_for_hand_seconds)
    _apply(state, structure, new, hand_for_hand_seconds)


def _ceil_seconds(micro: int) -> int:
    return -(-micro // _MICRO)


def clock_at(structure: Structure, events: list[ClockEvent], now: datetime, *,
             hand_for_hand_seconds: int = 120) -> ClockReading:
    """The clock as it stands at ``now`` (the module docstring describes the model)."""
    state = _replay(structure, events, now, hand_for_hand_seconds)
    step = structure.steps[state.step]
    on_break = isinstance(step, Break)
    running = state.started and not state.paused and not state.finished
    wall_runs_step = running and not state.ended and not (state.hand_for_hand and not on_break)
    seconds_to_break = None
    if not state.ended:
        ahead = state.left
        for index in range(state.step + 1, len(structure.steps)):
            if isinstance(structure.steps[index], Break):
                seconds_to_break = _ceil_seconds(ahead)
                break
            ahead += _step_time(structure, index)
    return ClockReading(
        started=state.started,
        running=running,
        paused=state.paused,
        step=state.step,
        level_number=structure.level_number(state.step),
        on_break=on_break,
        level=structure.level_at(state.step),
        seconds_left=_ceil_seconds(state.left),
        next_level=structure.next_level_after(state.step),
        seconds_to_break=seconds_to_break,
        hand_for_hand=state.hand_for_hand,
        step_ends_at=now + timedelta(microseconds=state.left) if wall_runs_step else None,
        finished=state.finished,
        structure_ended=state.ended,
        seconds_past_end=state.past_end // _MICRO,
        next_level_number=_next_level_number(structure, state.step),
    )


def _next_level_number(structure: Structure, step: int) -> int | None:
    for index in range(step + 1, len(structure.steps)):
        if isinstance(structure.steps[index], Level):
            return structure.level_number(index)
    return None


def levels_begun(structure: Structure, reading: ClockReading) -> int:
    """How many levels the clock has begun: 0 before the start; on a break, the levels before it (the end of
    late registration is counted so, CC-32)."""
    if not reading.started:
        return 0
    return sum(1 for step in structure.steps[: reading.step + 1] if isinstance(step, Level))


def level_for_hand(structure: Structure, events: list[ClockEvent], hand_started_at: datetime, *,
                   hand_for_hand_seconds: int = 120) -> Level:
    """The level a hand started at ``hand_started_at`` is played at: a level applies from the next hand
    (TDA-23, CC-87); a hand started during a break plays the level after the break.

    Events at the hand's start count, a ``hand_for_hand_hand`` included: if its deduction takes the
    level to 0, this hand already plays the next level (RP-08-D).
    """
    state = _replay(structure, events, hand_started_at, hand_for_hand_seconds)
    if isinstance(structure.steps[state.step], Break):
        following = structure.next_level_after(state.step)
        if following is not None:
            return following
    level = structure.level_at(state.step)
    if level is None:  # a structure opening with a break: the hand plays the first level
        level = structure.next_level_after(state.step)
    assert level is not None, "check_structure refuses a structure without a level"
    return level
