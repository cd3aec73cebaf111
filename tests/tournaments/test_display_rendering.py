"""What the tournament's screens render from a board (tournaments.rendering), without a database.

The clock display and the phone carry the server's "now" and the instant each countdown ends, which
static/js/tournament_clock.js counts down to: these tests read those data attributes. The clock
itself is the pure ``clock_at`` (tested in tests/rules/tournament), read here from stored events.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from casino.rules.tournament.clock import ClockEvent
from casino.rules.tournament.structure import Break, Level, Structure
from tournaments import projections
from tournaments.reads import event as event_reads
from tournaments.reads.event import Announcement, Board, Finish, MoveNotice, SeatAt
from tournaments.rendering import clock as clock_screen
from tournaments.rendering import phone as phone_screen
from tournaments.templatetags.tournament_display import chips, clock_time

START = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
STRUCTURE = Structure(steps=(Level(100, 200, 0, minutes=20), Level(200, 400, 400, minutes=20), Break(minutes=10),
                             Level(300, 600, 600, minutes=20)))


def board(**changes) -> Board:
    base = Board(tournament_id=7, version=3, name="Sunday Deepstack", status="running", status_label="Running",
                 structure=STRUCTURE, clock_events=(ClockEvent("start", START),), entries=120, players_left=87,
                 chips_in_play=120 * 20000, prize_pool=1_200_000, prizes=(420_000, 260_000, 160_000, 120_000),
                 entry_numbers=frozenset({5, 9}))
    return replace(base, **changes)


def attr(html: str, role_or_id: str, name: str) -> str | None:
    match = re.search(rf'<[^>]*(?:data-role|id)="{role_or_id}"[^>]*>', html)
    assert match, f"no element {role_or_id}"
    found = re.search(rf'\s{name}(?:="([^"]*)")?[\s>]', match.group(0))
    return (found.group(1) or "") if found else None


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_a_running_level_counts_down_to_its_exact_end_and_the_break_after_the_next_level():
    now = START + timedelta(minutes=7, seconds=12.3456)
    view = clock_screen.clock_view(board(), now)
    assert view.reading.running and view.reading.step == 0
    assert view.step_ends_at == START + timedelta(minutes=20)
    # Level 2 ends at 40 minutes and the break comes right after it.
    assert view.break_at == START + timedelta(minutes=40)


def test_the_last_level_past_its_time_counts_on_and_is_never_stuck_at_zero():
    html = clock_screen.clock_display_fragment(board(), START + timedelta(minutes=70, seconds=5))
    assert attr(html, "clock-display", "data-state") == "running"
    assert attr(html, "time-left", "data-countdown-to") is None
    since = int(attr(html, "time-left", "data-countup-from"))
    assert abs(since - (START + timedelta(minutes=70)).timestamp() * 1000) <= 1000
    assert ">+0:05<" in html and "Last level" in html


def test_the_display_carries_the_server_now_and_the_end_instant_the_browser_counts_down_to(monkeypatch):
    server_now = START + timedelta(minutes=5)
    monkeypatch.setattr(clock_screen.timezone, "now", lambda: server_now)
    html = clock_screen.clock_display_fragment(board())
    assert attr(html, "clock-display", "data-server-now") == str(round(server_now.timestamp() * 1000))
    assert attr(html, "clock-display", "data-version") == "3"
    assert attr(html, "clock-display", "data-state") == "running"
    ends = int(attr(html, "time-left", "data-countdown-to"))
    assert abs(ends - (START + timedelta(minutes=20)).timestamp() * 1000) <= 2
    # At zero the screen asks its socket for the current state (the level ends by time, no write).
    assert attr(html, "time-left", "data-refresh-at-zero") == ""
    assert ">15:00<" in html  # the time left, for the first paint
    assert "100 / 200" in html and "200 / 400" in html  # this level and the next


def test_a_paused_clock_says_paused_never_break_and_does_not_count_down():
    paused = board(clock_events=(ClockEvent("start", START), ClockEvent("pause", START + timedelta(minutes=3))))
    html = clock_screen.clock_display_fragment(paused, START + timedelta(minutes=30))
    assert attr(html, "clock-display", "data-state") == "paused"
    assert "Clock paused" in html and ">Break<" not in html
    assert attr(html, "time-left", "data-countdown-to") is None
    assert ">17:00<" in html


def test_a_break_is_shown_as_a_break_with_its_own_countdown():
    now = START + timedelta(minutes=43)
    html = clock_screen.clock_display_fragment(board(), now)
    assert attr(html, "clock-display", "data-state") == "break"
    ends = int(attr(html, "time-left", "data-countdown-to"))
    assert abs(ends - (START + timedelta(minutes=50)).timestamp() * 1000) <= 2
    assert "300 / 600" in html  # the level after the break


def test_the_display_shows_counts_average_pool_and_the_ladder_but_no_name_or_entry():
    seated = board(seats={5: SeatAt(3, 4)}, announcements=(Announcement(START, "Dinner break at level 6"),),
                   finishes={9: Finish((88,), 0)})
    html = clock_screen.clock_display_fragment(seated, START + timedelta(minutes=1))
    assert "87 of 120" in html
    assert chips(120 * 20000 // 87) in html and chips(1_200_000) in html
    assert [int(p.replace(",", "")) for p in re.findall(r'class="prize">([\d,]+)<', html)] == [
        420_000, 260_000, 160_000, 120_000]
    assert "Dinner break at level 6" in html
    assert "Table" not in html and "Seat" not in html and "Entry" not in html


def test_a_phone_shows_its_own_seat_and_a_move_notice_and_nothing_of_another_entry():
    now = START + timedelta(minutes=10)
    moved = board(seats={5: SeatAt(3, 4), 9: SeatAt(6, 2)},
                  moves={5: MoveNotice(now - timedelta(minutes=1), "balance", 3, 4, 8, 7),
                         9: MoveNotice(now - timedelta(minutes=2), "break", 6, 2, 1, 1)})
    html = phone_screen.phone_view(moved, 5, now)
    assert attr(html, "table", "data-role") == "table" and '<strong data-role="table">3</strong>' in html
    assert '<strong data-role="seat-number">4</strong>' in html
    assert "From table 8, seat 7, to table 3, seat 4." in html
    assert "table 6" not in html and "Entry 9" not in html and "table 1," not in html
    # An old move is not a notice any more.
    later = now + event_reads.MOVE_NOTICE + timedelta(seconds=61)
    assert "You have been moved" not in phone_screen.phone_view(moved, 5, later)


def test_a_new_version_that_leaves_a_phone_as_it_was_is_not_rendered_again(monkeypatch):
    """At a hundred dealt tables a hand ends about every second: a thousand phones rendered again for each
    was most of the load; the version they show is stamped on the render they already had."""
    renders = []
    real = phone_screen.render_to_string
    monkeypatch.setattr(phone_screen, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    seated = board(seats={5: SeatAt(3, 4), 9: SeatAt(6, 2)})
    now = START + timedelta(minutes=10)
    first = phone_screen.phone_view(seated, 5, now)
    later = phone_screen.phone_view(replace(seated, version=4), 5, now)
    assert renders == ["tournaments/_phone_own.html", "tournaments/_phone_shared.html",
                       "tournaments/player_fragment.html"]
    assert 'data-version="3"' in first and 'data-version="4"' in later
    # the same render, but for its version and the server's "now" stamped at each send (a millisecond may pass)
    def unstamped(html):
        return re.sub(r'data-server-now="\d+"', "", html)

    assert unstamped(later.replace('data-version="4"', 'data-version="3"')) == unstamped(first)
    # What the phone shows changes: a bust elsewhere (players left), its own move: rendered again.
    busted = phone_screen.phone_view(replace(seated, version=5, players_left=86), 5, now)
    assert "86 of 120" in busted and len(renders) == 5
    moved = replace(seated, version=6, seats={5: SeatAt(8, 1), 9: SeatAt(6, 2)})
    assert '<strong data-role="table">8</strong>' in phone_screen.phone_view(moved, 5, now) and len(renders) == 7


def test_a_bust_anywhere_renders_what_every_phone_shows_once_for_all_of_them_and_no_phones_own_part(monkeypatch):
    """A bust changes the counts every phone of the event shows: a thousand phones each rendered whole for
    it would be the load of an event's busts (docs/decisions/2026-11-26-phone-in-three-parts.md). The part
    they all show is rendered once, each phone's own part is kept."""
    seated = board(seats={5: SeatAt(3, 4), 9: SeatAt(6, 2)})
    now = START + timedelta(minutes=10)
    before = {number: phone_screen.phone_view(seated, number, now) for number in (5, 9)}
    renders = []
    real = phone_screen.render_to_string
    monkeypatch.setattr(phone_screen, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    busted = replace(seated, version=4, players_left=86)
    after = {number: phone_screen.phone_view(busted, number, now) for number in (5, 9)}
    assert renders.count("tournaments/_phone_shared.html") == 1
    assert "tournaments/_phone_own.html" not in renders
    assert all("86 of 120" in html and "87 of 120" in before[n] for n, html in after.items())
    assert '<strong data-role="table">3</strong>' in after[5] and '<strong data-role="table">6</strong>' in after[9]
    assert "Entry 9" not in after[5] and "Entry 5" not in after[9]


def _summary(**changes) -> dict:
    """A dealt table's summary (``hand_reads.summary_of``) mid-hand: entries 5 and 8 dealt in at seats 4 and 7."""
    return {"number": 3, "hand": 12, "phase": "betting", "paused": None, "street": "flop", "pot": 1_500,
            "in_play": True, "all_in": [], "stacks": {4: 8_250, 7: 11_000}, "to_act": 7, "board_held": False,
            "entries": {4: 5, 7: 8}, "clock": None, **changes}


def test_the_phones_summary_of_a_hand_holds_the_street_pot_stacks_by_seat_and_whose_turn_C_33():
    shown = projections.table_for_phones(3, 41, _summary())
    assert shown == {"table": 3, "version": 41, "hand": {
        "hand": 12, "in_play": True, "street": "flop", "pot": 1_500, "to_act": 7, "stacks": {"4": 8_250, "7": 11_000},
        "dealt": [4, 7], "clock": None, "time_to_act": None, "out_of_turn": [], "binding": None, "skipped": None}}
    # no entry (who sits where is the seating list's), nothing of the dealer's tablet, never a card
    assert "entries" not in shown["hand"] and "board_held" not in shown["hand"] and "phase" not in shown["hand"]
    assert projections.table_for_phones(3, 2, None) == {"table": 3, "version": 2, "hand": None}  # before a hand


def test_the_phones_summary_names_the_seat_the_clock_is_called_on_and_when_it_runs_out_C_04():
    clock = {"seat": 7, "ends_at": "2026-11-23T20:00:30+00:00", "seconds": 30, "countdown": 10}
    shown = projections.table_for_phones(3, 41, _summary(clock=clock))
    assert shown["hand"]["clock"] == {"seat": 7, "ends_ms": 1_795_464_030_000, "seconds": 30, "countdown": 10}


def test_every_phone_at_a_table_is_sent_the_same_message_made_once_per_table_version(monkeypatch):
    from tournaments.models import DealtTable
    from tournaments.reads.hands import SummaryAt

    table = DealtTable(pk=11, tournament_id=7, number=3, version=41, created_at=START)
    made = []
    real = phone_screen.table_for_phones
    monkeypatch.setattr(phone_screen, "table_for_phones", lambda *a: made.append(a) or real(*a))
    first = phone_screen.table_message(table, SummaryAt(41, _summary()))
    assert phone_screen.table_message(table, SummaryAt(41, _summary())) is first and len(made) == 1
    assert first.startswith('{"table_summary":{"table":3,"version":41,') and not re.search(r"[2-9TJQKA][cdhs]", first)
    assert phone_screen.table_message(table, SummaryAt(42, _summary(pot=2_000))) != first


def test_a_seated_phone_has_the_slot_its_part_of_the_hand_is_drawn_in_with_its_words_C_33():
    seated = board(seats={5: SeatAt(3, 4), 9: SeatAt(6, 2)})
    html = phone_screen.phone_view(seated, 5, START)
    assert attr(html, "hand", "data-table") == "3" and attr(html, "hand", "data-seat") == "4"
    assert attr(html, "hand", "data-thousands") == ","
    for words in ("Hand <span data-fill=\"hand\"></span>", "pot <span data-fill=\"pot\"></span>", "Your stack",
                  "Your turn", "Seat <span data-fill=\"to-act\"></span> to act", "The clock is called on you",
                  ">Flop<"):
        assert words in html
    with translation.override("es"):
        spanish, separator = phone_screen.phone_view(seated, 5, START), chips(1_000)[1:-3]
    assert "Mano <span data-fill=\"hand\"></span>" in spanish and f'data-thousands="{separator}"' in spanish
    # not seated: no slot
    assert 'data-role="hand"' not in phone_screen.phone_view(board(), 5, START)


def test_a_phone_shows_its_place_and_prize_once_out_and_the_winner_is_told():
    done = board(finishes={5: Finish((3,), 160_000), 9: Finish((1,), 420_000)}, leaving={5: "bust"})
    third = phone_screen.phone_view(done, 5, START)
    assert "You finished in place 3" in third and chips(160_000) in third and chips(420_000) not in third
    assert "You won the tournament!" in phone_screen.phone_view(done, 9, START)


def test_an_entry_corrected_away_shows_the_goodbye_not_the_event():
    html = phone_screen.phone_view(board(entry_numbers=frozenset({9})), 5, START)
    assert "data-access-ended" in html and "Sunday Deepstack" not in html


def test_the_clock_time_filter_reads_as_the_browser_script_does():
    assert [clock_time(s) for s in (0, 9, 75, 1200, 3725)] == ["0:00", "0:09", "1:15", "20:00", "1:02:05"]
    assert clock_time(-5) == "0:00"


@pytest.mark.parametrize("language", ["es", "en"])
def test_chips_are_grouped_by_thousands_as_the_language_writes_them_as_djangos_number_format(language):
    from django.utils.formats import number_format

    from tournaments.templatetags.tournament_display import chips

    with translation.override(language):
        for value in (0, 5, 999, 1_000, 12_500, -12_500, 1_200_000, 10**12, "4500"):
            assert chips(value) == number_format(int(value), force_grouping=True)
        assert chips(None) == chips("") == ""
        assert chips(12_500) == {"es": "12\xa0500", "en": "12,500"}[language]
