"""Tampering with a tournament's rows behind the services' back is refused or caught (issue #34, item 2).

Each rewrite here is one the application's own database role may attempt (INSERT, UPDATE and DELETE on
the ordinary tables; tests/casino/test_db_roles.py shows what it may not): rows that never change
(a hand's actions, the ID checks) are append-only in the database, and rows that the services change
(a hand's entries and level, the dealer on duty, a player, the exclusion list) are covered by the keyed
audit chain, so that ``verify_audit`` fails and names what it found. The tamper table is in docs/audit.md.
"""

from __future__ import annotations

import secrets
import uuid

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.utils import timezone

from casino.db_roles import grant_app_role
from tests.casino import test_db_roles
from tournaments import services
from tournaments.models import DealtTable, Entry, ExclusionListEntry, IdCheck, Player, TableHand, TableHandAction
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def app_role(transactional_db):
    """The application's own PostgreSQL role, with the rights migrate grants it (a role of this module's:
    tests/casino/test_db_roles.py keeps its own for the session)."""
    role = test_db_roles.AppRole(f"{connection.settings_dict['NAME']}_tamper", secrets.token_urlsafe(16))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role.name])
        verb = "ALTER" if cursor.fetchone() else "CREATE"
        cursor.execute(f'{verb} ROLE "{role.name}" LOGIN PASSWORD %s', [role.password])
        grant_app_role(role.name, using="default")
    yield role
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role.name}"')
        cursor.execute(f'DROP ROLE "{role.name}"')


EXCLUSIONS = ("id_type,id_number,kind,listed_on\n"
              "dni,11222333,self_exclusion,2026-10-01\n"
              "passport,XY987654,exclusion,2025-03-15\n")


def tap(table, fn, by, **kwargs):
    """One tap on the tablet: a fresh key and the version the tablet shows."""
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def in_turn(table) -> int:
    return hand_reads.hand_state(hand_reads.latest_hand(table)).to_act


def verify_fails(match: str) -> str:
    with pytest.raises(CommandError, match=match) as failure:
        call_command("verify_audit")
    return str(failure.value)


@pytest.fixture
def dealt_event(first_table, dealer_dana_here, director_dora):
    """The event's table with hand 1 folded to the big blind and awarded (in the event's record), and
    hand 2 in play: an action undone with its reason, the clock called on the player in turn. The
    exclusion list imported. verify_audit passes on it as the services left it."""
    tap(first_table, dealing.start_hand, dealer_dana_here)
    while in_turn(first_table) is not None:
        tap(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": in_turn(first_table)})
    tap(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    tap(first_table, dealing.start_hand, dealer_dana_here)
    tap(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": in_turn(first_table)})
    tap(first_table, dealing.undo_last, dealer_dana_here, reason="wrong seat tapped")
    tap(first_table, dealing.call_clock, director_dora)
    services.import_exclusion_csv(by=director_dora, text=EXCLUSIONS, source="lista-2026-11.csv")
    call_command("verify_audit")
    return first_table


def test_verify_audit_reports_the_tournament_hands_dealers_entries_and_exclusion_list_it_checked(dealt_event,
                                                                                                  capsys):
    call_command("verify_audit")
    out = capsys.readouterr().out
    assert "Audit log intact:" in out
    assert "Tournament hands: 2 checked against the actions the log recorded for them, and replayed." in out
    assert "Dealt tables: 1 dealers on duty checked against the log's last assignment." in out
    assert "Entries: 4 players and their ID documents checked against the log's registrations." in out
    assert "Exclusion list: 2 entries checked against the digest of its last import." in out


def test_a_fold_row_forged_into_a_hand_in_play_fails_verify_audit(dealt_event, dealer_dana_here):
    hand = hand_reads.latest_hand(dealt_event)
    last = hand.actions.order_by("-seq").first().seq
    TableHandAction.objects.create(hand=hand, seq=last + 1, record={"action": "fold", "seat": in_turn(dealt_event)},
                                   by=dealer_dana_here, at=timezone.now())
    verify_fails(rf"table {dealt_event.number}, hand 2 \(id {hand.pk}\), action #{last + 1} \(fold\): the audit log "
                 "never recorded this action")


def test_a_hands_entries_rewritten_fail_verify_audit(dealt_event):
    hand = hand_reads.latest_hand(dealt_event)
    seats = sorted(hand.entries)
    swapped = {**hand.entries, seats[0]: hand.entries[seats[1]], seats[1]: hand.entries[seats[0]]}
    TableHand.objects.filter(pk=hand.pk).update(entries=swapped)
    verify_fails(rf"hand 2 \(id {hand.pk}\): the hand's entries field is not what the audit log recorded at its "
                 "last write")


def test_a_hands_level_rewritten_fails_verify_audit_TDA_23(dealt_event):
    hand = TableHand.objects.get(table=dealt_event, number=1)
    TableHand.objects.filter(pk=hand.pk).update(level={**hand.level, "big_blind": 5_000})
    verify_fails(rf"hand 1 \(id {hand.pk}\): the hand's level field is not what the audit log recorded at its "
                 "last write")


def test_a_hands_report_pointed_at_another_event_of_the_record_fails_verify_audit_CC_43(dealt_event):
    """An undo of the award withdraws the event the hand names: pointed elsewhere, it would withdraw another."""
    hand = TableHand.objects.get(table=dealt_event, number=1)
    TableHand.objects.filter(pk=hand.pk).update(reported_seq=1)
    verify_fails(rf"hand 1 \(id {hand.pk}\): event #1 of the record, which it names as its report, is not its report")


def test_a_players_id_number_changed_fails_verify_audit_CC_24(dealt_event):
    entry = Entry.objects.get(tournament=dealt_event.tournament, number=1)
    Player.objects.filter(pk=entry.player_id).update(id_number="99999999")
    verify_fails(rf"player {entry.player_id}: the name, ID document or birth date differ from those the audit log "
                 rf"recorded last \(event #\d+ of stream tournaments.tournament.{entry.tournament_id}\)")


def test_an_entrys_player_changed_fails_verify_audit_CC_15(dealt_event):
    """What the issue saw: the entry pointed at another person, whose document then passes the prize's ID check."""
    first, second = Entry.objects.filter(tournament=dealt_event.tournament).order_by("number")[:2]
    Entry.objects.filter(pk=first.pk).update(player=second.player_id)
    verify_fails(rf"tournament {first.tournament_id}, entry 1: its player \(id {second.player_id}\) is not the one "
                 rf"the audit log recorded at its registration \(id {first.player_id}\)")


def test_an_id_check_edited_or_deleted_is_refused_by_the_database_CC_24(dealt_event):
    check = IdCheck.objects.filter(entry__tournament=dealt_event.tournament).first()
    for statement in ("UPDATE tournaments_idcheck SET id_number = '99999999' WHERE id = %s",
                      "DELETE FROM tournaments_idcheck WHERE id = %s"):
        with pytest.raises(DatabaseError, match="ID checks are append-only"), connection.cursor() as cursor:
            cursor.execute(statement, [check.pk])
    with pytest.raises(TypeError, match="ID checks are append-only"):
        IdCheck.objects.filter(pk=check.pk).update(id_number="99999999")
    assert IdCheck.objects.get(pk=check.pk).id_number == check.id_number


def test_a_self_excluded_person_deleted_from_the_exclusion_list_fails_verify_audit_CC_23(dealt_event):
    ExclusionListEntry.objects.filter(id_number="11222333").delete()
    verify_fails(r"the exclusion list \(1 entries\) is not the one its last import left \(2 entries, audited at .*\): "
                 "an entry was added, changed or deleted since")


def test_a_new_exclusion_list_imported_through_the_service_still_verifies_CC_23(dealt_event, director_dora, capsys):
    services.import_exclusion_csv(by=director_dora, text=EXCLUSIONS + "dni,44555666,self_exclusion,2026-11-20\n",
                                  source="lista-2026-12.csv")
    call_command("verify_audit")
    assert "Exclusion list: 3 entries checked" in capsys.readouterr().out


def test_the_dealer_on_duty_changed_fails_verify_audit(dealt_event, dealer_diego):
    DealtTable.objects.filter(pk=dealt_event.pk).update(dealer=dealer_diego)
    verify_fails(rf"tournament {dealt_event.tournament_id}, table {dealt_event.number}: its dealer on duty \(diego\) "
                 r"is not the one the audit log assigned it last \(dana\)")


def test_a_dealer_put_on_duty_by_the_director_still_verifies(dealt_event, dealer_diego, director_dora, capsys):
    tap(dealt_event, dealing.assign_dealer, director_dora, dealer=dealer_diego)
    call_command("verify_audit")
    assert "Dealt tables: 1 dealers on duty checked" in capsys.readouterr().out


def test_a_hand_backed_up_by_the_director_still_verifies_TDA_01(dealt_event, dealer_dana_here, director_dora,
                                                                   capsys):
    tap(dealt_event, dealing.act, dealer_dana_here, record={"action": "call", "seat": in_turn(dealt_event)})
    called = hand_reads.latest_hand(dealt_event).actions.order_by("-seq").first()
    tap(dealt_event, dealing.back_up_hand, director_dora, to_seq=called.seq, reason="dealer skipped a seat")
    assert hand_reads.latest_hand(dealt_event).actions.filter(undoes=called).exists()
    call_command("verify_audit")
    assert "Tournament hands: 2 checked" in capsys.readouterr().out


def test_the_application_roles_own_tampering_is_refused_or_named_by_verify_audit(dealt_event, app_role,
                                                                                 dealer_dana_here, dealer_diego):
    """What the issue did, with the application's credentials: a fold forged into the hand in play, another
    dealer put on duty, an ID check edited."""
    hand = hand_reads.latest_hand(dealt_event)
    seq = hand.actions.order_by("-seq").first().seq + 1
    with app_role.connect() as db:
        db.execute("INSERT INTO tournaments_tablehandaction (hand_id, seq, record, reason, by_id, at) "
                   "VALUES (%s, %s, %s, '', %s, now())",
                   [hand.pk, seq, psycopg.types.json.Jsonb({"action": "fold", "seat": in_turn(dealt_event)}),
                    dealer_dana_here.pk])
        db.execute("UPDATE tournaments_dealttable SET dealer_id = %s WHERE id = %s", [dealer_diego.pk, dealt_event.pk])
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("UPDATE tournaments_idcheck SET id_number = '99999999'")
    failure = verify_fails(rf"hand 2 \(id {hand.pk}\), action #{seq} \(fold\): the audit log never recorded this "
                           "action")
    assert "its dealer on duty (diego) is not the one the audit log assigned it last (dana)" in failure
