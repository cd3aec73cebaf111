"""What a simulated dealer taps at a tournament table, for bench_tournament_tables (issue #15).

Each tap is one POST to the tablet's view (``/tournaments/<event>/tables/<n>/deal/<action>/``), as the
tablet sends it: the table's version, a fresh idempotency key, htmx's header. The answer is the tablet's
fresh fragment, whose ``data-version`` this tap produced and whose buttons say what the next tap is: a new
hand; in the betting, a check where it may, otherwise a call or a fold (no all-in: nobody busts, so the
tables stay as drawn and every tap is a hand's); the board's cards; each hand shown at the showdown; the
award. About 20 taps a hand at a full table.
"""

from __future__ import annotations

import random
import re
import uuid

FRAGMENT_VERSION = re.compile(r'id="deal-table"[^>]*data-version="(\d+)"')
TABLE_VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="seat" value="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_META = re.compile(r'"X-CSRFToken": "([^"]+)"')
BOARD = {"flop": "2c 3d 4h", "turn": "9s", "river": "Tc"}
#: Two cards for each seat at the showdown, none of them on the board.
HOLES = {seat: f"{rank}s {rank}h" for seat, rank in zip(range(1, 9), "AKQJ8765", strict=True)}
HOLES.update({9: "9d 9c", 10: "Kd Qd"})


class TabletScript:
    def __init__(self, event: int, rng: random.Random) -> None:
        self.event, self.rng = event, rng
        self.pages: dict[int, str] = {}  # table number -> the tablet's last fragment
        self.csrf: dict[int, str] = {}

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
        status, answer = dealer.request(
            base, f"/tournaments/{self.event}/tables/{table}/deal/{action}/", data,
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf[table]})
        self.pages[table] = answer
        match = FRAGMENT_VERSION.search(answer)
        if status == 200 and match:
            return int(match.group(1))
        if status != 409:
            dealer.errors.append(f"{action}: HTTP {status} {re.sub(r'<[^>]+>', ' ', answer)[:160]!r}")
        return None
