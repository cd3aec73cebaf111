"""Poker tournaments and their entries."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.realtime import group_for


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REGISTERING = "registering", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    starts_at = models.DateTimeField(_("starts at"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    buy_in = models.PositiveIntegerField(_("buy-in"))
    starting_stack = models.PositiveIntegerField(_("starting stack"))
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
        return group_for(self)


class Entry(models.Model):
    """One player's entry in a tournament (CC-26: one per player unless re-entry is on)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player_name = models.CharField(_("player"), max_length=120)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    chips = models.PositiveBigIntegerField(_("chips"), default=0)

    class Meta:
        ordering = ["tournament", "registered_at"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.player_name} ({self.tournament})"
