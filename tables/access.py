"""Who may see or act at which table: the tables' object checks (``casino.access`` explains the two checks)."""

from __future__ import annotations

from django.db.models import QuerySet

from casino.models import label_of, object_label
from casino.roles import CARRY_CHIPS, SUPERVISE_PIT, WORK_CAGE, Role, can, has_role
from casino.rules import bank as rules
from tables.models import ChipSlip, Pit, Table

#: Who opens a table's bank page, besides its dealer on duty (issue #39, docs/bank.md), and who opens a slip's page.
BANK_SUPERVISORS = (Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
SLIP_PEOPLE = (Role.DEALER, *BANK_SUPERVISORS, Role.CAGE_CASHIER, Role.SECURITY_OFFICER)


def is_dealer_at(user, table: Table) -> bool:
    """A dealer acts only at the table they are on duty at."""
    return has_role(user, Role.DEALER) and table.dealer_id == user.pk


def supervises_pit(user, pit: Pit) -> bool:
    """A pit's console: its own pit boss; directors and administrators see every pit."""
    if has_role(user, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR):
        return True
    return has_role(user, Role.PIT_BOSS) and pit.pit_boss_id == user.pk


def supervises(user, table: Table) -> bool:
    """A pit boss sees the tables of their own pit; directors and administrators see all."""
    return supervises_pit(user, table.pit)


def may_view(user, table: Table) -> bool:
    return is_dealer_at(user, table) or supervises(user, table)


def may_see_slip(user, slip: ChipSlip) -> bool:
    """A slip's page (its QR's): the cage, security, and its table's dealer and pit boss (docs/bank.md)."""
    return can(user, WORK_CAGE) or can(user, CARRY_CHIPS) or may_view(user, slip.table)


def supervised_tables(user) -> QuerySet[Table]:
    tables = Table.objects.select_related("pit", "dealer")
    if has_role(user, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR):
        return tables
    if has_role(user, Role.PIT_BOSS):
        return tables.filter(pit__pit_boss=user)
    return tables.none()


def pit_of_stock(label: str) -> Pit | None:
    """The pit whose stock of decks ``label`` names (``tables.pit.<id>``, docs/decks.md), or None."""
    prefix = label_of(Pit, 0)[:-1]
    rest = label[len(prefix):] if label.startswith(prefix) else ""
    return Pit.objects.filter(pk=int(rest)).first() if rest.isdigit() and len(rest) < 10 else None


def pit_tables_for_decks(pit: Pit) -> list[tuple[str, str]]:
    """The tables a deck of the pit's stock may be issued to: their labels and names."""
    return [(object_label(t), t.name) for t in pit.tables.order_by("name")]


def slip_role_for(by, table: Table, role: str) -> bool:
    """May ``by`` sign a step of ``role`` (``casino.rules.bank``'s pit, cage, security, table) for a slip of
    ``table``? Here, below the commands, so that the bank's screens ask it too (docs/bank.md)."""
    if role == rules.PIT:
        return supervises(by, table) and can(by, SUPERVISE_PIT)
    if role == rules.CAGE:
        return can(by, WORK_CAGE)
    if role == rules.SECURITY:
        return can(by, CARRY_CHIPS)
    return is_dealer_at(by, table) or (supervises(by, table) and can(by, SUPERVISE_PIT))
