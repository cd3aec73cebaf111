"""What the tournament's pages share: the page context, the per-event role check (``may_act``), the one command
call of a form (``call_service``, its key checked by ``casino.writes.asking``), the refusal-to-response mapping
(``outcome``, from ``casino.refusals``) and the labels of the infractions (TDA-71)."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy

from casino import refusals
from casino.form_input import version_and_key
from casino.refusals import Outcome
from casino.roles import Role, has_role
from casino.rules.tournament.penalties import INFRACTIONS
from casino.writes import asking
from tournaments import access
from tournaments.models import Entry, Tournament
from tournaments.rendering import console

EVENT_CHANGED = gettext_lazy("The event changed: refreshing. Check and try again.")
DIRECTORS = access.DIRECTOR_ROLES
FLOOR = access.FLOOR_ROLES


#: Who assigns an event's director (the check itself: ``tournaments.access.oversees_events``).
OVERSEERS = (Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


def page_context(request, tournament, here: str) -> dict:
    return {"tournament": tournament, "here": here, "may_direct": access.may_direct(request.user, tournament),
            "may_work_floor": access.may_work_floor(request.user, tournament)}


def may_act(user, tournament: Tournament, who: str) -> bool:
    """Whether ``user`` may do at this event what ``who`` may (``tournaments.access``): "director", its own
    director (the games director and administrators at any event); "floor", the floor staff and the event's
    director; "overseer", the games director and administrators, who assign an event's director."""
    if who == "overseer":
        return has_role(user, *OVERSEERS) and access.oversees_events(user)
    if who == "director":
        return access.may_direct(user, tournament)
    if who == "floor":
        return access.may_work_floor(user, tournament)
    raise ValueError(f"no one is {who!r}")


def require_directs(request, tournament: Tournament) -> None:
    """A director of another event may look at this one; he may not change it (403)."""
    if not access.may_direct(request.user, tournament):
        raise PermissionDenied


def outcome(call: Callable, changed: Callable[[], list[str]] | None = None) -> Outcome:
    """Run ``call`` and say how it went: (status, notice, result), as ``casino.refusals`` maps it; a stale page is
    told what ``changed`` says was recorded since the version it showed."""
    return refusals.outcome(call, stale=EVENT_CHANGED, changed=changed)


def changed_since_the_page(tournament: Tournament, post) -> Callable[[], list[str]]:
    """What the event's record got since the version the page posted (``rendering.console.what_changed``): for
    ``outcome``, which asks it only once the command refused that version as stale (it was read already)."""
    def changed() -> list[str]:
        since, _key = version_and_key(post)
        return console.what_changed(tournament, since)
    return changed


def call_service(command: Callable, tournament: Tournament, user, post, kwargs: dict):
    """The one command of a form: ``command(tournament=, by=, key=, expected_version=, **kwargs)``."""
    version, key = version_and_key(post)
    with asking({"service": command.__name__, **kwargs}):  # the key sent again for another seat is refused (409)
        return command(tournament=tournament, by=user, key=key, expected_version=version, **kwargs)


def entry_or_404(tournament, number: int) -> Entry:
    return get_object_or_404(Entry, tournament=tournament, number=number)


#: The infractions the penalty form offers (CC-39's catalogue; the record keeps the code).
INFRACTION_LABELS = {
    "etiquette": gettext_lazy("Etiquette: abuse, arguing, excessive chatter (TDA-70)"),
    "delay": gettext_lazy("Needlessly delaying the action (TDA-70)"),
    "out_of_turn": gettext_lazy("Repeated action out of turn (TDA-70)"),
    "exposing_cards": gettext_lazy("Exposing cards with action pending (TDA-68)"),
    "one_player_to_a_hand": gettext_lazy("One player to a hand: discussing or showing a hand (TDA-67)"),
    "throwing_cards": gettext_lazy("Throwing cards off the table or at someone (TDA-71-B)"),
    "touching_chips": gettext_lazy("Touching others' chips or cards, the deck, the pot (TDA-70)"),
    "miscalling": gettext_lazy("Miscalling one's hand (CC-39)"),
    "communication_device": gettext_lazy("A communication device at the table (CC-41)"),
    "forced_bets_dodged": gettext_lazy("Dodging the blinds after a move (CC-60)"),
    "leaving_with_action_pending": gettext_lazy("Leaving the seat with action pending (CC-119)"),
    "soft_play": gettext_lazy("Soft play (TDA-69)"),
    "other": gettext_lazy("Other (say what in the reason)"),
}
assert set(INFRACTION_LABELS) == set(INFRACTIONS)
