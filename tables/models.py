"""Pits, Texas Hold'em Bonus tables and their boxes."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from casino.realtime import group_for

# THB-72: a pit boss covers at most four contiguous tables of one game, or two of mixed games.
MAX_TABLES_ONE_GAME = 4
MAX_TABLES_MIXED = 2
BOX_NUMBERS = range(1, 8)  # C-28: seven boxes (THB-12), numbered 1 to 7


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


def check_pit_size(pit: Pit, games: list[str]) -> None:
    """Refuse a pit larger than one jefe de mesa may cover (THB-72)."""
    if len(set(games)) > 1 and len(games) > MAX_TABLES_MIXED:
        raise ValidationError(
            _("A pit boss covers at most %(n)d tables of different games (THB-72).") % {"n": MAX_TABLES_MIXED}
        )
    if len(games) > MAX_TABLES_ONE_GAME:
        raise ValidationError(
            _("A pit boss covers at most %(n)d tables of the same game (THB-72).") % {"n": MAX_TABLES_ONE_GAME}
        )


class Table(models.Model):
    class Status(models.TextChoices):
        CLOSED = "closed", _("Closed")
        OPEN = "open", _("Open")

    pit = models.ForeignKey(Pit, verbose_name=_("pit"), on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(_("name"), max_length=60, unique=True)
    game = models.CharField(_("game"), max_length=30, choices=Game.choices, default=Game.TEXAS_HOLDEM_BONUS)
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

    class Meta:
        ordering = ["pit__name", "name"]
        verbose_name = _("table")
        constraints = [
            models.CheckConstraint(condition=models.Q(min_ante__gt=0), name="table_min_ante_positive"),
            models.CheckConstraint(condition=models.Q(max_ante__gte=models.F("min_ante")), name="table_max_ge_min"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.min_ante and self.max_ante and self.max_ante < self.min_ante:
            raise ValidationError(_("The maximum ante cannot be below the minimum (THB-19)."))
        if self.pit_id:
            others = list(self.pit.tables.exclude(pk=self.pk).values_list("game", flat=True))
            check_pit_size(self.pit, [*others, self.game])

    @property
    def group_name(self) -> str:
        return group_for(self)

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

    # The player-link protocol (casino.player_views).
    def player_groups(self) -> list[str]:
        return [self.table.group_name]

    def render_player_fragment(self, link) -> str:
        table = Table.objects.get(pk=self.table_id)  # fresh: the fragment shows the current version
        return render_to_string("tables/player_fragment.html", {"box": self, "table": table, "link": link})
