"""Every POST of the tablet and the console, with input no screen sends: never an HTTP 500 (issue #12).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/fuzz_posts.py --cases 200 --servers 2 --seed 12

On loopback: it starts daphne processes with DEBUG=0 on PostgreSQL and Redis, logs in as each staff role
(dealer, pit boss, games director, administrator, tournament director) and sends, alternating between
the processes, every POST of ``tables/urls.py`` (each tablet action, each console decision, a box's QR
link, revoking one) and the login, logout, language and player-link requests, each built from the form
the screen sends and then broken one way: NUL bytes in values, names, the key and the address; huge,
negative, fractional and non-Latin numbers; unicode, very long strings, invalid UTF-8; missing and
repeated fields; stale, negative and huge versions; empty, reused, foreign and over-long idempotency
keys; other tables, other roles, no CSRF token, the wrong content type, too many fields, too big a
body. Valid taps in between move the table through its phases, so the broken ones meet every state.

It counts the answers by status, scans the servers' logs for tracebacks and "Internal Server Error",
prints both and exits 1 if any request got a 500 or any traceback was logged. The seed makes a run
repeatable. tests/bench/test_fuzz_posts.py runs a few dozen cases per route of it in the suite.

It creates its own people and tables (a fresh prefix each run) in the database named by DATABASE_URL:
use a bench database, not the casino's.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "fuzz-pass-2026"  # noqa: S105 - the bench's own throwaway users
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_META = re.compile(r'"X-CSRFToken": "([^"]+)"')
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|Internal Server Error")

# --- What the screens send (the valid form of each POST) ------------------------------------------------

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]

DEALER_FORMS = {
    "open": {},
    "close-table": {},
    "start-hand": {"mode": ["recorded", "dealt"]},
    "repeat": {},
    "undo": {"reason": ["wrong-box", "wrong-amount", "wrong-card", "wrong-decision", "player-changed", ""],
             "detail": ["", "50 en vez de 5"]},
    "irregularity": {"kind": ["dealer-card-exposed", "face-up-card", "face-up-cards", "box-wrong-count",
                              "dealer-wrong-count"],
                     "count": ["2", "3"], "box": ["1", "2"], "cards_dealt": ["1", "3"], "correctable": ["1", ""]},
    "deck-count": {"cards": ["52", "50"], "note": ["", "faltan dos"]},
    "suspect-cards": {"note": ["la dama de picas tiene una marca"]},
    "bet": {"box": ["1", "2", "3", "7"], "spot": ["ante", "bonus"], "amount": ["5", "10", "25", "100"]},
    "withdraw": {"box": ["1", "2"]},
    "close-bets": {},
    "deal": {},
    "decide": {"street": ["flop", "turn", "river"], "choice": ["bet", "fold", "check"], "box": ["1", "2", "3"],
               "amount": ["10", "20"]},
    "street": {"street": ["flop", "turn", "river"], "cards": "cards"},
    "dealer-cards": {"cards": "cards"},
    "box-cards": {"box": ["1", "2", "3"], "cards": "cards"},
}
CONSOLE_FORMS = {
    "deck-check": {"approve": ["1", "0"]},
    "closing": {"approve": ["1", "0"]},
    "award": {"hand": "hand", "box": ["1", "2"], "approve": ["1", "0"], "reason": ["", "revisado"]},
    "alert": {"alert": "alert"},
}

# A dealt-mode hand, tap by tap: played in part between the broken requests so that they meet the table
# in each phase (bets open, cards dealt, decisions, settlement).
HAND = [
    ("start-hand", {"mode": "dealt"}),
    ("bet", {"box": "1", "spot": "ante", "amount": "10"}),
    ("bet", {"box": "1", "spot": "bonus", "amount": "5"}),
    ("bet", {"box": "2", "spot": "ante", "amount": "10"}),
    ("close-bets", {}),
    ("deal", {}),
    ("decide", {"street": "flop", "choice": "bet", "box": "1", "amount": "20"}),
    ("decide", {"street": "flop", "choice": "fold", "box": "2"}),
    ("street", {"street": "flop"}),
    ("decide", {"street": "turn", "choice": "check", "box": "1"}),
    ("street", {"street": "turn"}),
    ("decide", {"street": "river", "choice": "check", "box": "1"}),
    ("street", {"street": "river"}),
    ("dealer-cards", {}),
    ("box-cards", {"box": "1"}),
]

# --- What no screen sends ------------------------------------------------------------------------------

NUL = ["\x00", "a\x00b", "10\x00", "\x00" * 50]
NUMBERS = ["-1", "0", "-999999999999", "99999999999999999999999999999", str(2**63), str(2**63 - 1), "1e9",
           "1.5", "0x10", " 7 ", "NaN", "inf", "-0", "+5", "٣", "²", "1_000", "", " "]
TEXTS = ["ñandú", "🂡🃑🂱", "\u202egnp.exe", "a" * 10_000, "é" * 60_000, "<script>alert(1)</script>",
         "' OR 1=1 --", "%s %(x)s {0} %d", "\r\nSet-Cookie: x=1", "\u0301\u0301\u0301", "\ufeff", "null", "[]",
         "{}", "true", "../../etc/passwd"]
WEIRD = NUL + NUMBERS + TEXTS
# Percent-escapes that do not decode as UTF-8 (a lone surrogate, a stray continuation byte, 0xFF).
INVALID_UTF8 = ["%ED%A0%80", "%80", "%FF%FE", "abc%C3"]
KEYS = ["", " ", "k" * 101, "k" * 100, "a\x00b", "\x00", "🂡" * 40, "🂡" * 101, "\t\n", "é" * 100]
VERSIONS = ["", "-1", "0", "1.0", "v", "99999999999999999999999999", str(2**62), str(2**62 + 1), str(2**63),
            "٣", "1\x00", " "]


@dataclass
class Answer:
    status: int
    text: str
    location: str = ""


class Browser:
    """One person's browser on the servers: cookies kept, a kept-alive connection per server."""

    def __init__(self, bases: list[str]):
        self.bases = bases
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self._connections: dict[str, http.client.HTTPConnection] = {}

    def _connection(self, base: str) -> http.client.HTTPConnection:
        if base not in self._connections:
            parts = urllib.parse.urlsplit(base)
            self._connections[base] = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        return self._connections[base]

    def request(self, method: str, path: str, body: bytes | None = None, *, base: str | None = None,
                headers: dict | None = None) -> Answer:
        base = base or self.bases[0]
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        for attempt in range(2):
            connection = self._connection(base)
            try:
                connection.request(method, path, body=body, headers=sent)
                response = connection.getresponse()
                text = response.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                connection.close()
                self._connections.pop(base, None)
                if attempt:
                    raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return Answer(response.status, text, response.getheader("Location") or "")

    def read_token(self, path: str = "/login/") -> None:
        answer = self.request("GET", path)
        for _ in range(3):  # "/" sends each role to its own screen
            if answer.status != 302:
                break
            answer = self.request("GET", urllib.parse.urlsplit(answer.location).path)
        found = TOKEN.search(answer.text) or CSRF_META.search(answer.text)
        if found:
            self.csrf = found.group(1)

    def login(self, username: str, password: str = PASSWORD) -> None:
        self.read_token("/login/")
        answer = self.request("POST", "/login/", _encode([("username", username), ("password", password),
                                                          ("csrfmiddlewaretoken", self.csrf)]))
        if answer.status != 302:
            raise RuntimeError(f"{username} could not log in: HTTP {answer.status}")
        self.read_token("/")  # the token rotates at login; every staff page carries it

    def close(self) -> None:
        for connection in self._connections.values():
            connection.close()


def _encode(fields: list[tuple[str, str]]) -> bytes:
    return urllib.parse.urlencode(fields, doseq=False).encode()


# --- The casino the fuzzer plays at ----------------------------------------------------------------------


@dataclass
class World:
    """The tables and people, and the database's answers the forms need (versions, hands, alerts)."""

    table_id: int
    other_table_id: int  # another pit's table: every staff member but a director is refused there
    people: dict[str, str]  # role -> username
    links: list[str] = field(default_factory=list)

    def version(self, table_id: int) -> int:
        from tables.models import Table

        return Table.objects.filter(pk=table_id).values_list("version", flat=True).first() or 0

    def latest(self, what: str) -> str:
        from tables.models import Alert, Hand

        model = Hand if what == "hand" else Alert
        pk = model.objects.filter(table_id=self.table_id).order_by("-pk").values_list("pk", flat=True).first()
        return str(pk or 1)


def make_world(prefix: str) -> World:
    """Two pits with a table each; a person of each staff role (the pit boss runs the first pit)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino.roles import Role, ensure_role_groups
    from tables.models import Pit, Table

    ensure_role_groups()
    users = {}
    for role in (Role.DEALER, Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR, Role.TOURNAMENT_DIRECTOR):
        user = get_user_model().objects.create_user(f"{prefix}{role}", password=PASSWORD)
        user.groups.add(Group.objects.get(name=role))
        users[str(role)] = user
    other_boss = get_user_model().objects.create_user(f"{prefix}other_boss", password=PASSWORD)
    other_boss.groups.add(Group.objects.get(name=Role.PIT_BOSS))
    pit = Pit.objects.create(name=f"{prefix}pit", pit_boss=users[Role.PIT_BOSS])
    other_pit = Pit.objects.create(name=f"{prefix}other", pit_boss=other_boss)
    table = Table.objects.create(pit=pit, name=f"{prefix}T", min_ante=5, max_ante=100, dealer=users[Role.DEALER])
    other = Table.objects.create(pit=other_pit, name=f"{prefix}U", min_ante=5, max_ante=100)
    table.ensure_boxes()
    other.ensure_boxes()
    return World(table.pk, other.pk, {role: user.username for role, user in users.items()})


# --- The fuzzer -------------------------------------------------------------------------------------------


@dataclass
class Route:
    name: str  # what the report calls it
    roles: tuple[str, ...]  # who sends it on the floor (the others are tried too, less often)
    form: dict
    url: str  # with {table} and {action} / {box} / {link}
    action: str = ""
    writes: bool = False  # a table write: carries version and key
    only_its_roles: bool = False  # logging out is only tried by a visitor: the staff stay logged in


def routes() -> list[Route]:
    found = [Route(f"tablet {action}", ("dealer",), form, "/tables/{table}/act/{action}/", action, True)
             for action, form in DEALER_FORMS.items()]
    found += [Route(f"console {action}", ("pit_boss", "games_director", "administrator"), form,
                    "/tables/{table}/pit/{action}/", action, True) for action, form in CONSOLE_FORMS.items()]
    found += [
        Route("box link", ("dealer", "pit_boss"), {}, "/tables/{table}/boxes/{box}/link"),
        Route("revoke link", ("dealer", "pit_boss"), {}, "/tables/links/{link}/revoke"),
        Route("login", ("anonymous",), {"username": ["dana", "nobody"], "password": ["wrong"]}, "/login/"),
        Route("language", ("anonymous", "dealer"), {"language": ["es", "en"], "next": ["/login/", "/tables/"]},
              "/i18n/setlang/"),
        Route("player link", ("anonymous",), {}, "/p/{token}/"),
        Route("logout", ("anonymous",), {}, "/logout/", only_its_roles=True),
        Route("unlock a login", ("games_director", "administrator"),
              {"username": ["dana", "nobody"], "ip_address": ["127.0.0.1", "10.0.0.1"], "reason": ["shift"]},
              "/staff/lockouts/unlock"),
    ]
    return found


def route_names() -> list[str]:
    return [route.name for route in routes()]


class Fuzzer:
    """The pit's routes broken one way each, between a dealt hand's valid taps. ``bench/fuzz_tournament.py``'s
    Fuzzer is this one with a tournament's routes, world and values: what it changes is below the hooks
    ``weird``, ``extra_names``, ``field_weird``, ``_valid_value``, ``form_version`` and ``odd_versions``."""

    weird = WEIRD  # what replaces a field's value
    extra_names = ["\x00", "box\x00", "é" * 50, "x" * 5000, "csrfmiddlewaretoken", "key", "version", "cards",
                   "_method", "amount[]"]  # a field no form has, or one it has already
    field_weird: dict[str, list[str]] = {}  # what no screen sends in a field of that name, beyond ``weird``

    def __init__(self, bases: list[str], world: World, seed: int):
        self.bases = bases
        self.world = world
        self.random = random.Random(seed)
        self.browsers: dict[str, Browser] = {}
        self.statuses: Counter = Counter()
        self.by_route: dict[str, Counter] = defaultdict(Counter)
        self.failures: list[str] = []  # every 500, with what was sent
        self.used_keys: list[tuple[str, str]] = []  # (role, key) of valid taps, replayed by others
        self.hand_step = 0

    # ---- people

    def log_in_everyone(self) -> None:
        self.browsers["anonymous"] = Browser(self.bases)
        self.browsers["anonymous"].read_token("/login/")
        for role, username in self.world.people.items():
            browser = Browser(self.bases)
            browser.login(username)
            self.browsers[role] = browser

    # ---- one request

    def send(self, route: Route, role: str, method: str, path: str, body: bytes | None, note: str,
             headers: dict | None = None) -> Answer:
        browser = self.browsers[role]
        sent_headers = {"HX-Request": "true", **(headers or {})}
        try:
            answer = browser.request(method, path, body, base=self.random.choice(self.bases), headers=sent_headers)
        except (http.client.HTTPException, OSError) as error:
            answer = Answer(0, str(error))
        self.statuses[answer.status] += 1
        self.by_route[route.name][answer.status] += 1
        if answer.status >= 500 or answer.status == 0:
            self.failures.append(f"{answer.status} {route.name} as {role}: {method} {path[:160]!r} {note[:80]} "
                                 f"{(body or b'')[:300]!r}")
        return answer

    # ---- building forms

    def _valid_value(self, spec, table_id: int) -> list[str]:
        if spec == "cards":
            return self.random.sample(CARDS, self.random.choice([1, 2, 3]))
        if spec in ("hand", "alert"):
            return [self.world.latest(spec)]
        return [self.random.choice(spec)]

    def valid_fields(self, route: Route, role: str, table_id: int) -> list[tuple[str, str]]:
        fields = [(name, value) for name, spec in route.form.items() for value in self._valid_value(spec, table_id)]
        if route.writes:
            key = uuid.uuid4().hex
            fields += [("version", str(self.form_version(route, table_id))), ("key", key)]
            self.used_keys.append((role, key))
        return fields

    def form_version(self, route: Route, table_id: int) -> int:
        """The version the screen's form carries: the table's."""
        return self.world.version(table_id)

    def odd_versions(self) -> list[str]:
        """What no screen sends as a version, and the ones either side of the current."""
        current = self.world.version(self.world.table_id)
        return [*VERSIONS, str(current - 1), str(current + 1)]

    def break_fields(self, route: Route, role: str, fields: list[tuple[str, str]]) -> tuple[list, str]:
        """One way of breaking the form; returns the fields and what was done."""
        names = [name for name, _ in fields]
        way = self.random.choice(["value", "value", "value", "nul", "drop", "extra", "repeat", "key", "version",
                                  "version", "invalid-utf8"])
        if way == "key" and route.writes:
            mode = self.random.choice(["weird", "weird", "reused", "foreign"])
            mine = [k for r, k in self.used_keys if (r == role) == (mode == "reused")]
            key = self.random.choice(mine) if mode != "weird" and mine else self.random.choice(KEYS)
            return [(n, key if n == "key" else v) for n, v in fields], f"key={mode}:{key[:20]!r}"
        if way == "version" and route.writes:
            version = self.random.choice(self.odd_versions())
            return [(n, version if n == "version" else v) for n, v in fields], f"version={version[:30]!r}"
        if way == "drop" and fields:
            gone = self.random.choice(names)
            return [(n, v) for n, v in fields if n != gone], f"without {gone}"
        if way == "extra":
            name = self.random.choice(self.extra_names)
            return [*fields, (name, self.random.choice(self.weird))], f"extra {name[:20]!r}"
        if way == "repeat" and fields:
            name = self.random.choice(names)
            return [*fields, (name, self.random.choice(self.weird))], f"repeated {name}"
        if way == "invalid-utf8" and fields:
            name = self.random.choice(names)
            return [(n, v) for n, v in fields if n != name] + [(name, "\x01RAW\x01")], f"invalid utf-8 in {name}"
        if not fields:
            return [("x", self.random.choice(self.weird))], "a field nobody asked for"
        name = self.random.choice(names)
        if way == "value" and name in self.field_weird and self.random.random() < 0.5:
            value = self.random.choice(self.field_weird[name])
            return [(n, value if n == name else v) for n, v in fields], f"{name}={value[:20]!r}"
        value = self.random.choice(NUL if way == "nul" else self.weird)
        return [(n, value if n == name else v) for n, v in fields], f"{name}={value[:20]!r}"

    def body(self, fields: list[tuple[str, str]], role: str, *, token: bool = True) -> bytes:
        if token:
            fields = [*fields, ("csrfmiddlewaretoken", self.browsers[role].csrf)]
        encoded = _encode(fields)
        if b"%01RAW%01" in encoded:  # the placeholder for bytes urlencode cannot make
            encoded = encoded.replace(b"%01RAW%01", self.random.choice(INVALID_UTF8).encode())
        return encoded

    # ---- the address

    def path(self, route: Route, table_id: int) -> tuple[str, str]:
        values = {"table": table_id, "action": route.action, "box": self.random.choice([1, 3, 7]),
                  "link": self.random.choice(self.world.links) if self.world.links else uuid.uuid4(),
                  "token": "x"}
        note = ""
        roll = self.random.random()
        if route.name == "player link":
            values["token"] = self.random.choice(["abc", "a%00b", "%00", "é" * 30, "x" * 3000, "..%2F..",
                                                  "%ED%A0%80", urllib.parse.quote("🂡" * 10)])
            note = "token"
        elif roll < 0.08 and "{table}" in route.url:
            values["table"] = self.random.choice([self.world.other_table_id, 0, 999_999,
                                                  "99999999999999999999999", str(2**63)])
            note = f"table {values['table']}"
        elif roll < 0.12 and route.action:
            values["action"] = self.random.choice(["shuffle-up", "act", "x" * 200, "%00", "open%00"])
            note = f"action {values['action'][:20]}"
        elif roll < 0.16 and "{box}" in route.url:
            values["box"] = self.random.choice([0, 8, 99999999999999999999, -1])
            note = f"box {values['box']}"
        elif roll < 0.20 and "{link}" in route.url:
            values["link"] = self.random.choice([uuid.uuid4(), "not-a-uuid", "%00"])
            note = f"link {values['link']}"
        # Non-ASCII and reserved characters travel percent-encoded, as a browser sends them.
        return urllib.parse.quote(route.url.format(**values), safe="/%"), note

    # ---- the run

    def valid_tap(self) -> None:
        """The next tap of a dealt hand, as the tablet sends it: the table moves on."""
        action, form = HAND[self.hand_step % len(HAND)]
        self.hand_step += 1
        route = next(r for r in routes() if r.action == action and r.url.startswith("/tables/{table}/act/"))
        key = uuid.uuid4().hex
        self.used_keys.append(("dealer", key))
        fields = [*form.items(), ("version", str(self.world.version(self.world.table_id))), ("key", key)]
        answer = self.send(route, "dealer", "POST", f"/tables/{self.world.table_id}/act/{action}/",
                           self.body(fields, "dealer"), "valid")
        if answer.status == 422 and action != "start-hand":
            self.hand_step = 0  # the hand ended another way (a fold of every box, a void): start the next

    def one_case(self, route: Route) -> None:
        role = route.roles[0] if self.random.random() < 0.6 or route.only_its_roles else self.random.choice(
            [*route.roles, *self.world.people, "anonymous"])
        table_id = self.world.table_id
        path, path_note = self.path(route, table_id)
        fields = self.valid_fields(route, role, table_id)
        roll = self.random.random()
        method, headers, token = "POST", {}, True
        if roll < 0.05:
            token, note = False, "no CSRF token"
        elif roll < 0.08:
            body, note = json.dumps(dict(fields)).encode(), "JSON body"
            headers = {"Content-Type": "application/json", "X-CSRFToken": self.browsers[role].csrf}
            self.send(route, role, method, path, body, f"{path_note} {note}", headers)
            return
        elif roll < 0.10:
            fields, note = [(f"f{i}", "1") for i in range(1100)], "too many fields"
        elif roll < 0.11:
            fields, note = [("note", "x" * 3_000_000)], "a body too big"
        elif roll < 0.14:
            method, note = "GET", "GET instead of POST"
        elif roll < 0.30:
            note = "valid"
        else:
            fields, note = self.break_fields(route, role, fields)
        if route.name == "player link" and self.random.random() < 0.5:
            method = "GET"
        body = self.body(fields, role, token=token) if method == "POST" else None
        if method == "GET" and route.name != "player link":
            path += "?" + _encode(fields).decode()
        answer = self.send(route, role, method, path, body, f"{path_note} {note}", headers)
        if route.name == "box link" and answer.status == 302 and "/links/" in answer.location:
            self.world.links.append(answer.location.rstrip("/").split("/")[-1])
        if route.name == "language" and answer.status == 302:
            self.browsers[role].cookies.pop("django_language", None)  # stay in Spanish, the default

    def run(self, cases_per_route: int) -> None:
        self.log_in_everyone()
        all_routes = routes()
        for _round in range(cases_per_route):
            if self.random.random() < 0.7:
                self.valid_tap()
            for route in all_routes:
                self.one_case(route)
        for browser in self.browsers.values():
            browser.close()

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())


def log_problems(logs: list[Path]) -> list[str]:
    """The lines of the servers' logs that say a request failed inside the casino."""
    return [f"{log.name}: {line.strip()}" for log in logs for line in log.read_text(errors="replace").splitlines()
            if TRACEBACK.search(line)]


def report(fuzzer: Fuzzer, problems: list[str], seconds: float) -> str:
    lines = [f"{fuzzer.requests} requests in {seconds:.0f} s over {len(fuzzer.bases)} daphne process(es), "
             f"{len(fuzzer.by_route)} routes",
             "by status: " + ", ".join(f"{status}: {n}" for status, n in sorted(fuzzer.statuses.items())),
             f"HTTP 500 (or no answer): {len(fuzzer.failures)}; tracebacks or 'Internal Server Error' "
             f"in the servers' logs: {len(problems)}"]
    for name, counts in sorted(fuzzer.by_route.items()):
        lines.append(f"  {name:<24} " + " ".join(f"{status}:{n}" for status, n in sorted(counts.items())))
    lines += [f"  FAILED {failure}" for failure in fuzzer.failures[:20]]
    lines += [f"  LOG {problem}" for problem in problems[:20]]
    return "\n".join(lines)


# --- The bounded run from the command line -------------------------------------------------------------


def main() -> None:
    from bench.bench_pit_load import production_on_loopback

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=200, help="broken requests per route")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    env = production_on_loopback("fuzz_posts runs on PostgreSQL (it is PostgreSQL that refuses NUL): "
                                 "set DATABASE_URL")
    world = make_world(f"f{int(time.time())}_")
    open_table(world)

    def fuzz(bases: list[str]) -> Fuzzer:
        fuzzer = Fuzzer(bases, world, args.seed)
        fuzzer.run(args.cases)
        return fuzzer

    fuzzer, seconds, logs = on_daphne(args.servers, env, fuzz)
    problems = log_problems(logs)
    print(f"seed {args.seed}, {args.cases} cases per route; logs: {' '.join(str(log) for log in logs)}")
    print(report(fuzzer, problems, seconds))
    sys.exit(1 if fuzzer.failures or problems else 0)


def open_table(world: World) -> None:
    """Opened through the services, as the dealer and the pit boss do before the shift (THB-21)."""
    from django.contrib.auth import get_user_model

    from tables import sessions
    from tables.models import Table

    users = get_user_model().objects
    table = Table.objects.get(pk=world.table_id)
    sessions.request_opening(table=table, by=users.get(username=world.people["dealer"]), key=uuid.uuid4().hex,
                             expected_version=table.version)
    table.refresh_from_db()
    sessions.confirm_deck_check(table=table, by=users.get(username=world.people["pit_boss"]),
                                key=uuid.uuid4().hex, expected_version=table.version)


def on_daphne(processes: int, env: dict, fuzz):
    """``fuzz(bases)`` run against ``processes`` daphne processes started with ``env`` on loopback, then
    stopped: what it returned, how long it took and the processes' logs."""
    servers, logs = [], []
    for _ in range(processes):
        port = free_port()
        log = Path(f"/tmp/fuzz-daphne-{port}.log")
        logs.append(log)
        servers.append((subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "casino.asgi:application"],
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT), port))
    try:
        for proc, port in servers:
            wait_healthy(proc, port)
        started = time.monotonic()
        result = fuzz([f"http://127.0.0.1:{port}" for _proc, port in servers])
        seconds = time.monotonic() - started
    finally:
        for proc, _port in servers:
            proc.terminate()
        for proc, _port in servers:
            proc.wait(timeout=20)
    return result, seconds, logs


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(proc: subprocess.Popen, port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"daphne on {port} exited: see /tmp/fuzz-daphne-{port}.log")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"daphne on {port} did not become healthy")


if __name__ == "__main__":
    main()
