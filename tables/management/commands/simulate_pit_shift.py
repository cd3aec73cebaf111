"""A simulated shift at the pit (issue #39, docs/bank.md): N tables for H hours in dealt mode, through the real
services, reconciled.

    python manage.py simulate_pit_shift --tables 20 --hours 8 [--hands-per-hour 30] [--seed 1] [--mispay]

Each table (four to a pit, each pit with its pit boss: THB-72) opens with its deck check and its float counted by
its dealer and signed by the pit boss (THB-70), sells chips for cash every hour (the drop), takes a fill and gives
a credit, each slip signed by the pit boss, the cage's cashier, the security officer and the table, deals its
hands in dealt mode (the electronic shoe), and closes with its closing float counted and signed. The simulated
dealer keeps its own tray: what it holds is the float, plus the fills, less the credits and the chips sold, plus
each hand's chips as the dealer took and paid them; ``--mispay`` makes the first table's dealer pay one chip too
many once, so its closing does not add up: it is signed with a reason and the report shows a difference of -1.

Every write runs at simulated time (``casino.writes.simulated_time``), so the shift is the window it prints. The
report (``tables.bank_reads.shift_report``) must reconcile every table to 0 difference (except a mispay): the
command fails otherwise. It prints the time it took (docs/benchmarks.md).
"""

from __future__ import annotations

import datetime
import random
import time
import uuid

from django.core.management.base import BaseCommand, CommandError

from casino.roles import ensure_role_groups
from casino.writes import simulated_time
from tables import bank, bank_reads, services, sessions
from tables.models import ChipSlip, Hand, Pit, Table

#: One dealt hand: three boxes bet the ante, the dealer's shoe deals every card (THB-32).
HAND = [
    {"action": "place-ante", "box": 1, "amount": 10},
    {"action": "place-ante", "box": 2, "amount": 25},
    {"action": "place-ante", "box": 3, "amount": 10},
    {"action": "close-bets"},
    {"action": "deal-initial"},
    {"action": "bet-flop", "box": 1, "amount": 20},
    {"action": "bet-flop", "box": 2, "amount": 50},
    {"action": "fold", "box": 3},
    {"action": "deal-flop"},
    {"action": "pass-turn", "box": 1},
    {"action": "bet-turn", "box": 2, "amount": 25},
    {"action": "deal-turn"},
    {"action": "bet-river", "box": 1, "amount": 10},
    {"action": "pass-river", "box": 2},
    {"action": "deal-river"},
    {"action": "reveal-dealer"},
    {"action": "reveal-box", "box": 2},
    {"action": "reveal-box", "box": 1},
]
FLOAT = {1000: 10, 500: 10, 100: 50, 25: 80, 5: 100, 1: 100}  # 22,600
DENOMINATIONS = (1000, 500, 100, 25, 5, 1)


def chips_for(amount: int) -> dict[int, int]:
    if amount < 0:
        raise CommandError(f"a tray cannot hold {amount}")
    chips = {}
    for d in DENOMINATIONS:
        chips[d], amount = divmod(amount, d)
    return {d: n for d, n in chips.items() if n}


class Shift:
    """The people and the clock of one simulated shift."""

    def __init__(self, *, tables: int, hours: int, hands_per_hour: int, seed: int, mispay: bool, start=None):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group

        ensure_role_groups()
        self.random = random.Random(seed)
        self.hours, self.hands_per_hour, self.mispay = hours, hands_per_hour, mispay
        self.start = start or datetime.datetime(2026, 1, 5, 6, 0, tzinfo=datetime.UTC)
        self.end = self.start + datetime.timedelta(hours=hours, minutes=30)
        tag = uuid.uuid4().hex[:6]
        users = get_user_model().objects

        def person(name: str, role: str):
            user = users.create_user(username=f"sim-{tag}-{name}", password=None, first_name=name)
            user.groups.add(Group.objects.get(name=role))
            return user

        self.cashier, self.security = person("cashier", "cage_cashier"), person("security", "security_officer")
        self.tables: list[tuple[Table, object, object]] = []
        for p in range((tables + 3) // 4):
            boss = person(f"boss{p + 1}", "pit_boss")
            pit = Pit.objects.create(name=f"SIM-{tag}-{p + 1}", pit_boss=boss)
            for t in range(min(4, tables - 4 * p)):
                dealer = person(f"dealer{4 * p + t + 1}", "dealer")
                table = Table.objects.create(pit=pit, name=f"SIM-{tag}-T{4 * p + t + 1}", min_ante=5, max_ante=100,
                                             dealer=dealer)
                table.ensure_boxes()
                self.tables.append((table, dealer, boss))

    def act(self, fn, table: Table, by, at, **kwargs):
        table.refresh_from_db(fields=["version"])
        with simulated_time(at):
            return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)

    def slip(self, table, boss, dealer, kind: str, chips: dict, at) -> int:
        with simulated_time(at):
            done = bank.request_slip(table=table, by=boss, key=uuid.uuid4().hex, kind=kind, chips=chips)
        slip = ChipSlip.objects.get(pk=done.ids["slip"])
        order = (self.cashier, self.security, dealer) if kind == "fill" else (dealer, self.security, self.cashier)
        for i, person in enumerate(order, start=1):
            with simulated_time(at + datetime.timedelta(minutes=2 * i)):
                bank.sign_slip(slip=slip, by=person, key=uuid.uuid4().hex, expected_version=i)
        return slip.amount

    def run_table(self, index: int, table: Table, dealer, boss) -> int:
        """One table's shift; answers what its dealer's tray holds at the closing."""
        at = self.start + datetime.timedelta(minutes=index % 15)
        self.act(sessions.request_opening, table, dealer, at)
        self.act(sessions.confirm_deck_check, table, boss, at)
        self.act(bank.count_float, table, dealer, at, stage="opening", chips=FLOAT)
        self.act(bank.sign_float, table, boss, at, stage="opening")
        tray = sum(d * n for d, n in FLOAT.items())
        gap = datetime.timedelta(minutes=60 / self.hands_per_hour)
        mispaid = False
        for hour in range(self.hours):
            at = self.start + datetime.timedelta(hours=hour, minutes=1 + index % 15)
            sold = 100 * self.random.randint(2, 20)
            self.act(bank.record_drop, table, dealer, at, amount=sold)
            tray -= sold
            if hour == min(1, self.hours - 1):
                tray += self.slip(table, boss, dealer, "fill", {500: 4, 100: 10}, at)
            if hour == self.hours - 1 and tray > 3_000:
                tray -= self.slip(table, boss, dealer, "credit", {1000: 2}, at + datetime.timedelta(minutes=8))
            for n in range(self.hands_per_hour):
                hand_at = at + gap * n + datetime.timedelta(seconds=30)
                self.act(services.start_hand, table, dealer, hand_at, mode=Hand.Mode.DEALT)
                for record in HAND:
                    self.act(services.record_action, table, dealer, hand_at, record=record)
                hand = Hand.objects.filter(table=table).order_by("-number").first()
                if hand.house_net is None:
                    raise CommandError(f"{table.name} hand {hand.number} did not settle")
                tray += hand.house_net  # the chips the dealer took in and paid out
                if self.mispay and index == 0 and not mispaid:
                    tray -= 1  # one chip paid too many
                    mispaid = True
        at = self.start + datetime.timedelta(hours=self.hours, minutes=index % 15)
        self.act(sessions.request_closing, table, dealer, at)
        self.act(bank.count_float, table, dealer, at, stage="closing", chips=chips_for(tray))
        reason = "one chip short: mispay suspected" if (self.mispay and index == 0) else ""
        self.act(bank.sign_float, table, boss, at, stage="closing", reason=reason)
        self.act(sessions.confirm_closing, table, boss, at)
        return tray

    def run(self) -> list:
        for index, (table, dealer, boss) in enumerate(self.tables):
            self.run_table(index, table, dealer, boss)
        names = {t.pk for t, _d, _b in self.tables}
        return [row for row in bank_reads.shift_report(self.start, self.end) if row.table.pk in names]


class Command(BaseCommand):
    help = "Simulate a pit's shift in dealt mode through the real services, and reconcile it (issue #39)."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=20)
        parser.add_argument("--hours", type=int, default=8)
        parser.add_argument("--hands-per-hour", type=int, default=30)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--mispay", action="store_true", help="the first table's dealer overpays one chip")

    def handle(self, *args, tables, hours, hands_per_hour, seed, mispay, **options):
        if not (1 <= tables <= 200 and 1 <= hours <= 24 and 1 <= hands_per_hour <= 120):
            raise CommandError("1-200 tables, 1-24 hours, 1-120 hands an hour")
        began = time.perf_counter()
        shift = Shift(tables=tables, hours=hours, hands_per_hour=hands_per_hour, seed=seed, mispay=mispay)
        rows = shift.run()
        took = time.perf_counter() - began
        hands = sum(r.hands for r in rows)
        for row in rows:
            r = row.result
            self.stdout.write(f"{row.table.name}: drop {r.drop} win {r.win} hold "
                              f"{'' if r.hold is None else f'{r.hold:.1%}'} hands {r.hands} difference {r.difference}")
        differences = [r.result.difference for r in rows]
        self.stdout.write(f"{len(rows)} tables, {hands} hands, {hours} h simulated in {took:.1f} s; "
                          f"total difference {sum(differences)}")
        expected = [-1 if (mispay and i == 0) else 0 for i in range(len(rows))]
        if differences != expected:
            raise CommandError(f"the shift does not reconcile: {differences}")
