"""The screens of a table share their reads: one replay and one snapshot per version in a process.

Every write bumps the table's version; what a version shows never changes, so the tablet, the console
and each phone that re-render after a push read it once. These tests pin what a push costs, because
the pit's speed rests on it (docs/decisions/2026-11-22-one-read-per-version.md), and that a shared read is
never a stale one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from casino import player_links
from casino.memo import BoundedCache, another_process, clear_all
from casino.models import PlayerLink
from casino.player_views import seat_groups
from casino.rules.holdem_bonus import replay
from tables import reads, rendering, services
from tables.models import Hand, HandAction
from tests.conftest import issue_box_link

from .helpers import CLOSE_BETS, act, ante, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_passwords")]


@pytest.fixture(autouse=True)
def processes_share_nothing(settings):
    # "Another process" below is one that holds nothing of a version: no snapshot shared in Redis
    # either (as on a casino run without it). The tests of the shared snapshots turn sharing on.
    settings.SHARE_SNAPSHOTS = False


@pytest.fixture
def shared_snapshots(settings):
    """Sharing on, through a cache of the test's own that pickles as Redis does (a copy, never the object)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared"}}
    settings.SHARE_SNAPSHOTS = True
    yield
    caches["default"].clear()


def _forget_everything() -> None:
    """This process remembers nothing (as a daphne process that never heard of the table)."""
    clear_all()


def _full_replay(hand: Hand):
    rows = reads.effective_rows(hand.actions.order_by("seq"))
    return replay(reads.rules_of(hand), [r.record for r in rows])


def _rows_read_after(queries) -> list[str]:
    """The SQL of the queries that read a hand's rows."""
    return [q["sql"] for q in queries.captured_queries if 'FROM "tables_handaction"' in q["sql"]]


def test_a_screen_that_missed_a_change_applies_only_the_new_rows_and_gets_the_full_replays_state(
    hand_started, dealer_dana
):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 20))
    hand = Hand.objects.get(table=hand_started)
    _forget_everything()
    reads.hand_state(hand)  # this process has replayed the hand's first two rows
    with another_process():  # which records two more actions
        play(hand_started, dealer_dana, ante(3, 5), CLOSE_BETS)
    with CaptureQueriesContext(connection) as queries:
        state = reads.hand_state(hand)
    assert len(queries) == 1  # the two new rows, nothing else
    assert '"seq" > 2' in _rows_read_after(queries)[0]
    assert state == _full_replay(hand) and state.box(3).ante == 5


def test_an_undo_among_the_new_rows_replays_the_hand_from_its_first_row(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 20))
    hand = Hand.objects.get(table=hand_started)
    _forget_everything()
    reads.hand_state(hand)  # box 2's ante included
    with another_process():
        act(services.undo_last_action, hand_started, dealer_dana, reason="box 2 withdrew")
    with CaptureQueriesContext(connection) as queries:
        state = reads.hand_state(hand)
    assert state.box(2) is None and state == _full_replay(hand)
    assert len(_rows_read_after(queries)) == 2  # the new row, an undo: then every row from the first
    assert HandAction.objects.filter(hand=hand, kind=HandAction.UNDO).count() == 1


def test_the_write_leaves_its_snapshot_so_the_tablet_answer_reads_nothing_back(hand_started, dealer_dana):
    result = play(hand_started, dealer_dana, ante(1, 10))
    hand_started.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        snapshot = reads.snapshot_anywhere(hand_started, result.table_version)
    assert queries.captured_queries == []
    assert snapshot.version == result.table_version and snapshot.state.box(1).ante == 10
    assert snapshot.state == _full_replay(snapshot.hand)


def test_a_phone_push_after_a_write_reads_nothing_once_the_parts_are_rendered(hand_started, dealer_dana):
    link = issue_box_link(hand_started, 1, dealer_dana)
    box = link.seat  # the player's seating at box 1
    result = play(hand_started, dealer_dana, ante(1, 10))
    with translation.override("es"):
        rendering.player_fragment(box, link, version=result.table_version)  # the first phone renders the parts
        with CaptureQueriesContext(connection) as queries:
            html = rendering.player_fragment(box, link, version=result.table_version)
    assert queries.captured_queries == []
    assert f'data-version="{result.table_version}"' in html[:200]


def _phones(table, dealer, numbers):
    """``{box number: (the player's seating, their link)}``."""
    links = {n: issue_box_link(table, n, dealer) for n in numbers}
    for link in links.values():
        seat_groups(link)  # as a phone's socket does when it connects: the seating knows its table
    return {n: (link.seat, link) for n, link in links.items()}


def test_the_phones_of_another_process_render_a_push_from_memory_after_one_shared_read(hand_started, dealer_dana):
    phones = _phones(hand_started, dealer_dana, (1, 2, 5))
    rendering.prepare_phones(hand_started, play(hand_started, dealer_dana, ante(1, 10)).table_version)
    with another_process():  # another daphne process made this write: this one holds nothing of it
        result = play(hand_started, dealer_dana, ante(2, 20))
    with translation.override("es"):
        assert rendering.player_fragment_from_memory(*phones[1], result.table_version) is None
        with CaptureQueriesContext(connection) as queries:
            rendering.prepare_phones(hand_started, result.table_version)
        # The table, its session with the hand, the hand's new row, and the links that may watch.
        assert len(queries) == 4, [q["sql"][:80] for q in queries.captured_queries]
        with CaptureQueriesContext(connection) as queries:
            pages = {n: rendering.player_fragment_from_memory(box, link, result.table_version)
                     for n, (box, link) in phones.items()}
        assert queries.captured_queries == []
        for n, (box, link) in phones.items():
            assert pages[n] == rendering.player_fragment(box, link, version=result.table_version)
    assert f'data-version="{result.table_version}"' in pages[5][:200]


def test_a_link_revoked_or_expired_before_the_versions_read_is_not_rendered_from_memory(hand_started, dealer_dana):
    phones = _phones(hand_started, dealer_dana, (1, 2, 3))
    player_links.revoke_player_link(phones[1][1], by=dealer_dana)
    PlayerLink.objects.filter(pk=phones[2][1].pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    result = play(hand_started, dealer_dana, ante(1, 10))
    rendering.prepare_phones(hand_started, result.table_version)
    with translation.override("es"):
        # None sends the push down the worker-thread path, which reads the link's row and says goodbye.
        assert rendering.player_fragment_from_memory(*phones[1], result.table_version) is None
        assert rendering.player_fragment_from_memory(*phones[2], result.table_version) is None
        assert rendering.player_fragment_from_memory(*phones[3], result.table_version) is not None


def test_the_links_of_a_tables_boxes_are_read_by_their_seats_not_through_every_box_link_ever_issued(
    hand_started, dealer_dana
):
    phones = _phones(hand_started, dealer_dana, (4,))
    _forget_everything()
    with CaptureQueriesContext(connection) as queries:
        links = reads.watching_links(hand_started, hand_started.version)
    assert set(links) == {phones[4][1].pk}
    sql = queries.captured_queries[-1]["sql"]
    assert "tables_box" not in sql  # the seven box ids are values, so the (seat type, seat id) index answers


def test_the_links_watching_a_table_are_exactly_its_boxes_usable_links(hand_started, table_two, dealer_dana):
    phones = _phones(hand_started, dealer_dana, (1, 2, 3, 4))
    player_links.revoke_player_link(phones[3][1], by=dealer_dana)
    PlayerLink.objects.filter(pk=phones[4][1].pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elsewhere = issue_box_link(table_two, 1, dealer_dana)
    _forget_everything()
    links = reads.watching_links(hand_started, hand_started.version)
    assert set(links) == {phones[1][1].pk, phones[2][1].pk} and elsewhere.pk not in links
    assert links[phones[1][1].pk] == PlayerLink.objects.get(pk=phones[1][1].pk).expires_at


def test_a_replaced_link_is_not_rendered_and_each_box_keeps_its_own_render(hand_started, dealer_dana):
    first, second = (issue_box_link(hand_started, 1, dealer_dana) for _ in range(2))
    other = issue_box_link(hand_started, 2, dealer_dana)
    boxes = {1: first.seat, 2: other.seat}  # each box's seating: the second link replaced the first
    result = play(hand_started, dealer_dana, ante(1, 10))
    rendering.prepare_phones(hand_started, result.table_version)
    with translation.override("es"):
        page = rendering.player_fragment_from_memory(boxes[1], second, result.table_version)
        assert page is not None
        # Issue #16: a new link for a box ends the earlier one; the render in memory knows it too.
        assert rendering.player_fragment_from_memory(boxes[1], first, result.table_version) is None
        assert rendering.player_fragment_from_memory(boxes[1], second, result.table_version) is page
        assert rendering.player_fragment_from_memory(boxes[2], other, result.table_version) != page
        assert page == rendering.player_fragment(boxes[1], second, version=result.table_version)
    with translation.override("en"):  # each language its own
        assert "Box 1" in rendering.player_fragment_from_memory(boxes[1], second, result.table_version)


def _box_2_ante_reading_no_hand(table, dealer):
    """Box 2's ante of 20, checked to read neither the hand nor its rows; then, as another process, the
    hand the database holds, checked to replay to what the write built on."""
    with CaptureQueriesContext(connection) as queries:
        result = act(services.record_action, table, dealer, record=ante(2, 20))
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in selects if 'FROM "tables_hand' in sql], selects
    _forget_everything()
    hand = Hand.objects.get(table=table)
    assert reads.hand_state(hand) == _full_replay(hand)  # what the write built on was the database's state
    return result, hand


def test_a_write_on_the_version_this_process_holds_reads_neither_the_hand_nor_its_rows(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    hand_started.refresh_from_db()
    reads.snapshot_anywhere(hand_started, hand_started.version)  # this process holds the version (its phones read it)
    result, hand = _box_2_ante_reading_no_hand(hand_started, dealer_dana)
    assert reads.hand_state(hand).box(2).ante == 20 and result.table_version == hand_started.version + 1


def test_a_write_on_a_version_this_process_does_not_hold_reads_the_hand(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    _forget_everything()
    hand_started.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        act(services.record_action, hand_started, dealer_dana, record=ante(2, 20))
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert [sql for sql in selects if 'FROM "tables_hand"' in sql]
    hand = Hand.objects.get(table=hand_started)
    assert [r.seq for r in hand.actions.order_by("seq")] == [1, 2]  # numbered on from the rows it read


def test_boxes_with_no_bet_share_the_hand_part_of_their_phones_and_a_box_with_a_bet_has_its_own(
    hand_started, dealer_dana
):
    boxes = {n: issue_box_link(hand_started, n, dealer_dana).seat for n in (1, 2, 3, 4)}  # their seatings
    result = play(hand_started, dealer_dana, ante(1, 10))
    rendered = []

    def count(sender, template, context, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(count)
    try:
        with translation.override("es"):
            pages = {n: rendering.player_fragment(boxes[n], None, version=result.table_version) for n in (1, 2, 3, 4)}
    finally:
        template_rendered.disconnect(count)
    assert rendered.count("tables/player/_hand.html") == 2  # box 1's own, and one for boxes 2, 3 and 4
    assert rendered.count("tables/player/_paytable.html") == 1  # the same for every box
    assert "Casilla 2" in pages[2] and "Casilla 3" in pages[3]  # each still names its own box
    assert pages[2].replace("Casilla 2", "") == pages[3].replace("Casilla 3", "")


def test_another_process_takes_a_versions_snapshot_from_the_one_that_wrote_it_without_reading(
    hand_started, dealer_dana, shared_snapshots
):
    result = play(hand_started, dealer_dana, ante(1, 10), ante(2, 20))
    written = reads.snapshot_in_process(hand_started, result.table_version)
    _forget_everything()
    with CaptureQueriesContext(connection) as queries:
        snapshot = reads.snapshot_anywhere(hand_started, result.table_version)
    assert queries.captured_queries == []
    assert snapshot is not written and snapshot.version == result.table_version  # a copy, through pickle
    hand = Hand.objects.get(table=hand_started)
    assert snapshot.state == _full_replay(hand) and snapshot.state.box(2).ante == 20
    # The shared state seeds this process's replays: the next one reads only the rows after it.
    with another_process():
        play(hand_started, dealer_dana, ante(3, 5))
    with CaptureQueriesContext(connection) as queries:
        state = reads.hand_state(hand)
    assert len(queries) == 1 and state == _full_replay(hand) and state.box(3).ante == 5
    assert '"seq" > 2' in _rows_read_after(queries)[0]


def test_a_write_on_a_version_another_process_made_reads_neither_the_hand_nor_its_rows(
    hand_started, dealer_dana, shared_snapshots
):
    play(hand_started, dealer_dana, ante(1, 10))
    _forget_everything()  # the tablet's next tap lands on the other daphne process
    hand_started.refresh_from_db()
    result, hand = _box_2_ante_reading_no_hand(hand_started, dealer_dana)
    assert hand_started.version + 1 == result.table_version
    assert [r.seq for r in hand.actions.order_by("seq")] == [1, 2]  # numbered on from the shared snapshot


def test_without_redis_the_screens_read_the_database_and_nothing_is_lost(hand_started, dealer_dana, settings, caplog):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    }
    settings.SHARE_SNAPSHOTS = True  # but nothing answers on that port
    result = play(hand_started, dealer_dana, ante(1, 10))  # the write commits although it cannot share
    _forget_everything()
    snapshot = reads.snapshot_anywhere(hand_started, result.table_version)
    assert snapshot.version == result.table_version and snapshot.state.box(1).ante == 10
    assert "could not share the snapshot" in caplog.text and "could not read the shared snapshot" in caplog.text


def test_a_snapshot_is_never_older_than_the_version_asked_for(hand_started, dealer_dana):
    with another_process():  # this process hears of neither write
        first = play(hand_started, dealer_dana, ante(1, 10))
        second = play(hand_started, dealer_dana, ante(2, 10))
    hand_started.refresh_from_db()
    snapshot = reads.snapshot_anywhere(hand_started, first.table_version)
    assert snapshot.version >= first.table_version
    assert snapshot.version == second.table_version and snapshot.state.box(2).ante == 10


def test_a_bounded_cache_forgets_the_least_recently_used_and_makes_a_missing_value_once():
    cache: BoundedCache[int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert cache.get("b") is None and cache.get("a") == 1 and len(cache) == 2
    made = []
    assert cache.get_or_make("d", lambda: made.append(1) or 4, alone=True) == 4
    assert cache.get_or_make("d", lambda: made.append(1) or 5, alone=True) == 4
    assert made == [1]
