from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from casino.audit import RecordCheck, register_record_check
        from casino.player_views import SeatScreen, register_seat
        from tournaments.audit_check import (
            verify_dealers,
            verify_dealt_hands,
            verify_exclusion_list,
            verify_players,
            verify_tournaments,
        )
        from tournaments.models import Entry
        from tournaments.rendering import phone as phone_screen

        # A player's phone shows their entry (tournaments.rendering): one read per version and process,
        # then every phone of the event renders from memory, its link checked against that read; a tap
        # at the entry's table (its phones' group, which a phone changes when its player moves) is the table's
        # public summary, one message for every phone there after one read of the table per table version,
        # which each phone draws its own part of (after a fragment read in a worker thread: ``table_now``).
        register_seat(Entry, SeatScreen(
            groups=phone_screen.player_groups,
            render=phone_screen.player_fragment,
            from_memory=phone_screen.phone_from_memory,
            shared_read=phone_screen.phone_shared_read,
            versioned=phone_screen.versioned_groups,
            news=phone_screen.phone_news,
            news_now=phone_screen.table_now,
            groups_now=phone_screen.phone_groups_now,
        ))

        # verify_audit compares every tournament's record with the digests the log keeps of it.
        register_record_check(RecordCheck("Tournaments: {count} records checked against the log's digests of them.",
                                          verify_tournaments))
        # ... and the rows that decide money, who is paid, who may play and who deals (issue #34).
        register_record_check(RecordCheck("Tournament hands: {count} checked against the actions the log recorded "
                                          "for them, and replayed.", verify_dealt_hands))
        register_record_check(RecordCheck("Dealt tables: {count} dealers on duty checked against the log's last "
                                          "assignment.", verify_dealers))
        register_record_check(RecordCheck("Entries: {count} players and their ID documents checked against the "
                                          "log's registrations.", verify_players))
        # issue #39: the hands dealt with a deck, for the inspector (manage.py export_deck_hands)
        from casino.deck_reads import register_deck_hands
        from tournaments.reads.hands import hand_lines_with_deck

        register_deck_hands(hand_lines_with_deck)
        # ... and an event's stock of decks, its floor and director signing (casino's decks page)
        from casino.deck_reads import Stock, register_stock
        from tournaments.access import event_of_deck_stock, event_tables_for_decks, works_floor

        register_stock(Stock(find=event_of_deck_stock, may_sign=works_floor, name=lambda event: event.name,
                             places=event_tables_for_decks))
        # issue #38's edges: a tournament dealer's home page says where the rotation puts him next (RP-07)
        from casino.dealer_home import register_section
        from tournaments.rendering.dealer_home import rotation_section

        register_section(rotation_section)
        register_record_check(RecordCheck("Exclusion list: {count} entries checked against the digest of its last "
                                          "import.", verify_exclusion_list))
