"""The application's PostgreSQL role reads and appends history but cannot rewrite it (casino.db_roles).

The suite itself runs as the superuser that created the test database (the owner); these tests connect
to that database as the application's role, with the rights `migrate` grants it.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from dataclasses import dataclass

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from casino.db_roles import grant_app_role
from tests.conftest import ROOT, database_url_for_servers

pytestmark = pytest.mark.django_db(transaction=True)

APPEND_ONLY = ["casino_auditevent", "casino_deckstep", "tables_chipslipstep", "tables_dropentry", "tables_floatcount",
               "tables_floatsignature", "tables_handaction", "tables_paytableversion", "tables_shiftreportsignature",
               "tournaments_idcheck", "tournaments_tablehandaction", "tournaments_tournamentevent"]


@dataclass(frozen=True)
class AppRole:
    name: str
    password: str

    def url(self) -> str:
        return database_url_for_servers(self.name, self.password)

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url(), autocommit=True)


@pytest.fixture(scope="session")
def app_role(django_db_setup, django_db_blocker):
    """The application's role on the test database (one per test database: roles are cluster-wide)."""
    role = AppRole(f"{connection.settings_dict['NAME']}_app", secrets.token_urlsafe(16))
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role.name])
        verb = "ALTER" if cursor.fetchone() else "CREATE"
        cursor.execute(f'{verb} ROLE "{role.name}" LOGIN PASSWORD %s', [role.password])
        grant_app_role(role.name, using="default")
    yield role
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role.name}"')
        cursor.execute(f'DROP ROLE "{role.name}"')


REWRITES = {
    "UPDATE": "UPDATE {t} SET id = id",
    "DELETE": "DELETE FROM {t}",
    "TRUNCATE": "TRUNCATE {t}",
    "DROP TRIGGER": "DROP TRIGGER {t}_append_only ON {t}",
    "ALTER TABLE": "ALTER TABLE {t} DISABLE TRIGGER {t}_append_only",
    "DROP TABLE": "DROP TABLE {t}",
}


@pytest.mark.parametrize("table", APPEND_ONLY)
@pytest.mark.parametrize("rewrite", list(REWRITES))
def test_the_app_role_cannot_rewrite_an_append_only_table(app_role, table, rewrite):
    with app_role.connect() as db:
        assert db.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute(REWRITES[rewrite].format(t=table))


def _manage(*args, **env):
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_OWNER_URL",)}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**clean, "DEBUG": "1", "DATABASE_POOL": "0", "AUDIT_KEY": settings.AUDIT_KEY, **env},
    )


PLAY_A_HAND = """
from django.contrib.auth import get_user_model
from django.core.management import call_command
from tables import services
from tables.models import Table
from tests.tables.helpers import act, open_for_play, play_to_settlement
users = get_user_model().objects
table = open_for_play(Table.objects.get(name="THB-1"), users.get(username="dana"), users.get(username="pat"))
act(services.start_hand, table, users.get(username="dana"))
play_to_settlement(table, users.get(username="dana"))
call_command("anchor_audit")
call_command("verify_audit")
"""


def test_the_app_role_plays_a_hand_and_verifies_the_log(app_role, bonus_paid_without_release, pit_boss_pat, tmp_path):
    """Every table a hand writes is covered by the grants: the whole write path runs as the application (a winning
    Bonus paid at once: THB-67's house option, so that the hand settles without the pit boss's release)."""
    from tables.models import Hand, HandAction

    result = _manage("shell", "-c", PLAY_A_HAND, DATABASE_URL=app_role.url(),
                     AUDIT_ANCHOR_PATH=str(tmp_path / "anchors.jsonl"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Audit log intact" in result.stdout
    hand = Hand.objects.get(table=bonus_paid_without_release)
    assert hand.house_net is not None and HandAction.objects.filter(hand=hand).count() == 20


def test_migrate_as_the_owner_grants_the_app_role_its_rights_on_every_table(app_role):
    with connection.cursor() as cursor:
        cursor.execute(f'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "{app_role.name}"')
    result = _manage("migrate", "--noinput", DATABASE_URL=app_role.url(),
                     DATABASE_OWNER_URL=app_role.url().replace(f"{app_role.name}:{app_role.password}",
                                                               connection.settings_dict["USER"]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Granted {app_role.name} its rights; append-only for it: {', '.join(APPEND_ONLY)}" in result.stdout
    rights: dict[str, set[str]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename, privilege, has_table_privilege(%s, quote_ident(tablename), privilege) "
            "FROM pg_tables, unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER']) AS privilege "
            "WHERE schemaname = 'public'", [app_role.name])
        for table, privilege, granted in cursor.fetchall():
            rights.setdefault(table, set()).update([privilege] if granted else [])
    ordinary = {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert {t for t, r in rights.items() if r == {"SELECT", "INSERT"}} == set(APPEND_ONLY)
    assert all(r == ordinary for t, r in rights.items() if t not in APPEND_ONLY)
    assert {"tables_table", "django_session", "casino_playerlink", "axes_accessattempt"} <= set(rights)


def test_the_grants_refuse_an_app_role_that_owns_a_table(app_role):
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE owned_by_the_app (id int)")
        cursor.execute(f'ALTER TABLE owned_by_the_app OWNER TO "{app_role.name}"')
        try:
            with pytest.raises(ImproperlyConfigured, match="owns owned_by_the_app: it could drop the append-only"):
                grant_app_role(app_role.name, using="default")
        finally:
            cursor.execute("DROP TABLE owned_by_the_app")


def test_the_grants_refuse_an_app_role_that_is_a_member_of_the_owners(app_role):
    with connection.cursor() as cursor:
        owner = connection.settings_dict["USER"]
        cursor.execute(f'GRANT "{owner}" TO "{app_role.name}"')
        try:
            with pytest.raises(ImproperlyConfigured, match="a member of the owner's role"):
                grant_app_role(app_role.name, using="default")
        finally:
            cursor.execute(f'REVOKE "{owner}" FROM "{app_role.name}"')


def test_grant_app_role_is_a_command_too(app_role, capsys):
    from django.core.management import CommandError, call_command

    call_command("grant_app_role", role=app_role.name, database="default")
    assert f"Granted {app_role.name} its rights; append-only for it: {', '.join(APPEND_ONLY)}." in (
        capsys.readouterr().out)
    with pytest.raises(CommandError, match="Set DATABASE_OWNER_URL"):
        call_command("grant_app_role", database="default")
