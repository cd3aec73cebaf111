"""The phones' read of the links that may watch a table (event_reads.watching_links), in SQL of its own: the
same answer as the ORM's query, on PostgreSQL and on the laptop's SQLite alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from casino.models import PlayerLink
from tests.tournaments.conftest import register
from tournaments import services
from tournaments.models import Entry
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def _as_the_orm_reads_them(entries) -> dict:
    return dict(PlayerLink.objects.filter(
        seat_type=ContentType.objects.get_for_model(Entry), seat_id__in=[e.pk for e in entries],
        revoked_at__isnull=True, expires_at__gt=timezone.now()).values_list("pk", "expires_at"))


def test_only_the_usable_links_of_the_entries_asked_for_are_read_as_the_orm_reads_them(
    registering, director_dora, floor_fede
):
    entries = [Entry.objects.get(tournament=registering, number=register(registering, floor_fede, i).entry)
               for i in range(3)]
    usable = services.issue_entry_link(entries[0], by=director_dora)
    expired = services.issue_entry_link(entries[1], by=director_dora)
    PlayerLink.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    revoked = services.issue_entry_link(entries[2], by=director_dora)
    PlayerLink.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    other = services.issue_entry_link(entries[2], by=director_dora)  # the phone linked again after the revocation

    read = event_reads.watching_links(registering.pk)
    assert read == _as_the_orm_reads_them(entries) == {usable.pk: usable.expires_at, other.pk: other.expires_at}
    assert all(at.tzinfo is not None for at in read.values())
    assert event_reads.watching_links(registering.pk, [entries[0].number]) == {usable.pk: usable.expires_at}
    assert event_reads.watching_links(registering.pk, [999]) == {}  # no such entry: nothing to read
