"""Fault drill at a tournament: kill a daphne process, Redis, PostgreSQL and its connections while the
dealers of a running event tap at their tables (issue #34).

    .venv/bin/python bench/fault_drill_tournament.py            # a table of figures per fault
    .venv/bin/python bench/fault_drill_tournament.py --json     # the same, machine-readable

``bench/fault_drill.py``'s drill (its own PostgreSQL and Redis, two daphne processes with ``DEBUG=0``, the
browsers' reconnection, the arrivals and the health probe, each fault's figures) with a tournament in place
of the pit: an event of ``--tables`` tables of nine is registered, drawn and its clock started, a dealer is
put on duty at each table and taps its hands through the tablet (``bench/tournament_script``: a new hand,
checks, calls and folds, the board, the showdown, the award), one tap a second, each under its idempotency
key and sent again under the SAME key after a 5xx or no answer until it is answered. Half the dealers
alternate between the processes, half are pinned to one. Each table's tablet, a phone per table and two
clock displays stay connected over both processes and reconnect as the browser does; the recovery is timed
on the tablets (every tap moves their version), the phones and displays must be connected at the end. The
director logs in or a player opens their link every other second.

The faults, in order (``--faults``): ``daphne`` (SIGKILL of one process), ``redis`` (down ``--redis-seconds``,
10 by default), ``postgres`` (the postmaster and its backends killed) and ``pgconns`` (every connection of
the casino's database terminated by ``pg_terminate_backend``, the server staying up). At the end it reads
PostgreSQL's own rows: every tap answered 2xx must be recorded once under its key with the version its
answer showed, no key twice, no version made by no request (``lost`` and ``applied twice``: both 0), and
the event's record replayed must hold all the chips the players bought (``chips conserved``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import fault_drill  # noqa: E402
from bench.fault_drill import (  # noqa: E402
    Drill,
    RetryingDealer,
    Screen,
    Tap,
)

PASSWORD = "bench-pass-2026"  # noqa: S105 - the drill's own throwaway users, in its own database
EVENT_SCREENS = 0  # the key of the phones' and clock displays' version: the event's, not a table's
FAULTS = ("daphne", "redis", "postgres", "pgconns")


class TournamentDealer(RetryingDealer):
    """A dealer at a tournament table whose taps survive a fault: what the tablet asks for next (read off
    its last answer), sent again under the same key after a 5xx or no answer."""

    def tap(self) -> Tap:
        from bench.tournament_script import TABLE_VERSION

        script, number = self.script, self.table_id
        page = script.pages[number]
        action, fields = script.next_tap(page)
        shown = TABLE_VERSION.search(page)
        tap = Tap(number, str(uuid.uuid4()), action)
        data = {**fields, "version": shown.group(1) if shown else 0, "key": tap.key}
        headers = {"HX-Request": "true", "X-CSRFToken": script.csrf[number]}
        path = f"/tournaments/{script.event}/tables/{number}/deal/{action}/"
        self.taps.append(tap)
        answered = self.send_until_answered(tap, path, data, headers)
        if answered is not None:
            base, status, answer = answered
            made = TABLE_VERSION.search(answer) if 'id="deal-table"' in answer else None
            if made is not None:
                script.pages[number] = answer  # the table as it stands: the next tap reads it
            else:
                self.reopen(base)
            if status == 200 and made is not None:
                tap.applied_version = int(made.group(1))  # the table's version this tap made (or found made)
            else:
                tap.refused = status  # 409: the table moved; 422: the hand did: the next tap reads it afresh
        return tap

    def reopen(self, base: str) -> None:
        """The tablet's page again (after an answer that was not the table's fragment)."""
        from bench.tournament_script import CSRF_META

        with_page = self.http.request(base, f"/tournaments/{self.script.event}/tables/{self.table_id}/deal/")
        if with_page[0] == 200 and 'id="deal-table"' in with_page[1]:
            self.script.pages[self.table_id] = with_page[1]
            found = CSRF_META.search(with_page[1])
            if found:
                self.script.csrf[self.table_id] = found.group(1)

    def mid_hand(self) -> bool:
        page = self.script.pages.get(self.table_id, "")
        return 'data-action="new-hand"' not in page and 'data-step="award"' not in page


class TournamentDrill(Drill):
    """The pit's drill with a running tournament: its own servers, faults and figures, the event's tables."""

    accounting = True  # db_versions: the tables' own versions (the record) or the versions screens show

    def seed(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db import connections

        from bench.bench_tournament_tables import prepare
        from bench.tournament_script import TabletScript
        from casino import player_links
        from tournaments import services
        from tournaments.models import Entry, Tournament

        event, tables, phones, director_id = prepare(self.args.tables, self.args.tables, "drill_")
        self.event = event
        self.table_dealers = tables
        self.tables = [number for number, _dealer in tables]
        self.phone_sessions = phones
        director = get_user_model().objects.get(pk=director_id)
        director.set_password(PASSWORD)  # the arrivals log in as the director
        director.save(update_fields=["password"])
        self.boss = director.username
        entry = Entry.objects.filter(tournament_id=event).order_by("pk").first()
        self.link_token = player_links.token_for(services.issue_entry_link(entry, by=director))
        tournament = Tournament.objects.get(pk=event)
        self.starting_chips = tournament_chips(tournament)
        self.script = TabletScript(event, random.Random(34))  # noqa: S311 - a drill's choices, not a game
        connections.close_all()

    def start_dealers(self) -> None:
        self.dealers = []
        for i, (number, username) in enumerate(self.table_dealers):
            pinned = None if i % 2 == 0 else (i // 2) % 2
            self.dealers.append(TournamentDealer(number, username, self.bases, pinned, self.args.rate, self.script))
        for dealer in self.dealers:
            dealer.login()
        self.log(f"{len(self.dealers)} dealers logged in at event {self.event}")

    def screens(self) -> list[Screen]:
        found = []
        for i, dealer in enumerate(self.dealers):
            found.append(Screen("tablet", dealer.table_id, self.daphnes[(i + 1) % 2],
                                f"/ws/tournaments/{self.event}/tables/{dealer.table_id}/deal/",
                                dealer.http.cookie_header()))
        for i, session_key in enumerate(self.phone_sessions):
            found.append(Screen("phone", EVENT_SCREENS, self.daphnes[i % 2], "/ws/player/", f"sessionid={session_key}"))
        for i in range(2):
            found.append(Screen("clock", EVENT_SCREENS, self.daphnes[i], f"/ws/tournaments/{self.event}/clock/", ""))
        return found

    # ---- reading the record

    def db_versions(self) -> dict[int, int] | None:
        """Each table's version (``accounting``) or, for the screens, the version each shows when current: a
        tablet its table's and its event's summed, a phone and a clock display the event's."""
        import psycopg

        try:
            with psycopg.connect(self.postgres.url, connect_timeout=2, autocommit=True) as connection:
                rows = connection.execute(
                    "SELECT d.number, d.version, t.version FROM tournaments_dealttable d "
                    "JOIN tournaments_tournament t ON t.id = d.tournament_id WHERE t.id = %s", [self.event]
                ).fetchall()
        except psycopg.Error:
            return None
        if self.accounting:
            return {number: table for number, table, _event in rows if number in self.tables}
        versions = {number: table + event for number, table, event in rows}
        versions[EVENT_SCREENS] = rows[0][2] if rows else 0
        return versions

    def read_record(self) -> tuple[list, list]:
        import psycopg

        with psycopg.connect(self.postgres.url, connect_timeout=5, autocommit=True) as connection:
            requests = connection.execute(
                "SELECT d.number, r.key, r.table_version FROM tournaments_tablerequest r "
                "JOIN tournaments_dealttable d ON d.id = r.table_id WHERE d.tournament_id = %s", [self.event]
            ).fetchall()
        return requests, []  # a hand's action rows carry no key: the request rows and versions say it all

    def terminate_connections(self) -> None:
        """Every connection to the casino's database ends (a failover, a pooler's restart): the server stays."""
        import psycopg

        with psycopg.connect(self.postgres.url, connect_timeout=5, autocommit=True) as connection:
            ended = connection.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()[0]
        self.log(f"pgconns: {ended} connections terminated")

    async def caught_up(self, screens, since, timeout, newer_than=None):
        # Timed on the tablets, whose version moves with every tap. A phone or a clock display is pushed only
        # what changes on it (a hand's end where nobody busts changes nothing there): it is counted in the
        # closes, reconnects and handshakes, and must be connected at the end.
        return await super().caught_up([s for s in screens if s.kind == "tablet"], since, timeout, newer_than)

    async def fault(self, name, down, screens, kill, repair, ready) -> dict:
        # The pit's drill knows three faults; the fourth ends the connections only, the server staying up.
        kind = self.kinds.pop(0)
        if kind == "pgconns":
            kill, repair, ready = self.terminate_connections, (lambda: None), (lambda: None)
        return await super().fault(kind, down, screens, kill, repair, ready)

    def main(self) -> dict:
        with self.stack:
            self.start()
            self.accounting = True
            versions_before = self.db_versions()
            self.accounting = False
            self.kinds = [name for name, _down in self.args.faults]
            self.args.faults = [("postgres" if name == "pgconns" else name, down) for name, down in self.args.faults]
            asyncio.run(self.run_faults())
            shown = self.db_versions() or {}
            behind = [f"{s.kind} {s.table_id} on :{s.daphne.port} shows {s.shown} of {shown.get(s.table_id)}"
                      + ("" if s.connected else ", closed") for s in self.screens_at_end
                      if not s.connected or (s.kind == "tablet" and s.shown < shown.get(s.table_id, 0))]
            self.accounting = True
            report = self.report(versions_before)
            report["overall"].update(self.chips(), screens_behind_at_end=behind)
            return report

    def chips(self) -> dict:
        """The event's record replayed: every chip bought is still in play (nobody busts in this drill)."""
        from django.db import connections

        from tournaments.models import Tournament

        connections.close_all()  # the drill's own connection died with PostgreSQL
        now = tournament_chips(Tournament.objects.get(pk=self.event))
        return {"chips_bought": self.starting_chips[1], "chips_in_play_at_end": now[0],
                "chips_conserved": now[0] == self.starting_chips[1],
                "hands_ended": hands_ended(self.event)}


def tournament_chips(tournament) -> tuple[int, int]:
    """(chips in play, chips bought) by the event's record replayed."""
    from tournaments.reads import event as event_reads

    state = event_reads.tournament_state(tournament)
    return state.chips_in_play, len(state.entries) * state.setup.starting_stack


def hands_ended(event: int) -> int:
    from tournaments.models import TableHand

    return TableHand.objects.filter(table__tournament_id=event, ended_at__isnull=False).count()


def parse_faults(text: str, seconds: float, redis_seconds: float) -> list[tuple[str, float]]:
    """``daphne,redis,postgres:0,pgconns`` -> ``[("daphne", 5), ("redis", 10), ("postgres", 0), ("pgconns", 0)]``."""
    return fault_drill.parse_faults(text, seconds, FAULTS, {"redis": redis_seconds, "pgconns": 0.0})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--rate", type=float, default=1.0, help="taps per second per table")
    parser.add_argument("--faults", default="daphne,redis,postgres,pgconns",
                        help="which to kill, in order, each NAME or NAME:SECONDS dead")
    parser.add_argument("--fault-seconds", type=float, default=5, help="how long a daphne or PostgreSQL stays dead")
    parser.add_argument("--redis-seconds", type=float, default=10, help="how long Redis stays dead")
    fault_drill.drill_options(parser)
    args = parser.parse_args()
    try:
        args.faults = parse_faults(args.faults, args.fault_seconds, args.redis_seconds)
    except ValueError as bad:
        parser.error(str(bad))
    args.phones_per_table = 1
    report = fault_drill.run_drill(TournamentDrill(args))
    if not args.json:
        overall = report["overall"]
        print(f"summary: taps sent {overall['taps']}, acknowledged {overall['answered_2xx']}, retried "
              f"{overall['retried']}, lost {overall['lost']}, applied twice {overall['applied_twice']}, "
              f"unanswered {overall['unanswered']}; hands ended {overall['hands_ended']}; chips "
              f"{overall['chips_in_play_at_end']} of {overall['chips_bought']} "
              f"({'conserved' if overall['chips_conserved'] else 'NOT CONSERVED'})")


if __name__ == "__main__":
    main()
