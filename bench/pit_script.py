"""What a simulated dealer taps, for bench_pit_load: a dealt-mode hand, one tap a second.

Each step is one POST to the tablet's view (``/tables/<id>/act/<action>/``), exactly as the tablet
sends it: the version the screen showed, a fresh idempotency key, htmx's header. The answer is the
dealer's fresh fragment, whose ``data-version`` is the version this tap produced.
"""

from __future__ import annotations

import re
import uuid

FRAGMENT_VERSION = re.compile(r'id="dealer-table"[^>]*data-version="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_META = re.compile(r'"X-CSRFToken": "([^"]+)"')

# One hand in dealt mode: three boxes bet, one folds on the flop, reveal from box 7 down (THB-15).
HAND = [
    ("start-hand", {"mode": "dealt"}),
    ("bet", {"box": 1, "spot": "ante", "amount": 10}),
    ("bet", {"box": 2, "spot": "ante", "amount": 10}),
    ("bet", {"box": 3, "spot": "ante", "amount": 10}),
    ("close-bets", {}),
    ("deal", {}),
    ("decide", {"street": "flop", "choice": "bet", "box": 1, "amount": 20}),
    ("decide", {"street": "flop", "choice": "bet", "box": 2, "amount": 20}),
    ("decide", {"street": "flop", "choice": "fold", "box": 3}),
    ("street", {"street": "flop"}),
    ("decide", {"street": "turn", "choice": "check", "box": 1}),
    ("decide", {"street": "turn", "choice": "bet", "box": 2, "amount": 10}),
    ("street", {"street": "turn"}),
    ("decide", {"street": "river", "choice": "check", "box": 1}),
    ("decide", {"street": "river", "choice": "check", "box": 2}),
    ("street", {"street": "river"}),
    ("dealer-cards", {}),
    ("box-cards", {"box": 2}),
    ("box-cards", {"box": 1}),
]


class DealerScript:
    def __init__(self):
        self.versions: dict[int, int] = {}
        self.steps: dict[int, int] = {}
        self.csrf: dict[int, str] = {}

    def open_table(self, table, dealer, boss) -> None:
        """Through the services (before the load starts): the dealer asks, the pit boss checks the deck."""
        from tables import sessions

        sessions.request_opening(table=table, by=dealer, key=str(uuid.uuid4()), expected_version=table.version)
        table.refresh_from_db()
        sessions.confirm_deck_check(table=table, by=boss, key=str(uuid.uuid4()), expected_version=table.version)
        table.refresh_from_db()
        self.versions[table.pk] = table.version
        self.steps[table.pk] = 0

    def socket_path(self, table_id: int) -> str:
        return "/ws/player/"  # the phone's session names its box

    def login(self, dealer, tablet: str | None = None) -> None:
        status, page = dealer.request(dealer.base_urls[0], "/login/")
        token = TOKEN.search(page).group(1)
        data = {"username": dealer.username, "password": "bench-pass-2026", "csrfmiddlewaretoken": token}
        status, page = dealer.request(dealer.base_urls[0], "/login/", data)
        if status != 302:  # a successful login redirects; anything else says why it did not
            raise RuntimeError(f"{dealer.username} could not log in: HTTP {status} {page[:200]!r}")
        status, page = dealer.request(dealer.base_urls[0], tablet or f"/tables/{dealer.table_id}/")
        if status != 200:
            raise RuntimeError(f"{dealer.username} could not open the tablet: HTTP {status}")
        self.csrf[dealer.table_id] = CSRF_META.search(page).group(1)

    def act(self, dealer, base: str, started: float) -> int | None:
        table_id = dealer.table_id
        action, fields = HAND[self.steps[table_id] % len(HAND)]
        data = {**fields, "version": self.versions[table_id], "key": str(uuid.uuid4())}
        status, page = dealer.request(
            base,
            f"/tables/{table_id}/act/{action}/",
            data,
            headers={
                "HX-Request": "true",
                "X-CSRFToken": self.csrf[table_id],
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        match = FRAGMENT_VERSION.search(page)
        if match:
            self.versions[table_id] = int(match.group(1))
        if status == 200:
            self.steps[table_id] += 1
            return self.versions[table_id]
        if status != 409:  # 409: another screen moved the table; the fragment gave us the new version
            dealer.errors.append(f"{action}: HTTP {status}")
            self.steps[table_id] += 1
        return None
