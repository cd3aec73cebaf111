"""Pits, Texas Hold'em Bonus tables and their boxes."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.i18n import explain
from casino.models import AppendOnly, WriteRequest, object_label
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem_bonus.paytable import Paytable as RulesPaytable
from casino.rules.holdem_bonus.paytable import get_paytable, is_registered, paytable_names
from casino.rules.holdem_bonus.table_rules import TableRules, verify_pit_coverage


def pit_group(pit_id: int) -> str:
    """The channel-layer group of a pit's console: every table change of the pit is announced to it."""
    return f"tables.pit.{pit_id}"


#: A table's house options (checklist section 5): the engine's (THB-18, THB-50, THB-54, THB-67) and who approves
#: (C-30).
HOUSE_OPTIONS = ("ante_pays_from", "approval_awards", "approval_above", "release_every_bonus", "award_approver_role",
                 "max_ante_multiple", "chip_denominations", "markers_allowed")
BOX_NUMBERS = tuple(range(1, 8))  # C-28: seven boxes (THB-12), numbered 1 to 7; the one definition


class Game(models.TextChoices):
    TEXAS_HOLDEM_BONUS = "texas-holdem-bonus", _("Texas Hold'em Bonus")
    BLACKJACK = "blackjack", _("Blackjack")
    MINI_PUNTO_BANCO = "mini-punto-banco", _("Mini Punto y Banco")


class Pit(models.Model):
    name = models.CharField(_("name"), max_length=60, unique=True)
    pit_boss = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("pit boss"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pits",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("pit")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # Every way a pit gets a pit boss (the admin, seed_demo, a shell) comes through here; the
        # check and the write share a transaction that holds the pit boss's pits (THB-72).
        with transaction.atomic():
            if self.pit_boss_id:
                list(Pit.objects.select_for_update().filter(pit_boss_id=self.pit_boss_id).values_list("pk"))
            check_pit_coverage(pit=self)
            super().save(*args, **kwargs)

    @property
    def deck_stock(self) -> str:
        """The label of the pit's stock of decks (issue #39, docs/decks.md): its console's group."""
        return pit_group(self.pk)

    def clean(self) -> None:
        check_pit_coverage(pit=self)


def check_pit_coverage(*, pit: Pit, table: Table | None = None) -> None:
    """Refuse a pit, or a table put in it, that leaves its pit boss more than THB-72 allows.

    Counts every table of every pit the pit boss runs, with ``table`` in ``pit`` as it is about to
    be saved (a table moved between pits counts once, in its new pit). A pit with no pit boss yet is
    still one jefe de mesa's area, so its own tables are held to the same limit.
    """
    pits = [pit.pk] if pit.pk else []
    if pit.pit_boss_id:
        pits += [pk for pk in Pit.objects.filter(pit_boss_id=pit.pit_boss_id).values_list("pk", flat=True)
                 if pk != pit.pk]
    covered = Table.objects.filter(pit__in=pits)
    if table is not None and table.pk:
        covered = covered.exclude(pk=table.pk)
    rows = list(covered.values_list("game", "pit_id", "place"))
    games = [game for game, _pit, _place in rows]
    # THB-72's "contiguas": each table's place in its pit (a table not yet placed takes the pit's next place)
    places = [(pit_id, place) for _game, pit_id, place in rows if place is not None]
    if table is not None:
        games.append(table.game)
        places.append((pit.pk, table.place if table.place is not None else next_place(pit)))
    try:
        verify_pit_coverage(games, places)
    except RuleViolation as violation:
        raise ValidationError(explain(violation), code="THB-72") from None


class Paytable(models.Model):
    """A casino's own Bonus paytable kept as data (THB-53, issue #16): a name and its versions.

    The paytables registered in code (the manual's, ``"manual"``) are not rows; a casino's own takes a
    name none of them has. A name is never changed: tables name the paytable they play, and each hand
    keeps the version it was played under in its rules (``Paytable.to_record`` writes the pays), so a
    new version applies from a table's next hand and never changes how a past hand replays.
    """

    name = models.SlugField(_("name"), max_length=60, unique=True,
                            help_text=_("Letters, digits and hyphens, e.g. house-special. It cannot be changed later."))
    description = models.CharField(_("description"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Bonus paytable")
        verbose_name_plural = _("Bonus paytables")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        from casino.rules.holdem_bonus.paytable import is_registered

        if self.name and is_registered(self.name):
            raise ValidationError({"name": _("%(name)s is the name of a paytable the engine already has (THB-53); "
                                             "choose another.") % {"name": self.name}})

    def current_version(self) -> PaytableVersion | None:
        return self.versions.order_by("-number").first()


class PaytableVersionQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("paytable versions are append-only: a change is a new version")

    def delete(self):
        raise TypeError("paytable versions are append-only: a change is a new version")


class PaytableVersion(models.Model):
    """One version of a casino's paytable: award key -> "N to 1". Append-only: a change is a new version."""

    paytable = models.ForeignKey(Paytable, verbose_name=_("paytable"), on_delete=models.PROTECT,
                                 related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    pays = models.JSONField(_("pays"))
    note = models.CharField(_("reason for the change"), max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("made by"), null=True,
                                   on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("made at"), default=timezone.now, editable=False)

    objects = PaytableVersionQuerySet.as_manager()

    class Meta:
        ordering = ["paytable", "-number"]
        verbose_name = _("paytable version")
        constraints = [
            models.UniqueConstraint(fields=["paytable", "number"], name="paytable_version_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="paytable_version_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.paytable.name} v{self.number}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise TypeError("paytable versions are append-only: a change is a new version")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("paytable versions are append-only: a change is a new version")

    def engine_paytable(self):
        """This version as the engine's ``Paytable`` (its name, version and pays)."""
        from casino.rules.holdem_bonus.paytable import Paytable as RulesPaytable

        return RulesPaytable(name=self.paytable.name, pays=dict(self.pays), description=self.paytable.description,
                             version=self.number)


def next_place(pit: Pit) -> int:
    """The place a table added to ``pit`` takes: after its last table (THB-72: the tables' order along the pit)."""
    if pit.pk is None:
        return 1
    return (Table.objects.filter(pit=pit).aggregate(last=models.Max("place"))["last"] or 0) + 1


class Table(models.Model):
    class Status(models.TextChoices):
        CLOSED = "closed", _("Closed")
        # THB-21: the dealer asked to open; the pit boss has still to confirm the deck check.
        OPENING = "opening", _("Waiting for the deck check")
        OPEN = "open", _("Open")
        # Closing likewise waits for the pit boss's confirmation.
        CLOSING = "closing", _("Waiting to close")

    pit = models.ForeignKey(Pit, verbose_name=_("pit"), on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(_("name"), max_length=60, unique=True)
    game = models.CharField(_("game"), max_length=30, choices=Game.choices, default=Game.TEXAS_HOLDEM_BONUS)
    #: THB-72: the table's place along its pit (1, 2, ...): a pit boss's tables are contiguous when their places
    #: follow one another. Empty: the pit's next place, given when the table is saved.
    place = models.PositiveSmallIntegerField(_("place in the pit"), null=True, blank=True)
    # THB-18/19: the ante limits; the flop bet is 2x and turn/river 1x the ante, so they follow.
    min_ante = models.PositiveIntegerField(_("minimum ante"))
    max_ante = models.PositiveIntegerField(_("maximum ante"))
    # THB-20: the bonus has its own limits and may go below the table minimum.
    bonus_min = models.PositiveIntegerField(_("minimum bonus"), default=1)
    bonus_max = models.PositiveIntegerField(_("maximum bonus"), null=True, blank=True)
    paytable = models.CharField(_("bonus paytable"), max_length=60, default="manual")
    house_options = models.JSONField(_("house options"), default=dict, blank=True)
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer on duty"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dealing_tables",
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.CLOSED)
    # Bumped by every change a screen shows; pushes carry it so clients spot a gap.
    version = models.PositiveBigIntegerField(default=0)
    # With the id, names this row for the screens' per-process caches (casino.reads.version_key): a
    # test database that reuses a flushed id never gets another table's cached state.
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["pit__name", "name"]
        verbose_name = _("table")
        constraints = [
            models.CheckConstraint(condition=models.Q(min_ante__gt=0), name="table_min_ante_positive"),
            models.CheckConstraint(condition=models.Q(max_ante__gte=models.F("min_ante")), name="table_max_ge_min"),
            # THB-72: one table at each place of a pit
            models.UniqueConstraint(fields=["pit", "place"], name="table_place_unique_per_pit"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and not {"pit", "pit_id", "game", "place"} & set(update_fields):
            # The write path saves the version and status on every tap: nothing THB-72 counts.
            return super().save(*args, **kwargs)
        # A new table, or one moved or given another game: its pit boss may not cover more than
        # THB-72 allows. The pit's row is held so two tables added at once cannot both pass.
        with transaction.atomic():
            pit = Pit.objects.select_for_update().get(pk=self.pit_id)
            if self.place is None:
                self.place = next_place(pit)
                if update_fields is not None:
                    kwargs["update_fields"] = [*update_fields, "place"]
            check_pit_coverage(pit=pit, table=self)
            super().save(*args, **kwargs)

    def clean(self) -> None:
        if self.min_ante and self.max_ante and self.max_ante < self.min_ante:
            raise ValidationError(_("The maximum ante cannot be below the minimum (THB-19)."))
        if self.pit_id:
            check_pit_coverage(pit=self.pit, table=self)
        # The limits, the paytable's name and the house options as the engine reads them: a table the
        # engine would refuse at its first hand is refused here, where it is configured (issue #16).
        house = self.house_options if isinstance(self.house_options, dict) else None
        if house is None:
            raise ValidationError(_("The house options are an object of named options, such as "
                                    "{\"ante_pays_from\": \"flush\"}."))
        unknown = sorted(set(house) - set(HOUSE_OPTIONS))
        if unknown:
            raise ValidationError(_("Unknown house option %(unknown)s; the options are %(known)s.")
                                  % {"unknown": ", ".join(unknown), "known": ", ".join(HOUSE_OPTIONS)})
        if house.get("award_approver_role") not in (None, "pit_boss", "games_director"):
            raise ValidationError(_("The award approver is pit_boss or games_director (C-30)."))
        if self.min_ante and self.max_ante:
            try:
                table_rules(self)
            except RuleViolation as violation:
                raise ValidationError(explain(violation)) from None
            except (TypeError, ValueError, AttributeError):
                raise ValidationError(_("The house options are not valid: see the checklist's section 5.")) from None

    @property
    def group_name(self) -> str:
        return object_label(self)

    def ensure_boxes(self) -> None:
        """Every table has its seven boxes as rows, so links and bets can point at them."""
        existing = set(self.boxes.values_list("number", flat=True))
        Box.objects.bulk_create([Box(table=self, number=n) for n in BOX_NUMBERS if n not in existing])


class Box(models.Model):
    """One of the seven player places of a table (THB-05, THB-12)."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="boxes")
    number = models.PositiveSmallIntegerField(_("box"))

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("box")
        verbose_name_plural = _("boxes")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="box_unique_per_table"),
            models.CheckConstraint(condition=models.Q(number__gte=1, number__lte=7), name="box_number_1_to_7"),
        ]

    def __str__(self) -> str:
        return _("%(table)s, box %(number)d") % {"table": self.table.name, "number": self.number}


# --- The live game: sessions, hands and their frozen actions ----------------------------------------
#
# A hand's truth is its ordered HandAction rows, replayed through the rules engine
# (casino.rules.holdem_bonus); every write goes through tables.writing. The few
# columns on Hand that repeat what the replay says (phase, pending approvals, the
# house's net) are kept for the pit console's queries and rewritten by the services
# in the same transaction as the action that changes them.


class TableSession(models.Model):
    """A table's session: from the deck check at opening (THB-21) to its closing."""

    class Status(models.TextChoices):
        DECK_CHECK = "deck-check", _("Waiting for the deck check")
        OPEN = "open", _("Open")
        CLOSING = "closing", _("Waiting to close")
        CLOSED = "closed", _("Closed")
        # THB-22: the pit boss found the deck incomplete or flawed; the table did not open.
        DECK_REFUSED = "deck-refused", _("Deck refused")

    LIVE = (Status.DECK_CHECK, Status.OPEN, Status.CLOSING)

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="sessions")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DECK_CHECK)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("opening asked by")
    )
    requested_at = models.DateTimeField(_("opening asked at"))
    deck_checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("deck checked by"),
    )
    deck_checked_at = models.DateTimeField(_("deck checked at"), null=True, blank=True)
    opened_at = models.DateTimeField(_("opened at"), null=True, blank=True)
    closing_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("closing asked by"),
    )
    closing_requested_at = models.DateTimeField(_("closing asked at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("closed by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "-requested_at"]
        verbose_name = _("table session")
        constraints = [
            # One live session per table: a second "open" request can never start a parallel session.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status__in=["deck-check", "open", "closing"]),
                name="one_live_session_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.requested_at:%Y-%m-%d %H:%M} ({self.status})"


class Seating(models.Model):
    """One player's stay at a box, within one table session: what a player's QR link belongs to.

    A link bound to the box itself outlived the session and showed the box's next occupant their
    hole cards (issue #12). A seating ends when its session closes, or when the dealer says a new
    player took the box; its links are revoked in the same transaction, and every phone open on them
    is told and shut (tables.sessions.end_seatings). A phone sees only the hands numbered from
    ``first_hand`` on: the hands before belong to whoever sat there before.
    """

    class EndReason(models.TextChoices):
        SESSION_CLOSED = "session-closed", _("The table closed")
        NEW_PLAYER = "new-player", _("A new player took the box")

    box = models.ForeignKey(Box, verbose_name=_("box"), on_delete=models.PROTECT, related_name="seatings")
    session = models.ForeignKey(
        TableSession, verbose_name=_("session"), on_delete=models.PROTECT, related_name="seatings"
    )
    # Hand numbers run per table (Hand.number), across sessions.
    first_hand = models.PositiveIntegerField(_("first hand"))
    started_at = models.DateTimeField(_("started at"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("started by")
    )
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("ended by"),
    )
    end_reason = models.CharField(_("why it ended"), max_length=20, choices=EndReason.choices, blank=True)

    class Meta:
        ordering = ["box", "-started_at"]
        verbose_name = _("seating")
        constraints = [
            # One player at a box at a time: a second open seating would let two people's phones share it.
            models.UniqueConstraint(fields=["box"], condition=models.Q(ended_at__isnull=True),
                                    name="one_open_seating_per_box"),
        ]

    def __str__(self) -> str:
        return str(self.box)

    @property
    def table(self) -> Table:
        return self.box.table

    @property
    def number(self) -> int:
        return self.box.number


class Hand(models.Model):
    """One round of Texas Hold'em Bonus at a table; its state is the replay of its actions."""

    class Mode(models.TextChoices):
        RECORDED = "recorded", _("Recorded cards")
        DEALT = "dealt", _("Electronic shoe")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="hands")
    session = models.ForeignKey(
        TableSession, verbose_name=_("session"), on_delete=models.PROTECT, related_name="hands"
    )
    number = models.PositiveIntegerField(_("hand number"))
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.RECORDED)
    # The TableRules the hand was played under (TableRules.to_dict()): a later change of the
    # table's limits or paytable never changes how a past hand replays.
    rules = models.JSONField(_("rules"))
    # Repeats of what the replay says, for the console's queries (see the note above).
    phase = models.CharField(_("phase"), max_length=20, default="bets-open")
    pending_approvals = models.PositiveSmallIntegerField(_("awards waiting for approval"), default=0)
    house_net = models.BigIntegerField(_("house result"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("started by")
    )
    started_at = models.DateTimeField(_("started at"))
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        verbose_name = _("hand")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table")]

    def __str__(self) -> str:
        return _("%(table)s, hand %(number)d") % {"table": self.table.name, "number": self.number}

    @property
    def is_over(self) -> bool:
        """Settled or void (an award may still wait for approval)."""
        return self.phase in ("settled", "void")

    @property
    def is_finished(self) -> bool:
        """Nothing more can happen in it: settled with every award decided, or void."""
        return self.is_over and not self.pending_approvals


class HandAction(AppendOnly):
    """One frozen record of a hand, in order. Append-only: a mistake is undone by a later row.

    ``record`` is the engine action's ``to_dict()``; an undo row has ``undoes`` set, a
    ``reason``, and ``record = {"action": "undo", "seq": <undone seq>}``. Replaying a hand skips
    undone rows and undo rows. On PostgreSQL a trigger refuses UPDATE and DELETE (migration 0003).
    """

    history = "hand actions"

    UNDO = "undo"

    hand = models.ForeignKey(Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("action"), max_length=40)
    record = models.JSONField(_("record"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    role = models.CharField(_("role"), max_length=40, blank=True)
    at = models.DateTimeField(_("at"))
    # The tablet's idempotency key of the request that wrote this row (one request may write several).
    key = models.CharField(_("request key"), max_length=100, db_index=True)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by", verbose_name=_("undoes")
    )
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["hand", "seq"]
        verbose_name = _("hand action")
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="hand_action_seq_unique")]

    def __str__(self) -> str:
        return f"{self.hand_id}#{self.seq} {self.kind}"


class Alert(models.Model):
    """Something the pit boss must see: an irregularity, a void hand, an award to approve, a deck refused
    or counted wrong (THB-16), cards the dealer suspects (THB-17)."""

    class Kind(models.TextChoices):
        IRREGULARITY = "irregularity", _("Irregularity")
        VOID = "void", _("Hand void")
        APPROVAL = "approval", _("Award waiting for approval")
        DECK = "deck", _("Deck refused")
        DECK_COUNT = "deck-count", _("Deck count wrong")
        SUSPECT_CARDS = "suspect-cards", _("Cards suspected marked or flawed")
        # issue #39: a closing float signed with a difference from what the hands and slips say
        BANK_DIFFERENCE = "bank-difference", _("Closing float with a difference")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="alerts")
    hand = models.ForeignKey(
        Hand, verbose_name=_("hand"), null=True, blank=True, on_delete=models.PROTECT, related_name="alerts"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # An English msgid and its parameters: each viewer reads it in their own language (``text``).
    message = models.CharField(_("message"), max_length=300)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("raised by")
    )
    created_at = models.DateTimeField(_("created at"))
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("acknowledged by"),
    )
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("alert")

    def __str__(self) -> str:
        # Its text in the viewer's language is a read (its hand may be replayed): tables.reads.alert_text.
        return f"{self.table} {self.kind}: {self.message}"


class TableRequest(WriteRequest):
    """A write request at a table, kept under its idempotency key (casino.writes.Aggregate), with the hand
    its answer names."""

    owner_field = "table"

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="requests")
    table_version = models.PositiveBigIntegerField()
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("table request")
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="table_request_key_unique")]


# --- The table's rules as the engine reads them (the paytables' rows above) --------------------------------


def known_paytable_names() -> list[str]:
    """Every name a table may play: the engine's paytables, then the casino's with a version."""
    own = Paytable.objects.filter(versions__isnull=False).distinct().order_by("name").values_list("name", flat=True)
    return [*paytable_names(), *own]


def resolve_paytable(name: str, version: int | None = None) -> RulesPaytable:
    """The paytable a table named ``name`` plays: the engine's of that name, or the casino's at its latest
    version (or at ``version``). Unknown names are refused citing THB-53, with the names that exist."""
    if is_registered(name):
        if version is not None:
            raise RuleViolation(N_("The paytable %(name)r is the engine's: it has no versions"), "THB-53", name=name)
        return get_paytable(name)
    rows = PaytableVersion.objects.select_related("paytable").filter(paytable__name=name)
    row = rows.filter(number=version).first() if version is not None else rows.order_by("-number").first()
    if row is None:
        if version is not None and rows.exists():
            raise RuleViolation(N_("The paytable %(name)r has no version %(version)s"), "THB-53", name=name,
                                version=version)
        raise RuleViolation(N_("There is no paytable named %(name)r; known paytables: %(known)s"), "THB-53",
                            name=name, known=", ".join(known_paytable_names()))
    return row.engine_paytable()


def max_ante_multiple(table: Table) -> dict:
    """THB-18's multiple as the table's house options set it (``{"max_ante_multiple": None}``: any maximum from
    the minimum up), or nothing: the engine's default, 20."""
    house = table.house_options if isinstance(table.house_options, dict) else {}
    return {"max_ante_multiple": house["max_ante_multiple"]} if "max_ante_multiple" in house else {}


def table_rules(table: Table) -> TableRules:
    """The engine's configuration from the table's limits, paytable and house options. A casino's own
    paytable is read at its latest version (``tables.paytables``): the version a new hand keeps."""
    house = table.house_options or {}
    options = {}
    if "ante_pays_from" in house:
        options["ante_pays_from"] = house["ante_pays_from"]
    if "approval_awards" in house:
        options["approval_awards"] = frozenset(house["approval_awards"])
    if house.get("approval_above") is not None:
        options["approval_above"] = house["approval_above"]
    if "release_every_bonus" in house:
        options["release_every_bonus"] = house["release_every_bonus"]
    options.update(max_ante_multiple(table))
    return TableRules(
        min_ante=table.min_ante,
        max_ante=table.max_ante,
        min_bonus=table.bonus_min,
        max_bonus=table.bonus_max,
        paytable=resolve_paytable(table.paytable),
        **options,
    )


class PitRotation(models.Model):
    """The dealers' rotation of a pit (issue #38 item 5; RP-07): its pit boss's setup, from which
    ``casino.rules.rotation.schedule`` says who deals at which table and when the next change is; the pit has no
    levels, so only the rotation's own breaks stop the changes. Written by ``tables.rotation`` (the pit's row
    locked, audited, the pit's console told after commit); each table follows it between hands."""

    pit = models.OneToOneField(Pit, on_delete=models.PROTECT, related_name="dealer_rotation")
    #: the dealers' user ids, in the rotation's order
    dealers = models.JSONField(_("dealers"))
    #: the tables' ids, in the rotation's order (their places in the pit, by default)
    tables = models.JSONField(_("tables"))
    down_minutes = models.PositiveSmallIntegerField(_("down (minutes)"))
    starts_at = models.DateTimeField(_("starts at"))
    #: the rotation's own breaks: [[start, end], ...] as ISO times
    breaks = models.JSONField(_("breaks"), default=list, blank=True)

    class Meta:
        verbose_name = _("dealers' rotation of a pit")

    def __str__(self) -> str:
        return f"{self.pit} — {self.down_minutes}'"


# --- The table's bank (issue #39: docs/bank.md) ------------------------------------------------------------


def chip_denominations(table: Table) -> tuple[int, ...]:
    """The house's chips at ``table``: its house option ``chip_denominations``, else the engine's default."""
    from casino.rules.bank import DEFAULT_DENOMINATIONS

    house = table.house_options if isinstance(table.house_options, dict) else {}
    found = house.get("chip_denominations")
    if isinstance(found, list) and found and all(isinstance(d, int) and not isinstance(d, bool) and d > 0
                                                  for d in found):
        return tuple(sorted(set(found)))
    return DEFAULT_DENOMINATIONS


def markers_allowed(table: Table) -> bool:
    """House option ``markers_allowed`` (default: no markers at the tables; docs/bank.md says why)."""
    house = table.house_options if isinstance(table.house_options, dict) else {}
    return house.get("markers_allowed") is True


class BankRecord(AppendOnly):
    """The bank's history: floats counted and signed, slips' steps, the drop, the report's signatures."""

    history = "the bank's records"

    class Meta:
        abstract = True


class FloatCount(BankRecord):
    """The chips in the tray by denomination (THB-70's float), counted by the dealer at the opening or the
    closing of a session; a recount is a new row. The pit boss's signature is its ``FloatSignature``."""

    class Stage(models.TextChoices):
        OPENING = "opening", _("Opening")
        CLOSING = "closing", _("Closing")

    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="float_counts")
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices)
    chips = models.JSONField(_("chips by denomination"))
    total = models.BigIntegerField(_("total"))
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("counted by"))
    counted_at = models.DateTimeField(_("counted at"))

    class Meta:
        ordering = ["session", "counted_at", "pk"]
        verbose_name = _("float count")

    def __str__(self) -> str:
        return f"{self.session_id} {self.stage} {self.total}"


class FloatSignature(BankRecord):
    """The pit boss's signature of a float count; a closing's carries what the tray should have held and, when
    the count does not add up, the reason it was signed anyway."""

    count = models.OneToOneField(FloatCount, on_delete=models.PROTECT, related_name="signature")
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("signed by"))
    signed_at = models.DateTimeField(_("signed at"))
    expected = models.BigIntegerField(_("expected"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("float signature")

    def __str__(self) -> str:
        return f"{self.count_id} signed by {self.signed_by_id}"


class ChipSlip(models.Model):
    """A fill (chips from the cage to a table) or a credit (back to the cage): numbered, its chips by
    denomination, its four steps each signed by another logged-in person (``ChipSlipStep``). The aggregate its
    steps are written to (``tables.bank``, through ``casino.writes``); ``state`` repeats its last step."""

    class Kind(models.TextChoices):
        FILL = "fill", _("Fill")
        CREDIT = "credit", _("Credit")

    class State(models.TextChoices):
        REQUESTED = "requested", _("Requested")
        ISSUED = "issued", _("Issued by the cage")
        RELEASED = "released", _("Released by the table")
        CARRIED = "carried", _("Carried by security")
        RECEIVED = "received", _("Received")
        VOIDED = "voided", _("Void")  # unused: voided by the pit boss with a reason, takes no more steps

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="slips", verbose_name=_("table"))
    session = models.ForeignKey(TableSession, null=True, blank=True, on_delete=models.PROTECT, related_name="slips")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    chips = models.JSONField(_("chips by denomination"))
    amount = models.BigIntegerField(_("amount"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.REQUESTED)
    #: when its chips entered (a fill) or left (a credit) the tray
    in_tray_at = models.DateTimeField(_("in the tray at"), null=True, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(_("requested at"), default=timezone.now)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("fill or credit slip")

    def __str__(self) -> str:
        return f"{self.number} {self.kind}"

    @property
    def number(self) -> str:
        return f"{'F' if self.kind == self.Kind.FILL else 'C'}-{self.pk:06d}"


class ChipSlipStep(BankRecord):
    """One signed step of a slip, in order; the pit boss's voiding of an unused slip is its last, with the reason."""

    slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, related_name="steps")
    seq = models.PositiveSmallIntegerField(_("number"))
    step = models.CharField(_("step"), max_length=10)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("signed by"))
    at = models.DateTimeField(_("at"))
    #: why an unused slip was voided; blank for a step signed (the database's default too, for rows it is not given)
    reason = models.CharField(_("reason"), max_length=200, blank=True, default="", db_default="")

    class Meta:
        ordering = ["slip", "seq"]
        verbose_name = _("slip step")
        constraints = [models.UniqueConstraint(fields=["slip", "seq"], name="slip_step_seq_unique")]

    def __str__(self) -> str:
        return f"{self.slip_id} #{self.seq} {self.step}"


class ChipSlipRequest(WriteRequest):
    """A write on a slip kept under its idempotency key (casino.writes.Aggregate)."""

    owner_field = "slip"

    slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, related_name="requests")
    slip_version = models.PositiveBigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["slip", "key"], name="slip_request_key_unique")]


class DropEntry(BankRecord):
    """Cash (or a marker, where the house allows) exchanged for chips at a table, recorded by its dealer as it
    happens: the chips leave the tray, the cash goes to the drop box."""

    class Kind(models.TextChoices):
        CASH = "cash", _("Cash")
        MARKER = "marker", _("Marker")

    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="drops")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.CASH)
    amount = models.BigIntegerField(_("amount"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("recorded by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["session", "at", "pk"]
        verbose_name = _("drop")

    def __str__(self) -> str:
        return f"{self.session_id} {self.kind} {self.amount}"


class ShiftReportSignature(BankRecord):
    """The games director's signature of a shift report: its window and its figures as signed."""

    starts_at = models.DateTimeField(_("shift from"))
    ends_at = models.DateTimeField(_("shift to"))
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("signed by"))
    signed_at = models.DateTimeField(_("signed at"))
    figures = models.JSONField(_("figures"))

    class Meta:
        ordering = ["-signed_at"]
        verbose_name = _("shift report signature")

    def __str__(self) -> str:
        return f"{self.starts_at:%Y-%m-%d %H:%M} - {self.ends_at:%Y-%m-%d %H:%M}"
