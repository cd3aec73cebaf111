"""The structure: levels and breaks in order, and the chip denominations in play (TDA-23, CC-86..88).

Level numbers count levels only, never breaks (a clock that numbers breaks as levels is a bug other
clocks shipped). A break may colour up: ``removes`` lists the denominations that leave play at it
(TDA-24, CC-68).

``Level.ante`` is the ante amount as the event's ante mode charges it (house option C-02): with the
house's button ante it is the whole ante the button pays, equal to the big blind from the first ante
level (CC-50); with a big-blind ante (RP-11) it is what the big blind pays; with "none" it must be 0.
``ante_for`` gives the amount due at a table (the button ante is halved to the small blind at 6 or
fewer players, CC-51). ``check_structure(..., ante_mode=...)`` refuses antes that do not match the mode.

The structure is stored as JSON (the app's JSONField, the event's record): ``as_dict`` gives plain
lists, dicts and ints, and ``from_dict`` reads it back, refusing a malformed one with a RuleViolation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament.bounds import MAX_CHIPS, MAX_STEP_MINUTES, MAX_STEPS


@dataclass(frozen=True, slots=True)
class Level:
    small_blind: int
    big_blind: int
    #: the ante as the event's ante mode charges it (see the module docstring; 0: no ante)
    ante: int = 0
    minutes: int = 20


@dataclass(frozen=True, slots=True)
class Break:
    minutes: int = 10
    #: denominations leaving play at this break (the colour-up and chip race, TDA-24)
    removes: tuple[int, ...] = ()


Step = Level | Break


@dataclass(frozen=True, slots=True)
class Structure:
    steps: tuple[Step, ...]
    #: chip denominations in play at the start, smallest first
    denominations: tuple[int, ...] = (25, 100, 500, 1000, 5000)

    def _check_index(self, step_index: int) -> None:
        if not 0 <= step_index < len(self.steps):
            raise RuleViolation(N_("The structure has no step %(step)s"), "CC-86", step=step_index)

    def level_number(self, step_index: int) -> int | None:
        """The level's number (1, 2...) of a step, breaks not counted; None for a break."""
        self._check_index(step_index)
        if isinstance(self.steps[step_index], Break):
            return None
        return sum(1 for step in self.steps[: step_index + 1] if isinstance(step, Level))

    def level_at(self, step_index: int) -> Level | None:
        """The level in play at a step: the step itself, or during a break the level before it."""
        self._check_index(step_index)
        for step in reversed(self.steps[: step_index + 1]):
            if isinstance(step, Level):
                return step
        return None

    def next_level_after(self, step_index: int) -> Level | None:
        """The first level after ``step_index`` (past any break), None after the last level."""
        for step in self.steps[step_index + 1:]:
            if isinstance(step, Level):
                return step
        return None

    def denominations_at(self, step_index: int) -> tuple[int, ...]:
        """The chips in play at a step, smallest first: the starting ones less those coloured up at
        every break up to and including this one (the race is run during the break, TDA-24)."""
        self._check_index(step_index)
        removed: set[int] = set()
        for step in self.steps[: step_index + 1]:
            if isinstance(step, Break):
                removed.update(step.removes)
        return tuple(d for d in self.denominations if d not in removed)

    def as_dict(self) -> dict:
        steps: list[dict[str, Any]] = []
        for step in self.steps:
            if isinstance(step, Level):
                steps.append({"kind": "level", "small_blind": step.small_blind, "big_blind": step.big_blind,
                              "ante": step.ante, "minutes": step.minutes})
            else:
                steps.append({"kind": "break", "minutes": step.minutes, "removes": list(step.removes)})
        return {"denominations": list(self.denominations), "steps": steps}

    @classmethod
    def from_dict(cls, data: dict) -> Structure:
        """Read a stored structure back; a malformed one is refused with what is wrong in it."""
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
            raise RuleViolation(N_("A structure needs a list of steps"), "CC-86")
        steps: list[Step] = []
        for index, raw in enumerate(data["steps"]):
            kind = raw.get("kind") if isinstance(raw, dict) else None
            try:
                if kind == "level":
                    steps.append(Level(small_blind=_int(raw["small_blind"]), big_blind=_int(raw["big_blind"]),
                                       ante=_int(raw.get("ante", 0)), minutes=_int(raw.get("minutes", 20))))
                elif kind == "break":
                    steps.append(Break(minutes=_int(raw.get("minutes", 10)),
                                       removes=tuple(_int(d) for d in raw.get("removes", ()))))
                else:
                    raise ValueError(kind)
            except (KeyError, TypeError, ValueError):
                raise RuleViolation(N_("Step %(step)s of the structure is not a level or a break"), "CC-86",
                                    step=index) from None
        denominations = data.get("denominations", list(cls.__dataclass_fields__["denominations"].default))
        try:
            denominations = tuple(_int(d) for d in denominations)
        except (TypeError, ValueError):
            raise RuleViolation(N_("The chip denominations must be whole numbers"), "CC-86") from None
        return cls(steps=tuple(steps), denominations=denominations)


def _int(value: Any) -> int:
    # JSON has no int type of its own: refuse 2.5, "20" and True rather than guess
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def ante_for(level: Level, mode: str, *, players: int | None = None, halve_at_or_below: int = 6) -> int:
    """The ante due in a hand at ``level`` under the ante mode (house option C-02).

    "button" (CC-50): the button pays ``level.ante`` (the big blind from the first ante level), halved
    to the small blind when ``players`` at the table are ``halve_at_or_below`` or fewer (CC-51);
    "big_blind" (RP-11): the big blind pays ``level.ante``; "none": no ante.
    """
    if mode == "none" or level.ante <= 0:
        return 0
    if mode == "button" and players is not None and players <= halve_at_or_below:
        return min(level.ante, level.small_blind)
    return level.ante


def check_structure(structure: Structure, *, ante_mode: str | None = None) -> None:
    """Refuse (RuleViolation) a structure a director cannot run: no level, blinds not rising, a big
    blind under the small, a zero-minute level, a blind or ante no denomination in play can make...

    With ``ante_mode`` the antes are checked against it too: none with "none", the big blind with the
    house's button ante (CC-50).
    """
    denominations = structure.denominations
    if not denominations or any(d <= 0 for d in denominations) or list(denominations) != sorted(set(denominations)):
        raise RuleViolation(N_("The chip denominations must be positive and listed smallest first, once each"),
                            "CC-63")
    if denominations[-1] > MAX_CHIPS:
        raise RuleViolation(N_("A chip denomination cannot be more than %(most)s"), "CC-63", most=MAX_CHIPS)
    if len(structure.steps) > MAX_STEPS:
        raise RuleViolation(N_("A structure has at most %(most)s levels and breaks, not %(steps)s"), "CC-86",
                            most=MAX_STEPS, steps=len(structure.steps))
    if not any(isinstance(step, Level) for step in structure.steps):
        raise RuleViolation(N_("The structure has no level"), "CC-86")
    if isinstance(structure.steps[-1], Break):
        raise RuleViolation(N_("The structure ends with a break: it must end with a level"), "CC-86")
    in_play = list(denominations)
    previous: Level | None = None
    number = 0
    for index, step in enumerate(structure.steps):
        if step.minutes <= 0:
            raise RuleViolation(N_("Step %(step)s must last at least one minute, not %(minutes)s"), "TDA-23",
                                step=index + 1, minutes=step.minutes)
        if step.minutes > MAX_STEP_MINUTES:
            # a clock cannot count down a longer step to a date (issue #34: 10**20 minutes broke every reader)
            raise RuleViolation(N_("Step %(step)s cannot last more than %(most)s minutes"), "TDA-23",
                                step=index + 1, most=MAX_STEP_MINUTES)
        if isinstance(step, Break):
            _check_colour_up(structure, index, step, in_play)
            in_play = [d for d in in_play if d not in step.removes]
            continue
        number += 1
        _check_level(step, number, previous, in_play, ante_mode)
        previous = step


def _check_colour_up(structure: Structure, index: int, step: Break, in_play: list[int]) -> None:
    for chip in step.removes:
        if chip not in in_play:
            raise RuleViolation(N_("The break at step %(step)s removes the %(chip)s chip, which is not in play"),
                                "CC-68", step=index + 1, chip=chip)
    left = [d for d in in_play if d not in step.removes]
    if not left:
        raise RuleViolation(N_("The break at step %(step)s removes every chip in play"), "CC-68", step=index + 1)
    for chip in step.removes:
        if chip > left[0]:
            # CC-68: colouring up replaces the lower chips by the higher ones, never the other way round
            raise RuleViolation(N_("The break at step %(step)s removes the %(chip)s chip while the smaller "
                                   "%(smaller)s chip stays in play"), "CC-68",
                                step=index + 1, chip=chip, smaller=left[0])
    smallest = left[0]
    for later in structure.steps[index + 1:]:
        if isinstance(later, Level):
            for amount in (later.small_blind, later.big_blind, later.ante):
                # blame the break only if the chips before it could make the amount
                if amount % smallest and not amount % in_play[0]:
                    raise RuleViolation(N_("The break at step %(step)s removes a chip that level %(level)s still "
                                           "needs for %(amount)s"), "CC-68",
                                        step=index + 1, level=_level_number_after(structure, index, later),
                                        amount=amount)


def _level_number_after(structure: Structure, break_index: int, level: Level) -> int | None:
    for index in range(break_index + 1, len(structure.steps)):
        if structure.steps[index] is level:
            return structure.level_number(index)
    return None


def _check_level(level: Level, number: int, previous: Level | None, in_play: list[int],
                 ante_mode: str | None) -> None:
    if level.small_blind <= 0 or level.big_blind <= 0:
        raise RuleViolation(N_("Level %(level)s needs positive blinds"), "CC-86", level=number)
    if level.big_blind < level.small_blind:
        raise RuleViolation(N_("Level %(level)s has a big blind (%(bb)s) under the small blind (%(sb)s)"),
                            "CC-86", level=number, bb=level.big_blind, sb=level.small_blind)
    if level.ante < 0:
        raise RuleViolation(N_("Level %(level)s has a negative ante"), "CC-86", level=number)
    if max(level.small_blind, level.big_blind, level.ante) > MAX_CHIPS:
        raise RuleViolation(N_("Level %(level)s asks for more than %(most)s chips"), "CC-86", level=number,
                            most=MAX_CHIPS)
    if previous is not None and (level.big_blind < previous.big_blind or level.small_blind < previous.small_blind):
        raise RuleViolation(N_("Level %(level)s lowers the blinds: blinds only rise"), "TDA-23", level=number)
    smallest = in_play[0]
    for amount in (level.small_blind, level.big_blind, level.ante):
        if amount % smallest:
            raise RuleViolation(N_("Level %(level)s asks for %(amount)s, which the chips in play (smallest "
                                   "%(chip)s) cannot make"), "CC-68", level=number, amount=amount, chip=smallest)
    if ante_mode == "none" and level.ante:
        raise RuleViolation(N_("Level %(level)s has an ante but the event plays without antes"), "C-02",
                            level=number)
    if ante_mode == "button" and level.ante and level.ante != level.big_blind:
        raise RuleViolation(N_("Level %(level)s: the button ante equals the big blind (%(bb)s), not %(ante)s"),
                            "CC-50", level=number, bb=level.big_blind, ante=level.ante)


def default_structure() -> Structure:
    """The house default: 20-minute levels, a 10-minute break after every 4 levels, the button ante
    (= the big blind, CC-50) from level 5, the 25 chips coloured up at the second break and the 100s at
    the third (CC-68), once no later level needs them."""
    blinds = [(25, 50), (50, 100), (75, 150), (100, 200),
              (100, 200), (150, 300), (200, 400), (300, 600),
              (400, 800), (500, 1000), (600, 1200), (800, 1600),
              (1000, 2000), (1500, 3000), (2000, 4000), (2500, 5000),
              (3000, 6000), (4000, 8000), (5000, 10000), (6000, 12000),
              (8000, 16000), (10000, 20000), (15000, 30000), (20000, 40000)]
    removes_at_break = {1: (), 2: (25,), 3: (100,), 4: (), 5: ()}
    steps: list[Step] = []
    for number, (small, big) in enumerate(blinds, start=1):
        ante = big if number >= 5 else 0
        steps.append(Level(small_blind=small, big_blind=big, ante=ante, minutes=20))
        if number % 4 == 0 and number < len(blinds):
            steps.append(Break(minutes=10, removes=removes_at_break.get(number // 4, ())))
    return Structure(steps=tuple(steps), denominations=(25, 100, 500, 1000, 5000))
