"""Where a tournament's clock stops the dealers' rotation (RP-07): its level changes and breaks, past and ahead.

The clock is stored as events (``casino.rules.tournament.clock``); between two events it runs as the structure
says, so each step's end is known: the level changes and breaks that happened are read from the events, the ones
ahead are projected from the clock as it stands at ``now`` (a paused clock, or one not started, as if it ran from
``now``: its next stop is then no sooner than it would be). A level that runs by hands (hand-for-hand, RP-08-B)
changes at a hand's start, which no one can foretell: none is projected while it does (the change waits for the
hand's end anyway). ``casino.rules.rotation.schedule`` takes these stops.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from casino.rules.rotation import Stop
from casino.rules.tournament.clock import ClockEvent, clock_at
from casino.rules.tournament.structure import Break, Structure

#: How far ahead the clock's stops are projected (a rotation's schedule looks a few downs ahead).
PROJECTED_HOURS = 12


def _walk(structure: Structure, step: int, ends_at: datetime, until: datetime, out: list[tuple[datetime, int]]):
    """The steps' ends from ``step`` (ending at ``ends_at``) on, before ``until``: (instant, step entered)."""
    at = ends_at
    while at < until and step + 1 < len(structure.steps):
        step += 1
        out.append((at, step))
        at = at + timedelta(minutes=structure.steps[step].minutes)


def dealer_change_stops(structure: Structure, events: list[ClockEvent], now: datetime, *,
                        hand_for_hand_seconds: int = 120) -> tuple[Stop, ...]:
    """The clock's level changes (a ``Stop`` at one instant) and breaks (from their start to their end)."""
    instants = sorted({event.at for event in events if event.at <= now})
    horizon = now + timedelta(hours=PROJECTED_HOURS)
    bounds: list[tuple[datetime, int]] = []
    for i, at in enumerate(instants):
        until = instants[i + 1] if i + 1 < len(instants) else now
        reading = clock_at(structure, events, at, hand_for_hand_seconds=hand_for_hand_seconds)
        if reading.step_ends_at is not None:
            _walk(structure, reading.step, reading.step_ends_at, until, bounds)
    reading = clock_at(structure, events, now, hand_for_hand_seconds=hand_for_hand_seconds)
    runs_by_hands = reading.hand_for_hand and not reading.on_break
    if not (reading.finished or reading.structure_ended or runs_by_hands):
        ends_at = reading.step_ends_at or now + timedelta(seconds=reading.seconds_left)
        _walk(structure, reading.step, ends_at, horizon, bounds)
    stops = []
    for i, (at, step) in enumerate(bounds):
        if isinstance(structure.steps[step], Break):
            ends = bounds[i + 1][0] if i + 1 < len(bounds) else at + timedelta(minutes=structure.steps[step].minutes)
            stops.append(Stop(at, ends))
        else:
            stops.append(Stop(at, at))
    return tuple(stops)
