"""Time to act (CC-114, house option C-04): the seconds the player in turn has for any action.

CC-114 gives every player 60 seconds for any action on his turn (the house's default,
``HouseOptions.action_seconds``); TDA-29 has no base shot clock (``action_seconds=0``: no timer). The time
runs from the moment the action reached the seat: the hand's last record (the deal's end, the act before
his, the board dealt, an undo), so every tablet and every reload reads the same end from the record.

What happens at zero is not a ruling: CC-114 sets the time and says nothing of its end; a player who takes
longer than reasonable may have the clock called on him (CC-115: the director, or another player at the
table), which is the called clock's own countdown and outcome (C-04, C-05: ``table_hand.clock_expiry_record``).
So when the time to act has run out the tablet prompts the dealer to call the clock or the floor; the hand
is not killed for it.

Nothing here reads or writes anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from casino.rules.tournament.options import HouseOptions


@dataclass(frozen=True, slots=True)
class TimeToAct:
    """The seat in turn, when the action reached it, and when its time to act ends (CC-114)."""

    seat: int
    since: datetime
    ends_at: datetime
    seconds: int

    def left(self, now: datetime) -> int:
        """The whole seconds still to run at ``now`` (a part of one counts as one), never below zero."""
        return max(0, math.ceil((self.ends_at - now).total_seconds()))

    def ran_out(self, now: datetime) -> bool:
        return now >= self.ends_at


def reached_at(started_at: datetime, record_times: Iterable[datetime]) -> datetime:
    """The moment the action reached the seat in turn: the hand's last record (its start when it has none
    yet). An undo counts: the action came back to the seat at that moment."""
    return max([started_at, *record_times])


def time_to_act(to_act: int | None, since: datetime, options: HouseOptions) -> TimeToAct | None:
    """The time to act of seat ``to_act`` from ``since`` under the house's option (C-04): None when nobody
    is to act or the house runs no base shot clock (TDA-29)."""
    if to_act is None or options.action_seconds <= 0:
        return None
    return TimeToAct(seat=to_act, since=since, ends_at=since + timedelta(seconds=options.action_seconds),
                     seconds=options.action_seconds)
