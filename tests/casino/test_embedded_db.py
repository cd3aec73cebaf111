"""The embedded PostgreSQL (casino.embedded_db): what `make run` and `make test` use on a fresh machine
when DATABASE_URL is unset. Started in a directory of its own here, as in a fresh checkout's var/."""

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from casino import embedded_db


@pytest.fixture
def fresh_var():
    # Not under pytest's tmp_path: as root the server runs as its own user, who must reach the directory, and
    # pytest makes its base directory private again whenever a run starts.
    top = Path(tempfile.mkdtemp(prefix="casino-embedded-db-"))
    yield top / "var"
    embedded_db.stop(top / "var")
    shutil.rmtree(top, ignore_errors=True)


def test_a_fresh_machine_gets_a_postgresql_of_its_own_in_var_with_the_casino_database(fresh_var):
    db = embedded_db.database(fresh_var)
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert db["HOST"] == str((fresh_var / "postgres").resolve())  # a unix socket: no port to collide with
    with psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"]) as conn:
        version, superuser = conn.execute("SELECT current_setting('server_version_num')::int, "
                                          "current_setting('is_superuser')").fetchone()
    assert version >= 160000 and superuser == "on"  # the suite's flush deletes rows as a superuser


def test_the_next_process_finds_the_running_server_instead_of_starting_another(fresh_var):
    first = embedded_db.database(fresh_var)
    pid = (fresh_var / "postgres" / "postmaster.pid").read_text().split()[0]
    assert embedded_db.database(fresh_var) == first
    assert (fresh_var / "postgres" / "postmaster.pid").read_text().split()[0] == pid


def test_stop_db_stops_it_and_the_next_need_starts_it_again(fresh_var):
    db = embedded_db.database(fresh_var)
    assert embedded_db.stop(fresh_var) is True
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], connect_timeout=2)
    assert embedded_db.stop(fresh_var) is False
    assert embedded_db.database(fresh_var) == db
