"""What a dealer's home page shows besides the pit's tables: a registry the games fill in.

The dealer's home is the pit's page (``tables.views.dealer_home``), and the pit never imports the tournament room;
a game whose dealers rotate (the tournament room's rotation, RP-07) registers, in its ``AppConfig.ready``, a
function of the dealer and the moment that renders what it has for him (where and when he deals next), or "" when it
has nothing. This module only dispatches: the core never imports a game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

_sections: list[Callable[[object, datetime], str]] = []


def register_section(render: Callable[[object, datetime], str]) -> None:
    """``render(user, now)``: the game's part of the dealer's home, rendered (safe HTML), or "" for none."""
    if render not in _sections:
        _sections.append(render)


def sections(user, now: datetime) -> list[str]:
    """Each registered game's part of ``user``'s home at ``now``, those with something to show."""
    return [html for html in (render(user, now) for render in _sections) if html]
