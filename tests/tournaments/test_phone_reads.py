"""The phones' shared read of the event (issue #15, speed): a push that announced a version the event has
already left renders the newer board from memory, never an older one, and never a worker-thread read per
phone."""

from __future__ import annotations

import pytest
from django.db import transaction

from casino import memo
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering import phone as phone_screen

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_push_whose_version_the_event_left_is_rendered_from_the_newer_board_in_memory(
    event_in_play, director_dora
):
    entry = Entry.objects.filter(tournament=event_in_play).first()
    link = services.issue_entry_link(entry, by=director_dora)
    announced = Tournament.objects.get(pk=event_in_play.pk).version
    act(services.clock_command, event_in_play, director_dora, kind="pause")  # before the push was read
    memo.clear_all()  # as a process that has read nothing of the event yet

    _key, read = phone_screen.phone_shared_read(entry, announced)
    read()
    html = phone_screen.phone_from_memory(entry, link, announced)

    now = Tournament.objects.get(pk=event_in_play.pk).version
    assert now > announced and html is not None
    assert f'data-version="{now}"' in html and "paused" in html.lower()


def test_a_board_older_than_the_push_is_never_shown(event_in_play, director_dora):
    older = event_reads.board_at(Tournament.objects.get(pk=event_in_play.pk))
    assert event_reads.board_since(event_in_play.pk, older.version) is older
    assert event_reads.board_since(event_in_play.pk, older.version + 1) is None


def test_the_links_read_finds_an_entry_registered_after_this_process_knew_the_events_entries(
    registering, director_dora, floor_fede
):
    from tests.tournaments.conftest import register

    first = Entry.objects.get(tournament=registering, number=register(registering, floor_fede, 0).entry)
    early = services.issue_entry_link(first, by=director_dora)
    assert event_reads.watching_links(registering.pk) == {early.pk: early.expires_at}  # the entries' ids now known
    late = Entry.objects.get(tournament=registering, number=register(registering, floor_fede, 1).entry)
    link = services.issue_entry_link(late, by=director_dora)
    assert event_reads.watching_links(registering.pk, [late.number]) == {link.pk: link.expires_at}
    with transaction.atomic():
        services.revoke_entry_links(first, by=director_dora)
    assert event_reads.watching_links(registering.pk) == {link.pk: link.expires_at}
