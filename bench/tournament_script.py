"""What a simulated dealer taps at a tournament table, for bench_tournament_tables (issue #15).

Each tap is one POST to the tablet's view (``/tournaments/<event>/tables/<n>/deal/<action>/``), as the
tablet sends it: the table's version, a fresh idempotency key, htmx's header. The answer is the tablet's
fresh fragment, whose ``data-version`` this tap produced and whose buttons say what the next tap is: a new
hand; in the betting, a check where it may, otherwise a call or a fold; the board's cards; each hand shown at
the showdown; the award. About 20 taps a hand at a full table.

By default nobody goes all-in: nobody busts, the tables stay as drawn and every tap is a hand's. With
``all_in`` (the chance that a player in turn who may go all-in does), players bust: their hands' ends go
into the event, which ranks them and proposes the balancing the floor confirms (``bench_tournament_tables
--busts``). Meanwhile a table the plan touches waits: its dealer's "New hand" is refused (TDA-11, or CC-59
while it is halted) and tapped again at the dealer's pace, as a dealer would; those refusals are counted, not
errors. A table the plan breaks is no longer in play (its tablet answers 404): its dealer stops.
"""

from __future__ import annotations

import random
import re
import time
import uuid

FRAGMENT_VERSION = re.compile(r'id="deal-table"[^>]*data-version="(\d+)"')
TABLE_VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="seat" value="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_META = re.compile(r'"X-CSRFToken": "([^"]+)"')
ID_TYPE = "passport"  # the bench's players' documents
BOARD = {"flop": "2c 3d 4h", "turn": "9s", "river": "Tc"}
#: Two cards for each seat at the showdown, none of them on the board.
HOLES = {seat: f"{rank}s {rank}h" for seat, rank in zip(range(1, 9), "AKQJ8765", strict=True)}
HOLES.update({9: "9d 9c", 10: "Kd Qd"})


def running_event(director, *, name: str, players: int, document, start: bool = True):
    """An event of nine a table created by ``director`` through the services, as the console does: its
    registration opened, ``players`` registered (``document(n)``: the n-th one's ID number) and, if
    ``start``, drawn and its clock running."""
    from datetime import date

    from django.utils import timezone

    from tournaments import services

    tournament, _ = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name=name, starts_at=timezone.now(), buy_in=100,
        starting_stack=10_000, seats_per_table=9)

    def act(fn, **kwargs):
        tournament.refresh_from_db()
        return fn(tournament=tournament, by=director, key=uuid.uuid4().hex, expected_version=tournament.version,
                  **kwargs)

    act(services.open_registration)
    for n in range(1, players + 1):
        act(services.register, name=f"Player {n}", id_type=ID_TYPE, id_number=document(n),
            birth_date=date(1980, 1, 1 + n % 28))
    if start:
        act(services.start_tournament)
        act(services.clock_command, kind="start")
    tournament.refresh_from_db()
    return tournament


class TabletScript:
    def __init__(self, event: int, rng: random.Random, all_in: float = 0.0) -> None:
        self.event, self.rng, self.all_in = event, rng, all_in
        self.pages: dict[int, str] = {}  # table number -> the tablet's last fragment
        self.csrf: dict[int, str] = {}
        self.refused = 0  # taps refused while the table waits for the floor (with all_in only)
        self.broken: set[int] = set()  # tables broken by the floor's plans (with all_in only)
        self.kinds: dict[tuple[int, int], str] = {}  # (table, version it made) -> the tap's action
        self.answered: dict[str, list[tuple[float, float]]] = {}  # action -> (sent, seconds to its answer)

    def socket_path(self, table: int) -> str:
        return f"/ws/tournaments/{self.event}/tables/{table}/deal/"

    def login(self, dealer) -> None:
        status, page = dealer.request(dealer.base_urls[0], "/login/")
        token = TOKEN.search(page).group(1)
        data = {"username": dealer.username, "password": "bench-pass-2026", "csrfmiddlewaretoken": token}
        status, page = dealer.request(dealer.base_urls[0], "/login/", data)
        if status != 302:
            raise RuntimeError(f"{dealer.username} could not log in: HTTP {status} {page[:200]!r}")
        status, page = dealer.request(dealer.base_urls[0], f"/tournaments/{self.event}/tables/{dealer.table_id}/deal/")
        if status != 200:
            raise RuntimeError(f"{dealer.username} could not open the tablet: HTTP {status}")
        self.csrf[dealer.table_id] = CSRF_META.search(page).group(1)
        self.pages[dealer.table_id] = page

    def next_tap(self, page: str) -> tuple[str, dict]:
        """What the tablet asks for now, read off its buttons."""
        if 'data-action="new-hand"' in page:
            return "new-hand", {}
        # the seat the step asks for (the seats' table above it has a seat field per row: dead hands, TDA-30)
        seat = SEAT.search(page, max(0, page.find('data-step="')))
        if 'data-step="betting"' in page:
            if self.all_in and 'data-action="all-in"' in page and self.rng.random() < self.all_in:
                return "all-in", {"seat": seat.group(1)}
            if 'data-action="check"' in page:
                return "check", {"seat": seat.group(1)}
            return ("call" if self.rng.random() < 0.35 else "fold"), {"seat": seat.group(1)}
        if 'data-step="board"' in page:
            street = re.search(r"/deal/(flop|turn|river)/", page).group(1)
            return street, {"cards": BOARD[street]}
        if 'data-step="showdown"' in page:
            return "show", {"seat": seat.group(1), "cards": HOLES[int(seat.group(1))]}
        if 'data-step="award"' in page:
            return "award-pots", {}
        return "new-hand", {}

    def act(self, dealer, base: str, started: float) -> int | None:
        table = dealer.table_id
        page = self.pages[table]
        action, fields = self.next_tap(page)
        version = TABLE_VERSION.search(page)
        data = {**fields, "version": version.group(1) if version else 0, "key": uuid.uuid4().hex}
        sent = time.time()
        status, answer = dealer.request(
            base, f"/tournaments/{self.event}/tables/{table}/deal/{action}/", data,
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf[table]})
        self.answered.setdefault(action, []).append((sent, time.time() - sent))
        match = FRAGMENT_VERSION.search(answer)
        if self.all_in and status == 404:  # the floor's plan broke this table: its dealer's work is done
            self.broken.add(table)
            dealer.finished = True
            return None
        self.pages[table] = answer
        if status == 200 and match:
            self.kinds[table, int(match.group(1))] = action
            return int(match.group(1))
        if self.all_in and status == 422 and action == "new-hand":
            self.refused += 1  # the table waits for the floor's moves (TDA-11) or its balancing (CC-59)
            return None
        if status != 409:
            dealer.errors.append(f"{action}: HTTP {status} {re.sub(r'<[^>]+>', ' ', answer)[:160]!r}")
        return None
