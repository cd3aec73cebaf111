"""Passwordless player links: issue, sign, resolve and revoke.

A link is a row (casino.PlayerLink) bound to one seat, plus a URL that
carries the row's id signed with SECRET_KEY. The signature stops forgery and
guessing; the row decides validity (expiry, revocation), so revoking takes
effect at once and is announced to the player's open sockets.
"""

from __future__ import annotations

import functools
from datetime import timedelta

import segno
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core import signing
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from casino.audit import record_event
from casino.models import PlayerLink
from casino.realtime import announce_change

SALT = "casino.player-link"
SESSION_KEY = "player_link"


def issue_player_link(*, seat, by, label: str = "", hours: int | None = None, stream: str | None = None) -> PlayerLink:
    """Create a link bound to ``seat`` (a table box or a tournament entry), audited."""
    with transaction.atomic():
        link = PlayerLink.objects.create(
            seat_type=ContentType.objects.get_for_model(seat),
            seat_id=seat.pk,
            label=label or str(seat),
            created_by=by,
            expires_at=timezone.now() + timedelta(hours=hours or settings.PLAYER_LINK_HOURS),
        )
        record_event(
            action="player_link.issued",
            actor=by,
            obj=link,
            stream=stream,
            details={"seat": f"{link.seat_type.app_label}.{link.seat_type.model}:{seat.pk}", "label": link.label},
        )
    return link


def revoke_player_link(link: PlayerLink, *, by, stream: str | None = None) -> PlayerLink:
    """Revoke at once: the row is the authority, and open sockets are told to close."""
    with transaction.atomic():
        link = PlayerLink.objects.select_for_update().get(pk=link.pk)
        if link.revoked_at is None:
            end_links([link], by=by, now=timezone.now())
            record_event(action="player_link.revoked", actor=by, obj=link, stream=stream, details={})
    return link


def end_links(links: list[PlayerLink], *, by, now) -> None:
    """Revoke ``links`` (rows locked by the caller) in the caller's transaction, which audits them.

    The rows first: they are the authority, read on every request and socket check. After commit each
    link's group is told, on every process, and its phones say goodbye and close.
    """
    for link in links:
        link.revoked_at, link.revoked_by = now, by
        link.save(update_fields=["revoked_at", "revoked_by"])
    if links:
        announce_change(*(link.group_name for link in links), version=1, event="revoked")


def token_for(link: PlayerLink) -> str:
    return signing.dumps(link.id.hex, salt=SALT, compress=False)


def link_from_token(token: str) -> PlayerLink | None:
    """The usable link a token names, or None (bad signature, unknown, expired or revoked)."""
    try:
        link_id = signing.loads(token, salt=SALT)
        link = PlayerLink.objects.select_related("seat_type").get(pk=link_id)
    except (signing.BadSignature, PlayerLink.DoesNotExist, ValueError, TypeError):
        return None
    return link if link.is_usable() else None


def url_for(link: PlayerLink, request=None) -> str:
    path = reverse("player_enter", args=[token_for(link)])
    return request.build_absolute_uri(path) if request is not None else path


def qr_svg(url: str) -> str:
    """The link as an SVG QR code (segno), big enough to scan from a table layout."""
    return segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#111", light="#fff")


def current_link(session) -> PlayerLink | None:
    """The usable link this browser session entered with, re-checked on every use."""
    link_id = session.get(SESSION_KEY)
    if not link_id:
        return None
    link = PlayerLink.objects.select_related("seat_type").filter(pk=link_id).first()
    return link if link is not None and link.is_usable() else None


def usable_links(seat_model, values, *, by: str = "id", open_while_null: str | None = None) -> dict:
    """``{link id: expires_at}`` of the unrevoked, unexpired links whose seat (a ``seat_model`` row) has
    ``by`` among ``values`` (and ``open_while_null`` still null): the links that may watch a screen.

    Both games' phones read it once per version and process. The values as parameters, not a subquery: by
    them PostgreSQL uses the links' (seat type, seat id) index whatever its statistics say; the names from
    the models' metadata."""
    values = list(values)
    if not values:
        return {}
    sql = _usable_links_sql(seat_model, by, open_while_null)
    with connection.cursor() as cursor:
        cursor.execute(sql, [ContentType.objects.get_for_model(seat_model).pk, values, timezone.now()])
        return dict(cursor.fetchall())


@functools.lru_cache(maxsize=16)
def _usable_links_sql(seat_model, by: str, open_while_null: str | None) -> str:
    quote, links, seats = connection.ops.quote_name, PlayerLink._meta, seat_model._meta

    def link(name: str) -> str:
        return f"l.{quote(links.get_field(name).column)}"

    def seat(name: str) -> str:
        return f"s.{quote(seats.get_field(name).column)}"

    source, chosen, still_open = f"{quote(links.db_table)} l", link("seat_id"), ""
    if by != seats.pk.name or open_while_null is not None:  # the seat's own columns: join its table
        source += f" JOIN {quote(seats.db_table)} s ON {seat(seats.pk.name)} = {link('seat_id')}"
        chosen = seat(by)
        still_open = f" AND {seat(open_while_null)} IS NULL" if open_while_null else ""
    return (f"SELECT {link('id')}, {link('expires_at')} FROM {source} "  # noqa: S608
            f"WHERE {link('seat_type')} = %s AND {chosen} = ANY(%s){still_open} "
            f"AND {link('revoked_at')} IS NULL AND {link('expires_at')} > %s")
