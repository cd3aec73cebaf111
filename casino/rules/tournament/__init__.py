"""Poker tournaments as the tournament director runs them: pure Python, no Django (issue #14).

Each procedure is a small module, cited by clause (``../shared/rules-checklist.md``: TDA-, RP-, CC-,
and the house options of section 5, C-01..C-35):

- ``options``: the house options a tournament is run under (final-table size, ante mode, halting...).
- ``structure``: levels, breaks, chip denominations, structure templates (TDA-23, CC-86..88).
- ``clock``: the clock as a pure function of the structure and the stored clock events (start,
  pause, resume, adjust, skip, hand-for-hand): never a timer (TDA-23, CC-87, RP-07, RP-08-B..D).
- ``seating``: the random draw, late entries, balancing, breaking tables, the two-table and final-table
  redraws, the button draw (TDA-07..11, CC-48, CC-53..62, CC-82, C-01, C-03, C-18).
- ``prizes``: the payout table, ranking by elimination and the prizes of each place, splits and
  disqualifications (CC-14..21, CC-34, CC-47, RP-08-A).
- ``chip_race``: colour-up and the chip race (TDA-24, CC-68/69).
- ``eligibility``: who may register (CC-23..27, C-32).
- ``record``: the event's record (the export contract, docs/tournament-record.md) and the state
  rebuilt by replaying it, corrections included.

Randomness comes in as an argument (``rng``): the OS CSPRNG in the casino (``casino.rules.shuffle
.SYSTEM_RANDOM``), a seeded ``random.Random`` in the simulator; what was drawn is recorded, so a
replay never draws again.
"""
