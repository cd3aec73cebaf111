"""Replaying recorded hands, one JSON object per line (``python manage.py replay_hand``).

``replay_record(record)`` answers one hand, dispatching on ``record["game"]``:

* ``"texas-holdem-bonus"``: ``casino.rules.holdem_bonus.record.replay_thb_record``;
* ``"holdem"``: ``casino.rules.holdem.replay.replay_holdem_hand`` (imported
  only when such a hand comes up).

Every bad input gives ``{"error": "<what is wrong>"}`` and never raises: a
pit boss or an inspector reads the answer, not a traceback. The format is
described in docs/hand-history.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus.record import GAME as THB_GAME
from casino.rules.holdem_bonus.record import replay_thb_record

HOLDEM_GAME = "holdem"
GAMES = (THB_GAME, HOLDEM_GAME)


def _replay_holdem(record: dict) -> dict:
    try:
        from casino.rules.holdem.replay import replay_holdem_hand
    except ImportError as missing:
        return {"error": f"Hold'em hands cannot be replayed by this installation yet ({missing})"}
    return replay_holdem_hand(record)


def replay_record(record: Any) -> dict:
    """Replay one hand record; the answer, or ``{"error": ...}``. Never raises."""
    try:
        if not isinstance(record, dict):
            return {"error": f"A hand must be a JSON object, not {type(record).__name__}"}
        game = record.get("game")
        if game == THB_GAME:
            return replay_thb_record(record)
        if game == HOLDEM_GAME:
            return _replay_holdem(record)
        if game is None:
            return {"error": f"The hand does not say its game: add \"game\", one of {', '.join(GAMES)}"}
        return {"error": f"{game!r} is not a game this system replays; games are {', '.join(GAMES)}"}
    except RuleViolation as violation:
        return {"error": str(violation)}
    except Exception as unexpected:  # noqa: BLE001 - an inspector gets an answer line, never a traceback
        return {"error": f"The hand could not be replayed: {type(unexpected).__name__}: {unexpected}"}


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON hands may use")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    data: dict = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} appears twice in one object")
        data[key] = value
    return data


def parse_line(line: str) -> Any:
    """Read one JSON line strictly: no duplicate keys, no NaN or Infinity."""
    return json.loads(line, object_pairs_hook=_unique_keys, parse_constant=_refuse_constant)


def replay_lines(lines: Iterable[str]) -> Iterator[dict]:
    """One answer per non-blank line, in order (JSON Lines in, JSON answers out)."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line)
        except ValueError as bad:
            yield {"error": f"Line {number} is not a JSON hand: {bad}"}
            continue
        yield replay_record(record)
