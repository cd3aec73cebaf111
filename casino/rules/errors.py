"""The one exception the rules engine raises for a refused action."""

from __future__ import annotations


class RuleViolation(Exception):
    """An action the rules do not allow, explained for the dealer.

    ``message`` is a sentence a dealer can read at the table; ``clause`` is
    the checklist ID it rests on (e.g. ``"THB-57"``), also appended to the
    message so that logs and screens always show where the rule comes from.
    """

    def __init__(self, message: str, clause: str | None = None) -> None:
        self.message = message
        self.clause = clause
        super().__init__(f"{message} ({clause})" if clause else message)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.args[0]
