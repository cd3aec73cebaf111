"""PostgreSQL is the record: concurrent writes at one table, and hand actions that cannot be rewritten."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import DatabaseError, connection, connections, transaction

from tables import reads, services
from tables.models import HandAction, Table

from .helpers import CLOSE_BETS, DEAL, ante, fold, play

pytestmark = [pytest.mark.usefixtures("quick_passwords")]


def race(table_id: int, attempts: list[dict]) -> list[object]:
    """Run each attempt in its own thread (its own connection), released together by a barrier."""
    barrier = threading.Barrier(len(attempts))
    outcomes: list[object] = [None] * len(attempts)

    def attempt(i: int, kwargs: dict) -> None:
        try:
            table = Table.objects.get(pk=table_id)
            barrier.wait(timeout=10)
            outcomes[i] = services.record_action(table=table, **kwargs)
        except Exception as problem:  # noqa: BLE001 - the outcome is what the test looks at
            outcomes[i] = problem
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, args=(i, kw)) for i, kw in enumerate(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_tablets_acting_on_the_same_version_one_wins_the_other_is_told_to_refresh(hand_started, dealer_dana):
    for box in range(1, 8):
        hand_started.refresh_from_db()
        version = hand_started.version
        outcomes = race(hand_started.pk, [
            {"by": dealer_dana, "key": uuid.uuid4().hex, "expected_version": version, "record": ante(box, 10)},
            {"by": dealer_dana, "key": uuid.uuid4().hex, "expected_version": version, "record": ante(box, 20)},
        ])
        won = [o for o in outcomes if isinstance(o, services.ActionResult)]
        stale = [o for o in outcomes if isinstance(o, services.StaleVersion)]
        assert len(won) == 1 and len(stale) == 1, outcomes
        assert won[0].table_version == version + 1 == stale[0].current_version
    hand_started.refresh_from_db()
    assert hand_started.version == version + 1
    assert HandAction.objects.filter(kind="place-ante").count() == 7  # one per box, never two
    play(hand_started, dealer_dana, CLOSE_BETS, DEAL, *(fold(box) for box in range(1, 8)))
    hand, state = reads.current_hand(hand_started)
    antes = sum(b.ante for b in state.boxes)
    assert state.settlement.house_net == -sum(b.net for b in state.settlement.boxes) == antes == hand.house_net


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_arriving_at_two_servers_at_once_is_applied_once(hand_started, dealer_dana):
    hand_started.refresh_from_db()
    request = {"by": dealer_dana, "key": "double-tap", "expected_version": hand_started.version,
               "record": ante(1, 10)}
    outcomes = race(hand_started.pk, [request, request])
    assert all(isinstance(o, services.ActionResult) for o in outcomes), outcomes
    assert sorted(o.duplicate for o in outcomes) == [False, True]
    assert outcomes[0].table_version == outcomes[1].table_version
    assert HandAction.objects.count() == 1


@pytest.mark.django_db
def test_postgres_refuses_to_update_a_hand_action(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_handaction SET record = %s", ['{"action": "place-ante", "box": 1, "amount": 99}'])


@pytest.mark.django_db
def test_postgres_refuses_to_delete_a_hand_action(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tables_handaction")
    assert HandAction.objects.count() == 1
