from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Texas Hold'em Bonus tables")

    def ready(self) -> None:
        from casino.audit import RecordCheck, register_record_check
        from casino.player_views import SeatScreen, register_seat
        from tables import rendering
        from tables.audit_check import verify_hands
        from tables.models import Seating

        # A player's phone shows their seating at a box (tables.rendering): registered here, so that
        # neither the core nor the model imports the screens.
        register_seat(Seating, SeatScreen(
            groups=rendering.player_groups,
            render=rendering.player_fragment,
            from_memory=rendering.player_fragment_from_memory,
            shared_read=rendering.player_shared_read,
        ))

        # verify_audit compares every hand's stored actions with what the audit log recorded for them.
        # issue #39: the hands dealt while a deck was in play, for the inspector (manage.py export_deck_hands)
        from casino.deck_reads import register_deck_hands
        from tables.reads import hand_lines_with_deck

        register_deck_hands(hand_lines_with_deck)
        # ... and a pit's stock of decks, its pit boss signing (casino's decks page, docs/decks.md)
        from casino.deck_reads import Stock, register_stock
        from tables.access import pit_of_stock, pit_tables_for_decks, supervises_pit

        register_stock(Stock(find=pit_of_stock, may_sign=supervises_pit, name=lambda pit: pit.name,
                             places=pit_tables_for_decks, home=_pit_console_url))
        register_record_check(RecordCheck("Hands: {count} checked against the actions the log recorded for them.",
                                          verify_hands))
        # issue #39: each fill or credit slip's steps against its stream (docs/bank.md)
        from tables.bank_reads import verify_slip_steps

        register_record_check(RecordCheck("Slips: {count} checked against the steps the log recorded for them.",
                                          verify_slip_steps))


def _pit_console_url(pit) -> str:
    """The pit's console, where its decks page links back to (issue #39)."""
    from django.urls import reverse

    return reverse("tables:pit_console", args=[pit.pk])
