"""Every POST and socket of a tournament, with input no screen sends: never an HTTP 500 (issue #34).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_fuzz REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python bench/fuzz_tournament.py --cases 200 --servers 2 --seed 34

The tournament's half of ``bench/fuzz_posts.py``, whose Fuzzer it extends with a tournament's routes. On
loopback, with DEBUG=0 on PostgreSQL and Redis, it sets up a running event (two dealt tables, a dealer on
duty at each, the clock running, player links issued) and another director's event, logs in as its
director, its floor, its dealers, the games director, an administrator and the other event's director,
and sends, alternating between the processes:

* every console action of ``tournaments.views.console.ACTIONS`` (clock, busts, penalties, chip counts, colour-ups,
  seats, accreditation, payments, corrections, the director's word at a dealt table...);
* the setup (a new event, the setup changed, a structure template saved and copied), the registration
  desk, the exclusion list's CSV upload (CR-only lines, a bare CR in a field, a 200 KiB field, invalid
  UTF-8, NUL, no file...), the tablet's every tap, an accreditation link issued and a link revoked, the
  player-link door with the event's tokens, the seating search;

each built from the form the screen sends and then broken one way: Unicode digits ('²', '٣'), 5,000-digit,
negative, huge and fractional numbers, 'inf', '1e309', 'nan', empty and missing fields, NUL, control and
bidi characters, very long strings, invalid UTF-8, repeated fields, stale and huge versions, empty, reused
and foreign keys, the other event's ids, unknown ids, other roles, no CSRF token. Valid taps in between
deal hands at both tables, so the broken ones meet each step of a hand.

Then every socket of the event (the console, the clock display, each tablet, a player's phone) is opened
as its screen opens it and sent frames no screen sends (broken and deep JSON, huge, binary, NUL), and
opened at addresses no screen uses (other events, ids beyond any column). A socket closed with 1011 (a
server error) or refused with a 5xx at its handshake counts as a failure.

It counts the answers by status, scans the servers' logs for tracebacks and "Internal Server Error",
prints a summary to paste into docs/reliability.md and exits 1 on any 5xx, no answer or traceback,
printing each request that caused one. tests/bench/test_fuzz_tournament.py runs a seeded few hundred.

It creates its own people and events (a fresh prefix each run) in the database named by DATABASE_URL: use
a bench database, not the casino's.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import re
import sys
import time
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import fuzz_posts  # noqa: E402
from bench.fuzz_posts import NUL, PASSWORD, TEXTS, Browser, log_problems, on_daphne  # noqa: E402
from bench.tournament_script import ID_TYPE, running_event  # noqa: E402

# --- What no screen sends, beyond the pit's ---------------------------------------------------------------

NUMBERS = ["-1", "0", "-999999999999", "9" * 5000, "1" + "0" * 20, str(2**63), str(2**64), "1.5", "1e9", "1e309",
           "inf", "-inf", "nan", "NaN", "0x10", " 7 ", "+5", "-0", "²", "³", "٣", "١٢", "𝟗", "Ⅻ", "1_000", "", " "]
CONTROL = ["\x07", "\x1b[31m", "\r", "a\rb", "\u200b", "\u2066x\u2069", "\u202e12", "\ufeff3", "\x7f"]
WEIRD = NUL + NUMBERS + TEXTS + CONTROL
VERSIONS = ["", "-1", "0", "1.0", "v", "9" * 5000, str(2**62 + 1), str(2**63), "²", "٣", "1\x00", " ", "inf",
            "1e309"]
NOTICE = re.compile(r'class="notice notice-\w+" role="alert">([^<]*)<')


# --- The event the fuzzer plays at --------------------------------------------------------------------------


@dataclass
class World:
    """The running event and another director's, with the ids the forms need."""

    event: int
    other_event: int
    tables: dict[int, str]  # table number -> its dealer's role name in ``people``
    people: dict[str, str]  # role -> username
    entries: dict[int, int]  # entry number -> Entry pk (the receipts' address)
    other_entry_pks: list[int]
    documents: dict[int, str]  # entry number -> its player's ID number
    dealers: dict[str, int]  # dealer role -> user pk (the assign-dealer form)
    template: int
    open_event: int = 0  # the director's next event, its registration open (the registration race's)
    tokens: list[str] = field(default_factory=list)  # the event's player links, signed
    link_ids: list[str] = field(default_factory=list)

    def version(self) -> int:
        from tournaments.models import Tournament

        return Tournament.objects.filter(pk=self.event).values_list("version", flat=True).first() or 0

    def table_version(self, number: int) -> int:
        from tournaments.models import DealtTable

        return DealtTable.objects.filter(tournament_id=self.event, number=number).values_list(
            "version", flat=True).first() or 0

    def pending_plan(self) -> int:
        """The seq of the plan waiting for the floor's confirmation (1 when none waits)."""
        from tournaments.models import Tournament
        from tournaments.reads import event as event_reads

        pending = event_reads.tournament_state(Tournament.objects.get(pk=self.event)).pending_plan
        return pending[0] if pending else 1

    def last_seq(self) -> int:
        from tournaments.models import TournamentEvent

        return TournamentEvent.objects.filter(tournament_id=self.event).order_by("-seq").values_list(
            "seq", flat=True).first() or 1


def make_world(prefix: str, players: int = 18) -> World:
    """A running event of two tables (its director created it), a dealer on duty at each, the clock running,
    links for a few players; and another director's event with its registration open."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino import player_links
    from casino.roles import Role, ensure_role_groups
    from tournaments import services
    from tournaments.models import Entry, StructureTemplate
    from tournaments.projections import entry_number
    from tournaments.reads import event as event_reads
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    ensure_role_groups()
    User = get_user_model()
    users = {}
    for role, group in (("director", Role.TOURNAMENT_DIRECTOR), ("floor", Role.TOURNAMENT_FLOOR),
                        ("dealer1", Role.DEALER), ("dealer2", Role.DEALER), ("games_director", Role.GAMES_DIRECTOR),
                        ("administrator", Role.ADMINISTRATOR), ("other_director", Role.TOURNAMENT_DIRECTOR)):
        user = User.objects.create_user(f"{prefix}{role}", password=PASSWORD)
        user.groups.add(Group.objects.get(name=group))
        users[role] = user

    def event(director, name, count, start):
        # as printed: letters, digits and dashes
        return running_event(director, name=f"{prefix}{name}", players=count, start=start,
                             document=lambda n: f"{prefix}{name}{n}".replace("_", "-"))

    main = event(users["director"], "main", players, True)
    other = event(users["other_director"], "other", 3, False)
    upcoming = event(users["director"], "next", 0, False)
    tables = {}
    for i, seats in enumerate(event_reads.tournament_state(main).tables[:2], start=1):
        table = hand_reads.dealt_table(main, seats.table)
        dealing.assign_dealer(table=table, by=users["director"], key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=users[f"dealer{i}"])
        tables[seats.table] = f"dealer{i}"
    entries = {entry_number(e): e.pk for e in Entry.objects.filter(tournament=main)}
    world = World(
        event=main.pk, other_event=other.pk, tables=tables, people={r: u.username for r, u in users.items()},
        entries=entries, other_entry_pks=list(Entry.objects.filter(tournament=other).values_list("pk", flat=True)),
        documents={n: f"{prefix}main{n}".replace("_", "-") for n in entries},  # as registered: no underscore
        dealers={r: users[r].pk for r in ("dealer1", "dealer2")},
        template=0, open_event=upcoming.pk)
    for entry in list(Entry.objects.filter(tournament=main).order_by("pk"))[:3]:
        link = services.issue_entry_link(entry, by=users["director"])
        world.tokens.append(player_links.token_for(link))
        world.link_ids.append(str(link.pk))
    # a template to copy: this event's structure, saved by its director as the setup page does
    services.save_structure_template(by=users["director"], name=f"{prefix}template",
                                     structure=dict(event_reads.tournament_state(main).setup.structure))
    world.template = StructureTemplate.objects.get(name=f"{prefix}template").pk
    return world


# --- What the screens send (the valid form of each POST) ----------------------------------------------------

STRUCTURE = "100/200 20\n100/200/200 20\nbreak 10 25\n200/400/400 20"
SETUP = {"name": ["Sunday 10K", "Torneo ñ"], "starts_at": ["2026-12-06T20:00"], "buy_in": ["100"], "fee": ["0", "10"],
         "starting_stack": ["10000"], "seats_per_table": ["9", "8"], "late_registration_level": ["", "2"],
         "denominations": ["25 100 500 1000 5000"], "structure": [STRUCTURE], "payouts": [""], "break_order": [""],
         "final_table_size": ["9"], "ante_mode": ["button", "big_blind"], "reentry_allowed": ["1", ""],
         "mucked_hand_recoverable": [""], "action_seconds": ["60", "0"], "clock_seconds": ["30"],
         "clock_countdown_seconds": ["10"], "clock_expiry_unfaced": ["dead"], "max_penalty_rounds": ["4"]}
TABLE, SEAT, ENTRY = "table", "seat", "entry"  # filled from the world
CONSOLE_FORMS = {
    "open-registration": {}, "close-registration": {}, "start": {}, "results": {},
    "clock-start": {}, "clock-pause": {}, "clock-resume": {}, "hand-for-hand-deal": {},
    "clock-adjust": {"seconds": ["60", "-30"]},
    "clock-skip": {"step": ["1", "2"]},
    "hand-for-hand": {"on": ["1", "0"]},
    "release-board": {"table": TABLE},
    "pause-table": {"table": TABLE, "reason": ["a card on the floor"]},
    "resume-table": {"table": TABLE},
    "call-clock": {"table": TABLE},
    "assign-dealer": {"table": TABLE, "dealer": "dealer"},
    "back-up-hand": {"table": TABLE, "table_version": "table_version", "seq": ["1", "2"], "reason": ["misread"]},
    "confirm-plan": {"proposed": "pending plan"},
    "bust": {"table": TABLE, "seats": SEAT},
    "withdrawal": {"entry": ENTRY, "reason": ["ill"]},
    "disqualify": {"entry": ENTRY, "reason": ["collusion"]},
    "penalty": {"entry": ENTRY, "kind": ["warning", "hands"], "count": ["1", "3"], "infraction": ["etiquette"],
                "reason": ["swearing"]},
    "end-penalty": {"entry": ENTRY, "reason": ["served"]},
    "chip-counts": {"chips_1": ["10000"], "chips_2": ["9500"]},
    "button": {"table": TABLE, "seat": SEAT},
    "colour-up": {"table": TABLE, "denomination": ["25"], "odd_1": ["3"], "odd_2": ["0"]},
    "seat": {"entry": ENTRY, "table": TABLE, "seat": SEAT, "reason": ["wrong seat"]},
    "accredit": {"entry": ENTRY, "id_type": [ID_TYPE], "id_number": "document"},
    "hold-stack": {"entry": ENTRY, "held": ["1", "0"]},
    "remove-absent": {"absent": ["17", "3 4"]},
    "pay": {"entry": ENTRY, "id_type": [ID_TYPE], "id_number": "document"},
    "correct": {"seq": "seq", "reason": ["typo"]},
}
TABLET_FORMS = {
    "new-hand": {}, "fold": {"seat": SEAT}, "check": {"seat": SEAT}, "call": {"seat": SEAT},
    "all-in": {"seat": SEAT}, "kill-hand": {"seat": SEAT}, "bet": {"seat": SEAT, "to": ["400", "1000"]},
    "raise": {"seat": SEAT, "to": ["800"]}, "flop": {"cards": ["2c 3d 4h"]}, "turn": {"cards": ["9s"]},
    "river": {"cards": ["Tc"]}, "show": {"seat": SEAT, "cards": ["As Ah"]}, "muck": {"seat": SEAT},
    "award-pots": {}, "misdeal": {}, "undo": {"reason": ["wrong seat", ""]}, "call-clock": {},
    "clock-ran-out": {},
}
REGISTRATION = {"player_name": ["Ana Pérez", "李小龍"], "id_type": [ID_TYPE, "dni"], "id_number": "new document",
                "birth_date": ["1980-05-17"], "image_consent": ["1", ""]}
EXCLUSIONS = [
    "id_type,id_number,kind,listed_on\r\ndni,123,exclusion,2024-01-01\r\n",
    "id_type,id_number,kind,listed_on\rdni,123,exclusion,2024-01-01\r",  # CR-only line endings
    'id_type,id_number,kind,listed_on\ndni,"12\r3",exclusion,2024-01-01\n',  # a bare CR inside a field
    "id_type,id_number,kind,listed_on\ndni," + "9" * 140_000 + ",exclusion,\n",  # a field over 128 KiB
    "id_type,id_number,kind,listed_on\ndni,1\x002,exclusion,\n", "", "\ufeff", "no,header\n1,2\n",
    "id_type,id_number,kind,listed_on\ndni,123,banished,2024-13-45\n", "id_type\n" + "dni\n" * 2000,
    'id_type,id_number\n"unclosed,1\n', "\x01RAW\x01",
]


#: What no screen sends in one field, beyond the values above: the structure's lines, the payouts, dates.
FIELD_WEIRD = {
    "structure": ["100/200 " + "9" * 5000, "100/200 " + "1" + "0" * 20, "9" * 5000 + "/200 20", "break 1" + "0" * 20,
                  "100/200/" + "9" * 5000 + " 20", "100/200 0", "１００/２００ ２０", "100/200 20\r" * 3000, "²/² ²"],
    "payouts": ["inf", "1e309", "-inf", "nan", "9" * 5000, "50 50 inf", "100%", "1e309%", "３０ ７０", "0.0001"],
    "denominations": ["9" * 5000, "0", "25 25", "1e309", "²"],
    "break_order": ["9" * 5000, "1 1 1", "-1", "²"],
    "absent": ["9" * 5000, "1 " * 5000, "-3", "²"],
    "birth_date": ["9999-12-31", "0001-01-01", "1980-02-30", "²", "1980-05-17T00:00", "19800517"],
    "starts_at": ["9999-12-31T23:59", "0001-01-01T00:00", "+275760-09-13T00:00", "2026-13-01T25:61", "²"],
    "seconds": ["9" * 5000, str(24 * 3600 + 1), "-" + "9" * 30, "1e309"],
    "late_registration_level": ["9" * 5000, "0", "10000000"],
}


@dataclass
class Route(fuzz_posts.Route):
    """The pit's route (``url`` with {event}, {action}, {table}, {entry_pk}, {link}, {token}), sent as GET or
    POST."""

    method: str = "POST"


DIRECTORS = ("director",)
FLOOR = ("director", "floor")


def routes() -> list[Route]:
    found = [Route(f"console {action}", FLOOR if action in _FLOOR_ACTIONS else DIRECTORS, form,
                   "/tournaments/{event}/act/{action}/", action, True) for action, form in CONSOLE_FORMS.items()]
    found += [Route(f"tablet {action}", ("dealer",), form, "/tournaments/{event}/tables/{table}/deal/{action}/",
                    action, True) for action, form in TABLET_FORMS.items()]
    found += [
        Route("new event", DIRECTORS, {**SETUP}, "/tournaments/new/", writes=True),
        Route("setup", DIRECTORS, {**SETUP, "reason": ["late change"]}, "/tournaments/{event}/setup/", writes=True),
        Route("template save", DIRECTORS, {"do": ["save"], "template_name": ["Sunday", "x" * 80]},
              "/tournaments/{event}/setup/template/"),
        Route("template copy", DIRECTORS, {"do": ["copy"], "template": "template"},
              "/tournaments/{event}/setup/template/", writes=True),
        Route("registration", FLOOR, REGISTRATION, "/tournaments/{event}/registration/", writes=True),
        Route("exclusions upload", DIRECTORS, {}, "/tournaments/{event}/registration/exclusions/"),
        Route("accreditation link", FLOOR, {}, "/tournaments/{event}/receipts/{entry_pk}/link/"),
        Route("revoke link", FLOOR, {}, "/tables/links/{link}/revoke"),
        Route("player link", ("anonymous",), {}, "/p/{token}/", method="GET"),
        Route("seating search", ("anonymous", "floor"), {"q": ["3", "#3", "Player"]}, "/tournaments/{event}/seating/",
              method="GET"),
    ]
    return found


_FLOOR_ACTIONS = {"call-clock", "assign-dealer", "back-up-hand", "confirm-plan", "bust", "penalty", "end-penalty",
                  "chip-counts", "button", "colour-up", "seat", "accredit", "correct"}


def route_names() -> list[str]:
    return [route.name for route in routes()]


def _multipart(fields: list[tuple[str, str]], files: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                     + value.encode("utf-8", "surrogatepass") + b"\r\n")
    for name, filename, content in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f"Content-Type: text/csv\r\n\r\n".encode("utf-8", "surrogatepass") + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Fuzzer(fuzz_posts.Fuzzer):
    """The pit's fuzzer at a tournament: its routes, its world, its values; then its sockets."""

    weird = WEIRD
    extra_names = ["\x00", "chips_\x00", "chips_²", "chips_" + "9" * 5000, "odd_²", "odd_99", "stack_3", "seats",
                   "é" * 50, "x" * 5000, "key", "version", "entry"]
    field_weird = FIELD_WEIRD

    def __init__(self, bases: list[str], world: World, seed: int):
        super().__init__(bases, world, seed)
        self.pages: dict[int, str] = {}  # table -> its tablet's last fragment (the valid taps read it)
        self.sockets: Counter = Counter()  # "kind: outcome" -> count
        self.tap_refusals: Counter = Counter()  # why the valid taps were refused: what held the hands up

    def log_in_everyone(self) -> None:
        super().log_in_everyone()
        for table, dealer in self.world.tables.items():
            self.browsers[dealer].read_token(f"/tournaments/{self.world.event}/tables/{table}/deal/")

    # ---- building forms

    def _valid_value(self, spec, table: int) -> list[str]:
        w = self.world
        number = self.random.choice(sorted(w.entries))
        if spec == TABLE:
            return [str(table)]
        if spec == SEAT:
            return [str(self.random.randint(1, 9))]
        if spec == ENTRY:
            return [str(number)]
        if spec == "document":
            return [w.documents[number]]
        if spec == "new document":
            return [uuid.uuid4().hex[:12]]
        if spec == "dealer":  # the dealer on duty there: the valid taps go on at both tables
            return [str(w.dealers[w.tables[table]])]
        if spec == "table_version":
            return [str(w.table_version(table))]
        if spec == "seq":
            return [str(self.random.randint(1, w.last_seq()))]
        if spec == "template":
            return [str(w.template)]
        if spec == "pending plan":  # the plan the floor sees: the valid confirmations move players
            return [str(w.pending_plan())]
        return [self.random.choice(spec)]

    def form_version(self, route: Route, table: int) -> int:
        """A tablet's form carries its table's version; the console's, the event's."""
        return self.world.table_version(table) if route.name.startswith("tablet") else self.world.version()

    def odd_versions(self) -> list[str]:
        return [*VERSIONS, str(self.world.version() - 1)]

    # ---- the address

    def path(self, route: Route, table: int) -> tuple[str, str]:
        w = self.world
        values = {"event": w.event, "action": route.action, "table": table,
                  "entry_pk": self.random.choice(list(w.entries.values())),
                  "link": self.random.choice(w.link_ids), "token": self.random.choice(w.tokens)}
        note, roll = "", self.random.random()
        if roll < 0.08:
            values["event"] = self.random.choice([w.other_event, 0, 999_999, "9" * 30, str(2**63)])
            note = f"event {str(values['event'])[:20]}"
        elif roll < 0.12 and "{table}" in route.url:
            values["table"] = self.random.choice([0, 3, 99, 32768, "9" * 25, str(2**63)])
            note = f"table {str(values['table'])[:20]}"
        elif roll < 0.16 and "{entry_pk}" in route.url:
            values["entry_pk"] = self.random.choice([*w.other_entry_pks, 0, 10**12, "9" * 25])
            note = f"entry {str(values['entry_pk'])[:20]}"
        elif roll < 0.20 and "{link}" in route.url:
            values["link"] = self.random.choice([uuid.uuid4(), "not-a-uuid", "%00"])
            note = f"link {values['link']}"
        elif roll < 0.24 and route.action:
            values["action"] = self.random.choice(["x" * 200, "%00", "start%00", "act"])
            note = f"action {values['action'][:20]}"
        elif route.name == "player link" and roll < 0.5:
            values["token"] = self.random.choice(["abc", "%00", "é" * 30, "x" * 3000, "%ED%A0%80",
                                                  values["token"][:-2] + "xx"])
            note = "token"
        return urllib.parse.quote(route.url.format(**values), safe="/%"), note

    # ---- the hands

    def valid_tap(self, table: int) -> None:
        """The next tap of a hand at ``table``, as its tablet asks for it: the hands go on between the broken."""
        from bench.tournament_script import CSRF_META, TABLE_VERSION, TabletScript

        dealer = self.world.tables[table]
        browser = self.browsers[dealer]
        page = self.pages.get(table)
        if page is None:
            answer = browser.request("GET", f"/tournaments/{self.world.event}/tables/{table}/deal/")
            page = answer.text
            found = CSRF_META.search(page)
            if found:
                browser.csrf = found.group(1)
        script = TabletScript(self.world.event, self.random)
        action, form = script.next_tap(page)
        version = TABLE_VERSION.search(page)
        key = uuid.uuid4().hex
        self.used_keys.append((dealer, key))
        fields = [*form.items(), ("version", version.group(1) if version else "0"), ("key", key)]
        route = next(r for r in routes() if r.name == f"tablet {action}")
        answer = self.send(route, dealer, "POST", f"/tournaments/{self.world.event}/tables/{table}/deal/{action}/",
                           self.body(fields, dealer), "valid tap")
        if answer.status != 200:
            said = NOTICE.search(answer.text)
            self.tap_refusals[f"{action} {answer.status}: {html.unescape(said.group(1))[:90] if said else ''}"] += 1
            if answer.status == 422 and self.random.random() < 0.5:
                self.let_play_go_on(table)
        # A refusal's fragment is the table as it stands: read on from it; anything else, ask for the page.
        self.pages[table] = answer.text if answer.status in (200, 409, 422) and "deal-table" in answer.text else None

    def let_play_go_on(self, table: int) -> None:
        """The director lets play go on at a table a broken case paused (TDA-01), as the floor would."""
        route = next(r for r in routes() if r.name == "console resume-table")
        fields = [("table", str(table)), ("version", str(self.world.version())), ("key", uuid.uuid4().hex)]
        self.send(route, "director", "POST", f"/tournaments/{self.world.event}/act/resume-table/",
                  self.body(fields, "director"), "valid: play goes on")

    def one_case(self, route: Route) -> None:
        w = self.world
        table = self.random.choice(sorted(w.tables))
        own = [w.tables[table]] if route.roles == ("dealer",) else list(route.roles)
        role = self.random.choice(own) if self.random.random() < 0.65 else self.random.choice(
            [*w.people, "anonymous"])
        path, path_note = self.path(route, table)
        fields = self.valid_fields(route, role, table)
        method, headers, token, files = route.method, {}, True, None
        roll = self.random.random()
        if route.name == "exclusions upload":
            content = self.random.choice(EXCLUSIONS)
            raw = (content.encode("utf-8", "surrogatepass") if content != "\x01RAW\x01"
                   else self.random.choice([b"\xff\xfe\x00d", b"id_type\n\xed\xa0\x80", b"\x80\x81"]))
            files = [(self.random.choice(["csv", "csv", "file", "csv\x00"]),
                      self.random.choice(["list.csv", "é" * 300, "a\x00.csv", ""]), raw)]
            note = f"csv {content[:40]!r}"
        elif roll < 0.05:
            token, note = False, "no CSRF token"
        elif roll < 0.08 and method == "POST":
            body = json.dumps(dict(fields)).encode()
            self.send(route, role, method, path, body, f"{path_note} JSON body",
                      {"Content-Type": "application/json", "X-CSRFToken": self.browsers[role].csrf})
            return
        elif roll < 0.10:
            fields, note = [(f"f{i}", "1") for i in range(1100)], "too many fields"
        elif roll < 0.13:
            method, note = ("GET" if route.method == "POST" else "POST"), "the other method"
        elif roll < 0.30:
            note = "valid"
        else:
            fields, note = self.break_fields(route, role, fields)
        if files is not None:
            csrf = [("csrfmiddlewaretoken", self.browsers[role].csrf)] if token else []
            body, content_type = _multipart(csrf, files)
            self.send(route, role, "POST", path, body, f"{path_note} {note}", {"Content-Type": content_type})
            return
        body = None
        if method == "POST":
            body = self.body(fields, role, token=token)
        elif route.name != "player link":
            # daphne drops a request line over 16 KiB before any of the casino's code runs: the query is cut
            path += "?" + self.body(fields, role, token=False).decode()[:8000]
        self.send(route, role, method, path, body, f"{path_note} {note}", headers)

    def registration_race(self) -> None:
        """One new player's ID at the desks of both events at once (two directors, two processes)."""
        import threading

        document = uuid.uuid4().hex[:12]
        route = next(r for r in routes() if r.name == "registration")

        # the versions read here: a thread of this process would hold a pooled connection of its own for good
        versions = {event: self.event_version(event) for event in (self.world.open_event, self.world.other_event)}

        def register(role: str, event: int) -> None:
            fields = [("player_name", "Ana Pérez"), ("id_type", ID_TYPE), ("id_number", document),
                      ("birth_date", "1980-05-17"), ("version", str(versions[event])), ("key", uuid.uuid4().hex)]
            self.send(route, role, "POST", f"/tournaments/{event}/registration/", self.body(fields, role),
                      "the same new ID at two events at once")

        racers = [threading.Thread(target=register, args=("director", self.world.open_event)),
                  threading.Thread(target=register, args=("other_director", self.world.other_event))]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()

    def event_version(self, event: int) -> int:
        from tournaments.models import Tournament

        return Tournament.objects.filter(pk=event).values_list("version", flat=True).first() or 0

    # ---- the sockets

    async def fuzz_sockets(self, frames_per_socket: int) -> None:
        """Each socket as its screen opens it, sent what no screen sends; and addresses no screen opens."""
        w = self.world
        first_table = sorted(w.tables)[0]
        phone = Browser(self.bases)
        phone.request("GET", f"/p/{urllib.parse.quote(w.tokens[0])}/")
        sockets = [("console", f"/ws/tournaments/{w.event}/console/", self.browsers["director"]),
                   ("clock", f"/ws/tournaments/{w.event}/clock/", self.browsers["anonymous"]),
                   ("phone", "/ws/player/", phone)]
        sockets += [("tablet", f"/ws/tournaments/{w.event}/tables/{t}/deal/", self.browsers[d])
                    for t, d in w.tables.items()]
        for kind, path, browser in sockets:
            await self.one_socket(kind, path, browser, frames_per_socket)
        # addresses no screen opens: other events, tables and ids beyond any column, the wrong people
        odd = [("console", f"/ws/tournaments/{w.other_event}/console/", "director"),
               ("console", f"/ws/tournaments/{'9' * 25}/console/", "director"),
               ("console", f"/ws/tournaments/{2**63}/console/", "floor"),
               ("console", f"/ws/tournaments/{w.event}/console/", "dealer1"),
               ("clock", f"/ws/tournaments/{2**63}/clock/", "anonymous"),
               ("clock", "/ws/tournaments/0/clock/", "anonymous"),
               ("tablet", f"/ws/tournaments/{w.event}/tables/{2**15}/deal/", "director"),
               ("tablet", f"/ws/tournaments/{w.event}/tables/{'9' * 25}/deal/", "director"),
               ("tablet", f"/ws/tournaments/{w.event}/tables/{first_table}/deal/", "dealer2"),
               ("tablet", f"/ws/tournaments/{w.other_event}/tables/1/deal/", "other_director"),
               ("phone", "/ws/player/", "anonymous"), ("phone", "/ws/player/", "dealer1")]
        for kind, path, role in odd:
            await self.one_socket(kind, path, self.browsers[role], 2)
        phone.close()

    def frames(self) -> list:
        return ["", "{", "null", "[]", "1e309", '{"refresh": true}', '{"refresh": "yes"}', '{"refresh": NaN}',
                '{"refresh": 1e309}', '{"refresh": {"a": [1]}}', "[" * 100_000, '{"a":' * 50_000,
                "\x00", "é" * 200_000, '{"refresh": true, "version": "9' + "9" * 5000 + '"}', "\ud800",
                b"\x00\xff\xfe", b"x" * 100_000, json.dumps({"refresh": "\u202e" * 100})]

    async def one_socket(self, kind: str, path: str, browser: Browser, frames: int) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        base = self.random.choice(self.bases)
        port = urllib.parse.urlsplit(base).port
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        chosen = [self.random.choice(self.frames()) for _ in range(frames)]
        outcome = "open"
        try:
            async with connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                               additional_headers={"Cookie": cookie} if cookie else {}, open_timeout=20,
                               max_size=2**23) as socket:
                for frame in chosen:
                    if isinstance(frame, str):
                        frame = frame.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
                    await socket.send(frame)
                    try:
                        while True:  # what the server pushes back, until it is quiet
                            await asyncio.wait_for(socket.recv(), 0.3)
                    except TimeoutError:
                        pass
                await socket.close()
        except InvalidStatus as refused:
            outcome = f"handshake {refused.response.status_code}"
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
            outcome = f"closed {code}"
        except (OSError, TimeoutError) as error:
            outcome = f"no answer {type(error).__name__}"
        self.sockets[f"{kind}: {outcome}"] += 1
        if outcome.startswith(("handshake 5", "closed 1011", "no answer")):
            self.failures.append(f"socket {kind} {path[:80]!r}: {outcome}")

    # ---- the run

    def run(self, cases_per_route: int, frames_per_socket: int = 12) -> None:
        self.log_in_everyone()
        all_routes = routes()
        for _round in range(cases_per_route):
            for table in sorted(self.world.tables):
                for _ in range(2):
                    self.valid_tap(table)
            for route in all_routes:
                self.one_case(route)
            if _round % 10 == 0:
                self.registration_race()
        asyncio.run(self.fuzz_sockets(frames_per_socket))
        for browser in self.browsers.values():
            browser.close()


def report(fuzzer: Fuzzer, problems: list[str], seconds: float) -> str:
    lines = [f"{fuzzer.requests} requests in {seconds:.0f} s over {len(fuzzer.bases)} daphne process(es), "
             f"{len(fuzzer.by_route)} routes; {sum(fuzzer.sockets.values())} sockets",
             "by status: " + ", ".join(f"{status}: {n}" for status, n in sorted(fuzzer.statuses.items())),
             "sockets: " + ", ".join(f"{what}: {n}" for what, n in sorted(fuzzer.sockets.items())),
             f"HTTP 5xx (or no answer), sockets failed: {len(fuzzer.failures)}; tracebacks or 'Internal Server "
             f"Error' in the servers' logs: {len(problems)}"]
    lines.append("valid taps refused: " + "; ".join(f"{why} x{n}" for why, n in fuzzer.tap_refusals.most_common(8)))
    for name, counts in sorted(fuzzer.by_route.items()):
        lines.append(f"  {name:<28} " + " ".join(f"{status}:{n}" for status, n in sorted(counts.items())))
    lines += [f"  FAILED {failure}" for failure in fuzzer.failures[:40]]
    lines += [f"  LOG {problem}" for problem in problems[:40]]
    return "\n".join(lines)


def report_tracebacks(logs: list[Path]) -> str:
    return "\n".join(f"  TRACEBACK x{n}: {where}" for where, n in tracebacks(logs).most_common())


def tracebacks(logs: list[Path]) -> Counter:
    """Each traceback in the servers' logs as its last line of the casino's code and its exception: the
    list of 5xx a run found (the same line counted once per occurrence)."""
    found: Counter = Counter()
    for log in logs:
        lines = log.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("Traceback (most recent call last)"):
                continue
            ours, end = "", i + 1
            while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
                if lines[end].strip().startswith("File") and str(ROOT) in lines[end] and ".venv" not in lines[end]:
                    ours = lines[end].strip().replace(str(ROOT) + "/", "") + ": " + lines[end + 1].strip()
                end += 1
            raised = lines[end].strip()[:160] if end < len(lines) else ""
            found[f"{ours or '(no frame of the casino)'} -> {raised}"] += 1
    return found


def main() -> None:
    from bench.bench_pit_load import production_on_loopback

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=200, help="broken requests per route")
    parser.add_argument("--frames", type=int, default=40, help="hostile frames per socket")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--players", type=int, default=63,
                        help="entries of the running event: enough that the valid busts, withdrawals and "
                             "disqualifications among the cases leave it in play for most of the run")
    args = parser.parse_args()

    env = production_on_loopback("fuzz_tournament runs on PostgreSQL: set DATABASE_URL")
    world = make_world(f"tf{int(time.time())}_", args.players)

    def fuzz(bases: list[str]) -> Fuzzer:
        fuzzer = Fuzzer(bases, world, args.seed)
        fuzzer.run(args.cases, args.frames)
        return fuzzer

    fuzzer, seconds, logs = on_daphne(args.servers, env, fuzz)
    problems = log_problems(logs)
    print(f"seed {args.seed}, {args.cases} cases per route, {args.frames} frames per socket; "
          f"logs: {' '.join(str(log) for log in logs)}")
    print(report(fuzzer, problems, seconds))
    print(report_tracebacks(logs))
    sys.exit(1 if fuzzer.failures or problems else 0)


if __name__ == "__main__":
    main()
