"""Staff roles as Django groups with permissions.

A role is a group; what a role may do is a permission on ``Capability``, so a
casino can adjust a group in the admin without touching code. Where the role
checks and the object checks (which table, which pit) are made: ``casino.access``.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    DEALER = "dealer", _("Dealer")
    PIT_BOSS = "pit_boss", _("Pit boss")
    GAMES_DIRECTOR = "games_director", _("Games director")
    TOURNAMENT_DIRECTOR = "tournament_director", _("Tournament director")
    TOURNAMENT_FLOOR = "tournament_floor", _("Tournament floor")
    ADMINISTRATOR = "administrator", _("Administrator")
    # The table's bank (issue #39, docs/bank.md): the cage issues fills and receives credits; security carries them.
    CAGE_CASHIER = "cage_cashier", _("Cage cashier")
    SECURITY_OFFICER = "security_officer", _("Security officer")


# Capability codenames (casino.Capability permissions), granted per role.
DEAL = "deal_table"
SUPERVISE_PIT = "supervise_pit"
APPROVE_PAYOUT = "approve_payout"
DIRECT_GAMES = "direct_games"
DIRECT_TOURNAMENTS = "direct_tournaments"
# The tournament floor at the tables: busts, seat corrections, chip counts, buttons, confirming moves
# (the director may do all of it too, and the setup, overrides, disqualifications, clock and payouts).
RUN_TOURNAMENT_FLOOR = "run_tournament_floor"
ISSUE_PLAYER_LINK = "issue_player_link"
VIEW_AUDIT = "view_audit"
# The bank's slips (docs/bank.md): the cage's step and security's step of a fill or credit slip.
WORK_CAGE = "work_cage"
CARRY_CHIPS = "carry_chips"

ROLE_CAPABILITIES: dict[str, tuple[str, ...]] = {
    Role.DEALER: (DEAL, ISSUE_PLAYER_LINK),
    Role.PIT_BOSS: (SUPERVISE_PIT, APPROVE_PAYOUT, ISSUE_PLAYER_LINK, VIEW_AUDIT),
    # The games director assigns each tournament's director and may direct any event (tournaments.access).
    Role.GAMES_DIRECTOR: (SUPERVISE_PIT, APPROVE_PAYOUT, DIRECT_GAMES, DIRECT_TOURNAMENTS, ISSUE_PLAYER_LINK,
                          VIEW_AUDIT),
    Role.TOURNAMENT_DIRECTOR: (DIRECT_TOURNAMENTS, RUN_TOURNAMENT_FLOOR, ISSUE_PLAYER_LINK, VIEW_AUDIT),
    Role.TOURNAMENT_FLOOR: (RUN_TOURNAMENT_FLOOR, ISSUE_PLAYER_LINK),
    Role.ADMINISTRATOR: (DIRECT_GAMES, DIRECT_TOURNAMENTS, SUPERVISE_PIT, VIEW_AUDIT),
    Role.CAGE_CASHIER: (WORK_CAGE,),
    Role.SECURITY_OFFICER: (CARRY_CHIPS,),
}

# Who may lift a staff login lock-out (casino.lockouts; docs/roles.md says why not the pit boss).
LOGIN_UNLOCKERS = (Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)

# Where each role lands after login; the first role a user holds in this order wins.
HOME_ORDER = (Role.ADMINISTRATOR, Role.GAMES_DIRECTOR, Role.PIT_BOSS, Role.TOURNAMENT_DIRECTOR, Role.TOURNAMENT_FLOOR,
              Role.DEALER, Role.CAGE_CASHIER, Role.SECURITY_OFFICER)


def ensure_role_groups(**kwargs) -> None:
    """Create the role groups with their capabilities (idempotent; runs after migrate)."""
    from django.contrib.contenttypes.models import ContentType

    from casino.models import Capability

    ct = ContentType.objects.get_for_model(Capability, for_concrete_model=False)
    perms = {}
    for codename, name in Capability._meta.permissions:
        perms[codename], _created = Permission.objects.get_or_create(
            codename=codename, content_type=ct, defaults={"name": name}
        )
    for role, capabilities in ROLE_CAPABILITIES.items():
        group, _created = Group.objects.get_or_create(name=role)
        group.permissions.add(*(perms[c] for c in capabilities))


def roles_of(user) -> set[str]:
    """The role names a user holds (cached on the user object for the request)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        cached = remember_roles(user, user.groups.values_list("name", flat=True))
    return cached


def remember_roles(user, group_names) -> set[str]:
    """Keep on ``user``, for the request, the roles among ``group_names`` (read with the user, or here)."""
    user._casino_roles = set(group_names) & set(Role.values)
    return user._casino_roles


#: Read with the user (``casino.backends``, ``read_again``): its roles, and the permissions of its groups and
#: its own, one row per combination (a staff account holds a role or two, each a few capabilities).
ACCESS_FIELDS = ("groups__name", "groups__permissions__content_type__app_label", "groups__permissions__codename",
                 "user_permissions__content_type__app_label", "user_permissions__codename")


def remember_access(user, rows) -> None:
    """Keep on ``user``, for the request (or until the socket reads them again), the roles and permissions in
    ``rows`` (each ending with ``ACCESS_FIELDS``), where ``roles_of`` and Django's ``ModelBackend`` look for
    them: each ``can`` then costs no query of its own (two before, for every user object)."""
    groups, from_groups, own = set(), set(), set()
    for *_user, group, group_app, group_perm, own_app, own_perm in rows:
        if group:
            groups.add(group)
        if group_perm:
            from_groups.add(f"{group_app}.{group_perm}")
        if own_perm:
            own.add(f"{own_app}.{own_perm}")
    remember_roles(user, groups)
    if not user.is_superuser:
        user._user_perm_cache, user._group_perm_cache, user._perm_cache = own, from_groups, own | from_groups
        return
    for name in ("_user_perm_cache", "_group_perm_cache", "_perm_cache"):  # every permission: ModelBackend's
        if hasattr(user, name):
            delattr(user, name)


def read_again(user) -> None:
    """The user's active flag, roles and permissions as they stand now, in one query: a staff screen checks
    them again before every push, so that a deactivated account or a removed role stops receiving it at once."""
    from django.contrib.auth import get_user_model

    # the model, not type(user): a socket's user is a lazy wrapper
    rows = list(get_user_model()._default_manager.filter(pk=user.pk).values_list("is_active", *ACCESS_FIELDS))
    user.is_active = bool(rows) and rows[0][0]
    remember_access(user, rows)


def has_role(user, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))


def primary_role(user) -> str | None:
    held = roles_of(user)
    return next((r for r in HOME_ORDER if r in held), None)


def can(user, capability: str) -> bool:
    return bool(getattr(user, "is_active", False)) and user.has_perm(f"casino.{capability}")
