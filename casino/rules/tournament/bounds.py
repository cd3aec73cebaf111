"""The numbers a real event can hold (issue #34): what a director may type, and what the readers of a
stored setup can count with.

A number past these is a typing slip or a probe, never an event: the forms refuse it naming the field,
``structure.check_structure`` and the setup's checks refuse it in the rules, and the clock reads a
step stored before these bounds existed as at most ``LONGEST_STEP_READ_MINUTES`` long.
"""

from __future__ import annotations

#: a level or a break: 1 minute to 10 hours (TDA-23)
MAX_STEP_MINUTES = 600
#: levels and breaks in one structure (the console's "skip to step" counts up to here)
MAX_STEPS = 500
#: blinds, antes, chip denominations, a stack counted at a table
MAX_CHIPS = 10**12
#: the starting stack and the buy-in and fee (kept in 32-bit columns of the event's row too)
MAX_STARTING_STACK = 10**9
MAX_MONEY = 10**9
#: table numbers in the room
MAX_TABLE_NUMBER = 10_000
#: a step stored before these bounds (e.g. 10**20 minutes) reads as this long: an indefinitely long step
#: whose end still fits a date (a week; any valid step is shorter)
LONGEST_STEP_READ_MINUTES = 7 * 24 * 60
