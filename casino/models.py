"""Shared core records: capabilities, the audit log and player links."""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from datetime import UTC

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def object_label(obj) -> str:
    """How the casino names one object, ``tables.table.3``, ``tournaments.tournament.1``: the name of
    its audit stream (casino.audit) and of its channel-layer group (casino.realtime) alike."""
    return label_of(type(obj), obj.pk)


def label_of(model: type[models.Model], pk: int) -> str:
    """``object_label`` from the model and the id, without making an instance (a push names groups on the
    event loop for every phone: a model instance costs more than the rest of it)."""
    return f"{model._meta.label_lower}.{pk}"


class Capability(models.Model):
    """No table: only the home of the role permissions (see casino.roles)."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            ("deal_table", "Deal at an assigned table"),
            ("supervise_pit", "Supervise the tables of a pit"),
            ("approve_payout", "Approve payouts that need a second person"),
            ("direct_games", "Direct the games of the casino"),
            ("direct_tournaments", "Direct tournaments"),
            ("run_tournament_floor", "Run a tournament's floor: busts, seats, chip counts, moves"),
            ("issue_player_link", "Issue and revoke player links"),
            ("view_audit", "Read the audit log"),
            ("work_cage", "Issue fills and receive credits at the cage"),
            ("carry_chips", "Carry fills and credits between the cage and the tables"),
        ]

    def __str__(self) -> str:  # pragma: no cover - never instantiated
        return "capability"


GENESIS_HASH = "0" * 64
# How an event's hash was made: keyed (HMAC-SHA256 with settings.AUDIT_KEY, every event written since
# the key was introduced) or plain SHA-256 (the events written before; verify_audit still checks them,
# but anyone can recompute those: what protects them is the first keyed event after them, which covers
# their hash, and the anchors).
KEYED, UNKEYED = "hmac-sha256", "sha256"


class AuditEvent(models.Model):
    """One recorded action: append-only and hash-chained per stream.

    Each stream (one per table, tournament, or ``casino`` for the rest) is a
    chain: ``seq`` runs 1, 2, 3... without gaps and every event carries the
    hash of the one before, an HMAC keyed with ``settings.AUDIT_KEY`` (kept
    outside the database). On PostgreSQL a trigger refuses UPDATE and DELETE
    (migration 0002) and the application's role may only read and insert
    (casino.db_roles); ``manage.py verify_audit`` walks every chain and checks
    it against the anchors written outside the database. Streams keep tables
    independent: one busy table never waits for another's lock.
    """

    stream = models.CharField(max_length=80, db_index=True)
    seq = models.PositiveBigIntegerField()
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    actor_label = models.CharField(max_length=150, blank=True)
    role = models.CharField(max_length=40, blank=True)
    action = models.CharField(max_length=80)
    object_type = models.CharField(max_length=80, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    details = models.JSONField(default=dict, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    scheme = models.CharField(max_length=16, default=KEYED)

    class Meta:
        ordering = ["stream", "seq"]
        constraints = [models.UniqueConstraint(fields=["stream", "seq"], name="audit_stream_seq_unique")]
        # verify_audit reads each hand's events by the hand (tables.audit_check).
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object")]
        verbose_name = _("audit event")

    def __str__(self) -> str:
        return f"{self.stream}#{self.seq} {self.action}"

    def canonical(self) -> str:
        """The exact text the hash covers: every field but the hash itself."""
        at = self.at.astimezone(UTC) if self.at.tzinfo else self.at
        return json.dumps(
            {
                "stream": self.stream,
                "seq": self.seq,
                "at": at.isoformat(timespec="microseconds"),
                "actor": self.actor_id,
                "actor_label": self.actor_label,
                "role": self.role,
                "action": self.action,
                "object_type": self.object_type,
                "object_id": self.object_id,
                "details": self.details,
                "prev_hash": self.prev_hash,
            },
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            default=str,
        )

    def compute_hash(self, key: bytes | None = None) -> str:
        """The event's hash by its scheme: keyed with ``key`` (default: settings.AUDIT_KEY), or plain."""
        text = self.canonical().encode()
        if self.scheme == UNKEYED:
            return hashlib.sha256(text).hexdigest()
        return hmac.new(key or settings.AUDIT_KEY.encode(), text, hashlib.sha256).hexdigest()


class PlayerLink(models.Model):
    """A player's passwordless way in: bound to one seat or tournament entry.

    The URL carries a signature of the id (casino.player_links), so it cannot
    be forged or guessed; the row decides whether it still works, so revoking
    takes effect at the next request or websocket message.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    seat_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    seat_id = models.PositiveBigIntegerField()
    seat = GenericForeignKey("seat_type", "seat_id")
    label = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["seat_type", "seat_id"])]
        verbose_name = _("player link")

    def __str__(self) -> str:
        return self.label or str(self.id)

    def is_usable(self, now=None) -> bool:
        now = now or timezone.now()
        return self.revoked_at is None and now < self.expires_at

    @property
    def group_name(self) -> str:
        return f"casino.playerlink.{self.id.hex}"


# --- Decks (issue #39): each deck's life, from the stock to its cancellation (casino.rules.decks) ---------


class Deck(models.Model):
    """One physical deck, from the pit's (or the tournament room's) stock to its cancellation: the aggregate
    its steps are written to (``casino.decks``, through ``casino.writes``). Its state is what the engine's
    ``casino.rules.decks.Deck`` makes of its steps; its steps are ``DeckStep`` rows, append-only.

    ``stock`` and ``place`` name the pit (or event) and the table by the core's labels (``object_label``:
    ``tables.pit.2``, ``tables.table.3``, ``tournaments.dealttable.7``): the core knows no game. They are also
    the channel-layer groups of the consoles and tablets that show them."""

    class State(models.TextChoices):
        IN_STOCK = "in-stock", _("In stock")
        ISSUED = "issued", _("Issued to a table")
        CHECKED = "checked", _("Checked")
        IN_PLAY = "in-play", _("In play")
        RETIRED = "retired", _("Retired")
        DEFECTIVE = "defective", _("Defective")
        CANCELLING = "cancelling", _("Counted, one signature")
        CANCELLED = "cancelled", _("Cancelled")

    stock = models.CharField(_("stock"), max_length=80, db_index=True)
    stock_name = models.CharField(_("stock's name"), max_length=120, blank=True)
    back = models.CharField(_("back's colour"), max_length=30)
    design = models.CharField(_("design"), max_length=80, blank=True)
    serial = models.CharField(_("lot or serial"), max_length=80)
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.IN_STOCK)
    place = models.CharField(_("table"), max_length=80, blank=True, db_index=True)
    place_name = models.CharField(_("table's name"), max_length=120, blank=True)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+", verbose_name=_("issued by"))
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("checked by"))
    defect = models.CharField(_("defect"), max_length=20, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    counted = models.PositiveSmallIntegerField(_("cards counted"), null=True, blank=True)
    signed_by = models.JSONField(_("cancellation signed by"), default=list, blank=True)
    #: What the table played when this deck went into play (a tournament's level and dealer: CC-71, TDA-26).
    in_play_at = models.JSONField(_("put in play at"), default=dict, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    received_at = models.DateTimeField(_("received at"), default=timezone.now)

    class Meta:
        ordering = ["stock", "serial"]
        verbose_name = _("deck")
        constraints = [models.UniqueConstraint(fields=["stock", "back", "serial"], name="deck_unique_in_stock")]

    def __str__(self) -> str:
        return f"{self.serial} ({self.back})"


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(f"{self.model.history} are append-only: they are never updated")

    def delete(self):
        raise TypeError(f"{self.model.history} are append-only: they are never deleted")


class AppendOnly(models.Model):
    """A row that is history: saved once, never changed or deleted, here and through its queryset; on
    PostgreSQL a trigger refuses UPDATE and DELETE too (casino.append_only, in each table's migration).
    ``history`` names the rows in the refusal."""

    history = "these records"

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError(f"{self.history} are append-only: they are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{self.history} are append-only: they are never deleted")


class WriteRequest(models.Model):
    """A write kept under its idempotency key (``casino.writes.write``): a double tap or a retry after the
    network lost the answer sends the same key again, finds this row (the unique constraint on the aggregate
    and the key is the backstop) and is answered what was answered, nothing applied a second time.

    Each kind of aggregate adds its foreign key to the aggregate (``owner_field``, its ``Aggregate.owner``),
    the version the write made (``Aggregate.version_field``), any foreign key its answer names, and that
    unique constraint, named in its own Meta: the names its migrations gave stay as they were."""

    #: the name of the foreign key to the aggregate written
    owner_field = ""

    key = models.CharField(_("request key"), max_length=100)
    action = models.CharField(_("action"), max_length=40)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("at"))
    alerts = models.JSONField(default=list, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{getattr(self, self.owner_field + '_id')}:{self.key} {self.action}"


class DeckStep(AppendOnly):
    """One step of a deck's life, in order: received, issued, checked, in play, retired, defective, each
    signature of its cancellation. Append-only (a trigger refuses UPDATE and DELETE); each has its audit
    event in the deck's stream."""

    history = "a deck's steps"

    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="steps")
    seq = models.PositiveIntegerField(_("number"))
    action = models.CharField(_("step"), max_length=40)
    place = models.CharField(_("table"), max_length=80, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("at"))
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["deck", "seq"]
        verbose_name = _("deck step")
        constraints = [models.UniqueConstraint(fields=["deck", "seq"], name="deck_step_seq_unique")]
        indexes = [models.Index(fields=["place", "at"], name="deck_step_place_at")]

    def __str__(self) -> str:
        return f"{self.deck_id} #{self.seq} {self.action}"


class DeckRequest(WriteRequest):
    """A write on a deck kept under its idempotency key (casino.writes.Aggregate)."""

    owner_field = "deck"

    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="requests")
    deck_version = models.PositiveBigIntegerField()

    class Meta:
        verbose_name = _("deck request")
        constraints = [models.UniqueConstraint(fields=["deck", "key"], name="deck_request_key_unique")]
