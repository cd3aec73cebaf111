"""The players' phone links of an event (C-33): issued with an entry's receipt, living until the event ends and
``LINK_GRACE`` after, revoked (a lost receipt) and reissued by the director, each audited."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from casino.rules.errors import N_, RuleViolation
from tournaments.models import (
    Tournament,
)
from tournaments.projections import entry_number
from tournaments.services import links
from tournaments.writing import EventWrite, TournamentResult, entry_row, write_event

#: A player's link lives until the event ends, and this long after, to read their place and prize.
LINK_GRACE = timedelta(hours=12)


def link_expiry(tournament: Tournament) -> datetime:
    """When a player's link of this event stops working: the event's end (or a day after its start,
    if it has none) and ``LINK_GRACE`` after, and never before the pit's link lifetime from now."""
    ends = getattr(tournament, "ends_at", None) or tournament.starts_at + timedelta(days=1)
    return max(ends + LINK_GRACE, timezone.now() + timedelta(hours=settings.PLAYER_LINK_HOURS))


def issue_entry_link(entry, *, by, stream: str | None = None):
    """A player's QR link for ``entry`` (the accreditation receipt prints it): bound to that one entry,
    audited, working until ``link_expiry`` of its event. A second link is a second or lost phone of the
    same player; every one of them is revoked by ``revoke_entry_links`` when the entry is corrected away, or
    by the director (``services.revoke_player_links``). None is issued for an entry out of the event (busted,
    withdrawn, disqualified): the links it has keep showing its final place until they expire."""
    from casino.player_links import issue_player_link
    from casino.rules.tournament.record import IN_PLAY

    if entry.status not in IN_PLAY:
        raise RuleViolation(N_("Entry %(entry)s is out of the event: no new link is issued for it (the links it "
                               "has show its final place until they expire)."), None, entry=entry_number(entry))

    hours = math.ceil((link_expiry(entry.tournament) - timezone.now()).total_seconds() / 3600)
    return issue_player_link(seat=entry, by=by, label=gettext("Entry %(number)s") % {"number": entry_number(entry)},
                             hours=max(1, hours), stream=stream)


def revoke_entry_links(entry, *, by, now=None) -> list:
    """Revoke every usable link of ``entry`` in the caller's transaction (a registration corrected away,
    a player who must not follow the event any more); after commit their phones say goodbye and close."""
    from django.contrib.contenttypes.models import ContentType

    from casino.models import PlayerLink
    from casino.player_links import end_links

    links = list(PlayerLink.objects.select_for_update().filter(
        seat_type=ContentType.objects.get_for_model(type(entry)), seat_id=entry.pk, revoked_at__isnull=True))
    end_links(links, by=by, now=now or timezone.now())
    return links


def revoke_player_links(*, tournament, by, key: str, expected_version: int, entry: int,
                        reissue: bool = False) -> TournamentResult:
    """The director ends every link of an entry that still works (a lost or stolen receipt): after commit the
    phones on them are told and closed, on every process (``links.revoke_entry_links``). With ``reissue``,
    a new link for the same entry in the same write (``result.link``), refused for an entry out of the event
    (``links.issue_entry_link``). Each link ended is audited (``player_link.revoked``), as the pit's are."""

    def work(w: EventWrite) -> None:
        row = entry_row(w, entry)
        ended = links.revoke_entry_links(row, by=w.by, now=w.now)
        if not ended and not reissue:
            raise RuleViolation(N_("Entry %(entry)s has no link that still works."), None, entry=entry)
        for link in ended:
            w.audit("player_link.revoked", obj=link, entry=entry, reason="reissued" if reissue else "revoked")
        if reissue:
            w.link = links.issue_entry_link(row, by=w.by).pk

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="player_links_revoked", work=work)
