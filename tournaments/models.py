"""Poker tournaments: the event, its players and entries, and its append-only record (issue #14).

The record (``TournamentEvent``) is what is exported (docs/tournament-record.md): it names entries by
their number only. Names, ID documents and birth dates live in ``Player`` and ``IdCheck`` rows, never
in the record.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import AppendOnly, WriteRequest, label_of, object_label

SEATS_PER_TABLE = ((10, "10"), (9, "9"), (8, "8"), (6, _("6-max")))


def normalise_id_number(number: str) -> str:
    """The ID number as compared: upper case, letters and digits only ("12.345.678" = "12345678")."""
    return re.sub(r"[^0-9A-Z]", "", (number or "").upper())


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REGISTERING = "registering", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    buy_in = models.PositiveIntegerField(_("buy-in"))
    fee = models.PositiveIntegerField(_("fee"), default=0)
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    seats_per_table = models.PositiveSmallIntegerField(_("seats per table"), choices=SEATS_PER_TABLE, default=9)
    structure = models.JSONField(_("structure"), default=dict, blank=True)
    #: [[most entries, [shares in basis points, place 1 first]], ...]; empty: the house default
    payout_table = models.JSONField(_("payout table"), default=list, blank=True)
    break_order = models.JSONField(_("break order"), default=list, blank=True)
    late_registration_level = models.PositiveSmallIntegerField(_("late registration until level"), null=True,
                                                               blank=True)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("tournament director"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="directed_tournaments",
    )
    house_options = models.JSONField(_("house options"), default=dict, blank=True)
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("tournament")

    def __str__(self) -> str:
        return self.name

    @property
    def group_name(self) -> str:
        return object_label(self)

    @property
    def deck_stock(self) -> str:
        """The label of the event's stock of decks (issue #39, docs/decks.md): its tables' group."""
        return tables_group(self.pk)


class StructureTemplate(models.Model):
    """A saved structure (levels, breaks, denominations) a director copies into a new event."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    structure = models.JSONField(_("structure"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("structure template")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays (CC-24: identified by an ID document). Never in the exported record."""

    name = models.CharField(_("name"), max_length=120)
    id_type = models.CharField(_("ID document type"), max_length=30)
    id_number = models.CharField(_("ID number"), max_length=40)  # normalise_id_number
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    image_consent = models.BooleanField(_("consents to image rights"), default=False)
    image_consent_at = models.DateTimeField(_("image consent given at"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        constraints = [models.UniqueConstraint(fields=["id_type", "id_number"], name="player_id_unique")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.id_number = normalise_id_number(self.id_number)
        super().save(*args, **kwargs)


class ExclusionListEntry(models.Model):
    """One person on the casino's exclusion or self-exclusion list (CC-23), as imported from a CSV file."""

    class Kind(models.TextChoices):
        EXCLUSION = "exclusion", _("Exclusion")
        SELF_EXCLUSION = "self_exclusion", _("Self-exclusion")

    id_type = models.CharField(_("ID document type"), max_length=30)
    id_number = models.CharField(_("ID number"), max_length=40, db_index=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    listed_on = models.DateField(_("listed on"), null=True, blank=True)
    imported_at = models.DateTimeField(_("imported at"))
    source = models.CharField(_("source file"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("exclusion list entry")
        verbose_name_plural = _("exclusion list")

    def __str__(self) -> str:
        return f"{self.id_type} {self.id_number} ({self.kind})"

    def save(self, *args, **kwargs):
        self.id_number = normalise_id_number(self.id_number)
        super().save(*args, **kwargs)


def event_screens_group(tournament_id: int) -> str:
    """The group of the event's screens away from its console: the players' phones, the room's clock
    displays and the dealers' tablets (for the event's part of them). Every change of the event is
    announced there but one: the report of a plain hand (no bust, no penalty served, no hand-for-hand,
    no balancing under way, its chips conserved) changes nothing those screens show but at its own
    table, whose screens hear the table's own announcement (``writing.only_its_table_sees``). At a
    hundred dealt tables a hand ends about every second: each was a push to every phone of the event.
    The console, which shows every table's stacks, follows the event's own group (``group_name``)."""
    return f"{label_of(Tournament, tournament_id)}.screens"


def table_phones_group(tournament_id: int, number: int) -> str:
    """The group of the phones of the players seated at the event's table ``number`` (besides the event's):
    the table announces each tap of its hands there (tournaments.services.dealing), one message a tap for all of
    them; a phone changes group when its player moves (``rendering.phone.phone_groups_now``)."""
    return f"{label_of(Tournament, tournament_id)}.table.{number}.phones"


def tables_group(tournament_id: int) -> str:
    """The group that hears of every tap at an event's dealt tables: the director's console follows it."""
    return f"{label_of(Tournament, tournament_id)}.tables"


class Entry(models.Model):
    """One entry in a tournament (CC-26: one per player unless re-entry is on). ``number`` is the
    opaque id the record uses."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        SEATED = "seated", _("Seated")
        BUSTED = "busted", _("Busted")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")
        BAGGED = "bagged", _("Bagged")  # his chips bagged at a day's end, for the next day (CC-09)

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(_("entry number"))
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    player_name = models.CharField(_("player"), max_length=120)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.REGISTERED)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    chips = models.PositiveBigIntegerField(_("chips"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique")]

    def __str__(self) -> str:
        return f"{self.player_name} ({self.tournament})"


class TournamentEvent(AppendOnly):
    """One event of the tournament's record, in order (casino.rules.tournament.record). Append-only: a
    mistake is corrected by a later ``correction`` event. On PostgreSQL a trigger refuses UPDATE and
    DELETE (migration 0003)."""

    history = "the tournament record's events"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("number"))
    at = models.DateTimeField(_("at"))
    type = models.CharField(_("type"), max_length=40)
    data = models.JSONField(_("data"), default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(_("request key"), max_length=100, blank=True)

    class Meta:
        ordering = ["tournament", "seq"]
        verbose_name = _("tournament event")
        constraints = [models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.seq} {self.type}"

    def as_record(self) -> dict:
        """The event as the record has it: seq, at (UTC, ISO 8601), type, then its fields."""
        from datetime import UTC

        return {"seq": self.seq, "at": self.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
                "type": self.type, **self.data}


class TournamentRequest(WriteRequest):
    """A write request on a tournament, kept under its idempotency key (casino.writes.Aggregate)."""

    owner_field = "tournament"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="requests")
    tournament_version = models.PositiveBigIntegerField()

    class Meta:
        verbose_name = _("tournament request")
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="tournament_request_key_unique")]


class IdCheck(AppendOnly):
    """An ID checkpoint passed (issue #14: entry, accreditation, seating each day, payout): who looked at
    which document. Kept here, not in the exported record (which has only the entry and the checkpoint).
    Append-only (issue #34): what was seen at a checkpoint, the prize payment's included (CC-15, CC-24),
    is never rewritten; on PostgreSQL a trigger refuses UPDATE and DELETE (migration 0007)."""

    history = "ID checks"

    class Checkpoint(models.TextChoices):
        ENTRY = "entry", _("Entry")
        ACCREDITATION = "accreditation", _("Accreditation")
        SEATING = "seating", _("Seating")
        PAYOUT = "payout", _("Payout")

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="id_checks")
    checkpoint = models.CharField(_("checkpoint"), max_length=20, choices=Checkpoint.choices)
    id_type = models.CharField(_("ID document type"), max_length=30)
    id_number = models.CharField(_("ID number seen"), max_length=40)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["at"]
        verbose_name = _("ID check")

    def __str__(self) -> str:
        return f"{self.entry_id} {self.checkpoint} {self.at:%Y-%m-%d %H:%M}"


# --- The dealers' tables (issue #15): each tournament table's hands, dealt through the Hold'em engine ---


class DealtTable(models.Model):
    """A tournament table as its dealer's tablet drives it: the aggregate its hands are written to
    (``tournaments.services.dealing``), one per table number of the event. Each table has its own lock and
    version, so a hundred tables deal at once; only a hand's end writes into the tournament's record."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="dealt_tables")
    number = models.PositiveSmallIntegerField(_("table"))
    version = models.PositiveBigIntegerField(default=0)
    #: The director paused play at this table (TDA-01: a ruling on the floor), with the reason he gave.
    paused_reason = models.CharField(_("paused because"), max_length=200, blank=True)
    #: The dealer on duty, whom the floor or the director assigns: the only dealer who deals here (the
    #: floor and the director may at any table of their event).
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("dealer on duty"), null=True, blank=True,
                               on_delete=models.PROTECT, related_name="dealt_tournament_tables")
    #: The deck in play here (issue #39, ``casino.decks``): each hand names it; it changes as the house sets
    #: (C-17: at the level's end, at a dealer change, when the director says). None: no deck recorded yet.
    deck = models.ForeignKey("casino.Deck", verbose_name=_("deck in play"), null=True, blank=True,
                             on_delete=models.PROTECT, related_name="+")
    # With the id, names this row for the per-process and shared caches (casino.reads.version_key): a
    # test database reuses ids, never creation stamps.
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("dealt tournament table")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="dealt_table_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"

    @property
    def group_name(self) -> str:
        return object_label(self)


class TableHand(models.Model):
    """One hand at a tournament table. Its ``setup`` is the hand line's table part (the engine's
    ``TableSetup.to_dict()`` and ``rules``): with its actions replayed it is the hand (``HoldemHand``)."""

    table = models.ForeignKey(DealtTable, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("hand number"))
    setup = models.JSONField(_("setup"))
    rules = models.JSONField(_("house rules"))
    #: seat -> entry, the players dealt in (as text keys: JSON)
    entries = models.JSONField(_("entries dealt in"))
    #: the level the hand is played at (TDA-23): {"small_blind", "big_blind", "ante", "level_number"}
    level = models.JSONField(_("level"))
    phase = models.CharField(_("phase"), max_length=20)
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    #: the tournament record's "hand" event this hand's end wrote (None: not reported, or a misdeal)
    reported_seq = models.PositiveIntegerField(_("reported as event"), null=True, blank=True)
    #: the deck it was dealt with (issue #39): a deck later found marked lists its hands in one query
    deck = models.ForeignKey("casino.Deck", verbose_name=_("deck"), null=True, blank=True, on_delete=models.PROTECT,
                             related_name="tournament_hands")

    class Meta:
        ordering = ["table", "-number"]
        verbose_name = _("tournament hand")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="table_hand_number_unique")]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"


class TableHandAction(AppendOnly):
    """One record of a tournament hand, in order (``casino.rules.holdem.actions``). Append-only: an undo
    is a later row naming the one it undoes, with its reason (CC-43)."""

    history = "a hand's actions"

    hand = models.ForeignKey(TableHand, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("record"))
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["hand", "seq"]
        verbose_name = _("tournament hand action")
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="table_hand_action_seq_unique")]
        # CC-133: a tablet counts a player's acts out of turn over the whole event (``reads.hands.out_of_turn_acts``);
        # the few such rows found by an index of their own, not by reading every act of every hand of a big event
        indexes = [models.Index(fields=["hand"], name="table_hand_action_oot",
                                condition=models.Q(record__action="out-of-turn"))]

    def __str__(self) -> str:
        return f"{self.hand} {self.seq} {self.record.get('action')}"


class TableRequest(WriteRequest):
    """A write request at a dealt table, kept under its idempotency key (casino.writes.Aggregate), with the
    hand its answer names."""

    owner_field = "table"

    table = models.ForeignKey(DealtTable, on_delete=models.PROTECT, related_name="requests")
    table_version = models.PositiveBigIntegerField()
    hand = models.ForeignKey(TableHand, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("tournament table request")
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="dealt_table_request_key_unique")]


class DealerRotation(models.Model):
    """The dealers' rotation of an event (issue #38 item 5; RP-07): the floor's setup, from which
    ``casino.rules.rotation.schedule`` and the event's clock say who deals where and when the next change is.
    Written through the event's write path (``tournaments.services.rotation``), audited; each table follows it
    between hands (its ``DealtTable.dealer``)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="dealer_rotation")
    #: the dealers' user ids, in the rotation's order
    dealers = models.JSONField(_("dealers"))
    #: the table numbers, in the rotation's order
    tables = models.JSONField(_("tables"))
    down_minutes = models.PositiveSmallIntegerField(_("down (minutes)"))
    starts_at = models.DateTimeField(_("starts at"))

    class Meta:
        verbose_name = _("dealers' rotation")

    def __str__(self) -> str:
        return f"{self.tournament} — {self.down_minutes}'"
