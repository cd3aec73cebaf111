"""The console on the real services: a director and the floor run an event through the forms, and every
refusal is said plainly (issue #14). The people and the event come from tests/tournaments/conftest.py."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from casino.rules.tournament.structure import Structure
from tests.tournaments.conftest import PLAYERS, act, english_client, form_guard, register
from tournaments import services
from tournaments.models import Entry, StructureTemplate, Tournament, TournamentEvent
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db


_client = english_client
_guard = form_guard


def _tap(client, tournament, action: str, **fields):
    return client.post(reverse("tournaments:act", args=[tournament.pk, action]), {**_guard(tournament), **fields},
                       HTTP_HX_REQUEST="true")


@pytest.fixture
def five_seated(registering, director_dora):
    for i in range(len(PLAYERS)):
        register(registering, director_dora, i)
    act(services.close_registration, registering, director_dora)
    act(services.start_tournament, registering, director_dora)
    registering.refresh_from_db()
    return registering


def _state(tournament):
    """The state as the record stands now (the state is cached per version: read the row's first)."""
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


def _seat_of(tournament, number: int) -> tuple[int, int]:
    entry = _state(tournament).entry(number)
    return entry.table, entry.seat


def test_a_director_registers_a_player_at_the_desk_and_gets_the_entry_receipt_a_tap_away(registering, director_dora):
    client = _client(director_dora)
    response = client.post(reverse("tournaments:registration", args=[registering.pk]), {
        **_guard(registering), "player_name": "Ana Ruiz", "id_type": "dni", "id_number": "30.123.456",
        "birth_date": "1990-05-01", "image_consent": "1"})
    entry = Entry.objects.get(tournament=registering, player_name="Ana Ruiz")
    assert response.status_code == 302
    # back at the desk (issue #36), the entry confirmed there with its receipt
    assert response["Location"] == reverse("tournaments:registration", args=[registering.pk]) + "?last=1"
    desk = client.get(response["Location"]).content.decode()
    assert reverse("tournaments:receipt", args=[registering.pk, entry.pk, "entry"]) in desk
    assert entry.player.image_consent


def test_a_minor_is_refused_with_the_reason_shown_and_the_refusal_recorded(registering, director_dora):
    response = _client(director_dora).post(reverse("tournaments:registration", args=[registering.pk]), {
        **_guard(registering), "player_name": "Nino Chico", "id_type": "dni", "id_number": "55.000.111",
        "birth_date": "2015-01-01"})
    html = response.content.decode()
    assert response.status_code == 422
    assert 'id="registration-notice"' in html and "18" in html
    assert 'value="Nino Chico"' in html  # the form is kept
    assert not Entry.objects.filter(tournament=registering).exists()
    assert TournamentEvent.objects.filter(tournament=registering, type="refused").count() == 1
    # the desk's list of refusals says why, too
    listed = _client(director_dora).get(reverse("tournaments:registration", args=[registering.pk])).content.decode()
    assert "CC-23" in listed


def test_a_registration_without_a_date_of_birth_is_bad_input_not_a_500(registering, director_dora):
    response = _client(director_dora).post(reverse("tournaments:registration", args=[registering.pk]), {
        **_guard(registering), "player_name": "Ana", "id_type": "dni", "id_number": "1", "birth_date": "ayer"})
    assert response.status_code == 400
    assert "The date of birth must be a date" in response.content.decode()


def test_the_draw_from_the_console_seats_everyone_and_the_plot_begins(five_seated, director_dora):
    html = _client(director_dora).get(reverse("tournaments:console", args=[five_seated.pk])).content.decode()
    assert 'id="ttable-1"' in html
    for number in range(1, len(PLAYERS) + 1):
        assert re.search(rf"#{number} \w+", html)
    assert 'class="field-plot"' in html


def test_the_clock_starts_and_pauses_with_one_tap_each(five_seated, director_dora):
    client = _client(director_dora)
    started = _tap(client, five_seated, "clock-start")
    assert started.status_code == 200 and 'data-action="clock-pause"' in started.content.decode()
    paused = _tap(client, five_seated, "clock-pause")
    assert paused.status_code == 200 and "Clock paused" in paused.content.decode()


def test_a_stale_screen_is_told_the_event_changed(five_seated, director_dora):
    client = _client(director_dora)
    old = _guard(five_seated)
    _tap(client, five_seated, "clock-start")
    response = client.post(reverse("tournaments:act", args=[five_seated.pk, "clock-pause"]), old,
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Since your screen: The clock started. Check and try again." in response.content.decode()


def test_a_rule_refusal_is_shown_with_its_clause_and_nothing_is_recorded(five_seated, director_dora):
    client = _client(director_dora)
    before = TournamentEvent.objects.filter(tournament=five_seated).count()
    response = _tap(client, five_seated, "clock-skip", step="999")  # past the structure's end
    assert response.status_code in (400, 422)
    assert 'class="notice notice-error"' in response.content.decode()
    assert TournamentEvent.objects.filter(tournament=five_seated).count() == before


def test_the_floor_records_a_bust_from_the_tables_page(five_seated, floor_fede):
    table, seat = _seat_of(five_seated, 3)
    client = _client(floor_fede)
    page = client.get(reverse("tournaments:table", args=[five_seated.pk, table])).content.decode()
    assert 'data-action="bust"' in page and 'data-action="disqualify"' not in page  # the floor's actions only
    response = client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                           {**_guard(five_seated), "table": str(table), "seats": [str(seat)]}, follow=True)
    assert response.status_code == 200
    assert _state(five_seated).entry(3).status == "busted"


def test_a_bust_at_an_empty_seat_is_refused_plainly(five_seated, floor_fede):
    table, _seat = _seat_of(five_seated, 1)
    taken = {s for s, _n in _state(five_seated).table(table).players}
    empty = next(s for s in range(1, 10) if s not in taken)
    response = _client(floor_fede).post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                                        {**_guard(five_seated), "table": str(table), "seats": [str(empty)]},
                                        follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "TDA-07" in html or "No one sits" in html


def test_two_busts_in_one_hand_need_their_stacks_at_its_start(five_seated, floor_fede):
    state = _state(five_seated)
    table = state.entry(1).table
    seats = [s for s, _n in state.table(table).players][:2]
    client = _client(floor_fede)
    missing = client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                          {**_guard(five_seated), "table": str(table), "seats": [str(s) for s in seats]}, follow=True)
    assert "The stack at the start of the hand of seat" in missing.content.decode()
    client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                {**_guard(five_seated), "table": str(table), "seats": [str(s) for s in seats],
                 f"stack_{seats[0]}": "4000", f"stack_{seats[1]}": "9000"})
    busts = [e for e in _state(five_seated).eliminations]
    assert len(busts) == 2
    assert {b.stack_at_start for b in busts} == {4000, 9000}
    assert busts[0].hand == busts[1].hand is not None  # one hand: CC-19 ranks them by those stacks


def test_two_busts_sent_with_a_long_key_are_both_recorded(five_seated, floor_fede):
    """Issue #34: each bust's key was ``key:i`` cut to 100 characters; with a key of 100 the second bust had the
    first's key, was answered as its duplicate and was lost while the page said "Recorded"."""
    state = _state(five_seated)
    table = state.entry(1).table
    seats = [s for s, _n in state.table(table).players][:2]
    long_key = "k" * 100
    response = _client(floor_fede).post(
        reverse("tournaments:act", args=[five_seated.pk, "bust"]),
        {**_guard(five_seated), "key": long_key, "table": str(table), "seats": [str(s) for s in seats],
         f"stack_{seats[0]}": "4000", f"stack_{seats[1]}": "9000"})
    assert response.status_code == 302 and "X-Refused" not in response
    assert len(_state(five_seated).eliminations) == 2
    assert TournamentEvent.objects.filter(tournament=five_seated, type="bust").count() == 2


def test_a_key_used_for_one_action_is_refused_for_another_with_409_and_nothing_changes(five_seated, director_dora):
    """Issue #34: a key reused by the same person for another action got the first action's stored answer, a
    200, and the screen said the second was done when nothing was."""
    client = _client(director_dora)
    used = _guard(five_seated)
    assert client.post(reverse("tournaments:act", args=[five_seated.pk, "clock-start"]), used,
                       HTTP_HX_REQUEST="true").status_code == 200
    before = TournamentEvent.objects.filter(tournament=five_seated).count()
    five_seated.refresh_from_db()
    version = five_seated.version
    again = client.post(reverse("tournaments:act", args=[five_seated.pk, "clock-pause"]),
                        {"version": str(version), "key": used["key"]}, HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    assert "This request was already used for something else" in again.content.decode()
    five_seated.refresh_from_db()
    assert five_seated.version == version
    assert TournamentEvent.objects.filter(tournament=five_seated).count() == before
    assert [e.kind for e in _state(five_seated).clock_events] == ["start"]
    # the same action sent again under its key is still the retry it was: its stored answer
    retry = client.post(reverse("tournaments:act", args=[five_seated.pk, "clock-start"]), used,
                        HTTP_HX_REQUEST="true")
    assert retry.status_code == 200
    assert TournamentEvent.objects.filter(tournament=five_seated).count() == before


def test_a_key_used_for_one_players_bust_is_refused_for_anothers_with_409(five_seated, floor_fede):
    """Issue #34: the same action on another object (another seat) under a used key is not that key's retry."""
    table, seat = _seat_of(five_seated, 3)
    other = next(s for s, n in _state(five_seated).table(table).players if n != 3)
    client = _client(floor_fede)
    used = _guard(five_seated)
    first = client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                        {**used, "table": str(table), "seats": [str(seat)]})
    assert first.status_code == 302 and "X-Refused" not in first
    again = client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                        {**_guard(five_seated), "key": used["key"], "table": str(table), "seats": [str(other)]},
                        follow=True)
    assert "This request was already used for something else" in again.content.decode()
    assert again.redirect_chain[0][0].endswith(f"/tables/{table}/")
    assert [e.entry for e in _state(five_seated).eliminations] == [3]
    retry = client.post(reverse("tournaments:act", args=[five_seated.pk, "bust"]),
                        {**used, "table": str(table), "seats": [str(seat)]})
    assert retry.status_code == 302 and "X-Refused" not in retry  # the same form again: its retry
    assert [e.entry for e in _state(five_seated).eliminations] == [3]


def test_the_floor_may_not_open_the_setup_nor_see_its_link(five_seated, floor_fede):
    client = _client(floor_fede)
    assert client.get(reverse("tournaments:setup", args=[five_seated.pk])).status_code == 403
    console = client.get(reverse("tournaments:console", args=[five_seated.pk])).content.decode()
    assert reverse("tournaments:setup", args=[five_seated.pk]) not in console


def test_the_floor_may_not_disqualify(five_seated, floor_fede):
    response = _tap(_client(floor_fede), five_seated, "disqualify", entry="1", reason="abuse")
    assert response.status_code == 403


def test_a_director_corrects_a_bust_with_a_reason_and_the_player_is_back(five_seated, director_dora):
    table, seat = _seat_of(five_seated, 2)
    act(services.record_bust, five_seated, director_dora, table=table, seat=seat)
    bust = TournamentEvent.objects.get(tournament=five_seated, type="bust")
    client = _client(director_dora)
    page = client.get(reverse("tournaments:record", args=[five_seated.pk])).content.decode()
    assert f'id="seq-{bust.seq}"' in page
    no_reason = client.post(reverse("tournaments:act", args=[five_seated.pk, "correct"]),
                            {**_guard(five_seated), "seq": str(bust.seq), "reason": ""}, follow=True)
    assert "The reason is required" in no_reason.content.decode()
    client.post(reverse("tournaments:act", args=[five_seated.pk, "correct"]),
                {**_guard(five_seated), "seq": str(bust.seq), "reason": "wrong seat busted"})
    assert _state(five_seated).entry(2).status == "seated"


def test_the_setup_is_edited_and_a_bad_structure_line_is_named(five_seated, director_dora):
    client = _client(director_dora)
    page = client.get(reverse("tournaments:setup", args=[five_seated.pk]))
    assert page.status_code == 200
    response = client.post(reverse("tournaments:setup", args=[five_seated.pk]), {
        **_guard(five_seated), "buy_in": "100", "fee": "10", "starting_stack": "10000", "seats_per_table": "9",
        "final_table_size": "9", "ante_mode": "button", "structure": "100/200 20\nlots of blinds",
        "denominations": "25 100 500"})
    assert response.status_code == 400
    assert "Line 2 of the structure" in response.content.decode()


def test_a_new_event_is_created_from_the_form(director_dora):
    client = _client(director_dora)
    response = client.post(reverse("tournaments:new"), {
        "key": uuid.uuid4().hex, "version": "0", "name": "Martes Turbo", "starts_at": "2026-12-01T20:00",
        "buy_in": "50", "fee": "5", "starting_stack": "5000", "seats_per_table": "6", "final_table_size": "6",
        "ante_mode": "big_blind", "structure": "25/50 10\n50/100/100 10\nbreak 5 25\n100/200/200 10",
        "denominations": "25 100 500", "payouts": "65 35", "break_order": "3 2 1"})
    assert response.status_code == 302
    tournament_id = int(re.search(r"/tournaments/(\d+)/", response["Location"]).group(1))
    setup = event_reads.tournament_state(Tournament.objects.get(pk=tournament_id)).setup
    assert setup.seats_per_table == 6 and setup.break_order == (3, 2, 1)
    assert setup.options.final_table_size == 6 and setup.options.ante_mode == "big_blind"


@pytest.fixture
def four_tables(director_dora):
    """19 players at four 6-max tables, broken in the order 4, 3, 2, 1, a final table of six."""
    from datetime import UTC, date, datetime

    tournament, _result = services.create_tournament(
        by=director_dora, key=uuid.uuid4().hex, name="Martes Turbo", starts_at=datetime(2026, 12, 1, 20, tzinfo=UTC),
        buy_in=50, starting_stack=5000, seats_per_table=6, break_order=(4, 3, 2, 1),
        options={"final_table_size": 6})
    act(services.open_registration, tournament, director_dora)
    for i in range(1, 20):
        act(services.register, tournament, director_dora, name=f"Player {i:02d}", id_type="dni",
            id_number=f"20.000.{i:03d}", birth_date=date(1980, 1, i))
    act(services.start_tournament, tournament, director_dora)
    return tournament


def test_after_a_bust_the_console_says_which_table_breaks_and_one_tap_applies_it(four_tables, floor_fede):
    state = _state(four_tables)
    assert sorted(t.table for t in state.tables) == [1, 2, 3, 4]
    seat = state.table(1).players[0][0]
    client = _client(floor_fede)
    client.post(reverse("tournaments:act", args=[four_tables.pk, "bust"]),
                {**_guard(four_tables), "table": "1", "seats": [str(seat)]})
    console = client.get(reverse("tournaments:console", args=[four_tables.pk])).content.decode()
    assert "Break table 4." in console  # 18 players fit three tables: the first in the break order goes
    moving = [n for _s, n in _state(four_tables).table(4).players]
    for number in moving:
        assert f'data-entry="{number}"' in console
    proposed = re.search(r'name="proposed" value="(\d+)"', console).group(1)
    confirmed = _tap(client, four_tables, "confirm-plan", proposed=proposed)
    assert confirmed.status_code == 200
    assert "Nothing to do: the tables are balanced." in confirmed.content.decode()
    after = _state(four_tables)
    assert 4 not in [t.table for t in after.tables]
    assert all(after.entry(n).table in (1, 2, 3) for n in moving)


def test_the_accreditation_checks_the_document_shown_against_the_entry(five_seated, director_dora):
    client = _client(director_dora)
    name, id_type, id_number, _birth = PLAYERS[0]
    wrong = client.post(reverse("tournaments:act", args=[five_seated.pk, "accredit"]),
                        {**_guard(five_seated), "entry": "1", "id_type": id_type, "id_number": "99.999.999"},
                        follow=True)
    assert "CC-24" in wrong.content.decode()
    client.post(reverse("tournaments:act", args=[five_seated.pk, "accredit"]),
                {**_guard(five_seated), "entry": "1", "id_type": id_type, "id_number": id_number})
    assert "accreditation" in _state(five_seated).entry(1).checks


def test_the_exclusion_list_is_imported_from_a_csv_file_and_then_refuses(registering, director_dora):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = _client(director_dora)
    csv_file = SimpleUploadedFile(
        "excluded.csv", b"id_type,id_number,listed_on,kind\ndni,44.555.666,2025-03-01,self_exclusion\n",
        content_type="text/csv")
    imported = client.post(reverse("tournaments:import_exclusions", args=[registering.pk]), {"csv": csv_file},
                           follow=True)
    assert "The exclusion list is imported: 1 added, 0 updated, 0 refused." in imported.content.decode()
    refused = client.post(reverse("tournaments:registration", args=[registering.pk]), {
        **_guard(registering), "player_name": "Excluido", "id_type": "dni", "id_number": "44555666",
        "birth_date": "1980-01-01"})
    assert refused.status_code == 422 and "CC-23" in refused.content.decode()


def test_a_file_that_is_not_text_is_refused_plainly(registering, director_dora):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = _client(director_dora).post(
        reverse("tournaments:import_exclusions", args=[registering.pk]),
        {"csv": SimpleUploadedFile("list.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\xff\xfe")}, follow=True)
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()


def test_a_structure_is_saved_as_a_template_and_copied_into_another_event(five_seated, director_dora, four_tables):
    client = _client(director_dora)
    client.post(reverse("tournaments:structure_template", args=[five_seated.pk]),
                {**_guard(five_seated), "do": "save", "template_name": "Deepstack 20'"})
    template = StructureTemplate.objects.get(name="Deepstack 20'")
    client.post(reverse("tournaments:structure_template", args=[four_tables.pk]),
                {**_guard(four_tables), "do": "copy", "template": str(template.pk)})
    assert _state(four_tables).setup.structure == _state(five_seated).setup.structure


def test_the_results_are_recorded_and_printed_in_the_classification(five_seated, director_dora):
    for number in (5, 4, 3, 2):
        table, seat = _seat_of(five_seated, number)
        act(services.record_bust, five_seated, director_dora, table=table, seat=seat)
    client = _client(director_dora)
    assert _tap(client, five_seated, "results").status_code == 200
    sheet = client.get(reverse("tournaments:classification", args=[five_seated.pk])).content.decode()
    places = re.findall(r'<td class="num">(\d+)</td><td class="num">(\d+)</td><td>([^<]+)</td>', sheet)
    assert [(p, n) for p, n, _name in places][:2] == [("1", "1"), ("2", "2")]
    assert places[0][2] == PLAYERS[0][0]


def test_the_chip_count_sheet_lists_every_seated_player(five_seated, director_dora):
    sheet = _client(director_dora).get(reverse("tournaments:chip_counts", args=[five_seated.pk])).content.decode()
    for name, *_rest in PLAYERS:
        assert name in sheet
    assert "10,000" in sheet or "10.000" in sheet or "10 000" in sheet


def test_the_floor_enters_a_tables_chip_counts(five_seated, floor_fede):
    table, _seat = _seat_of(five_seated, 1)
    response = _client(floor_fede).post(reverse("tournaments:act", args=[five_seated.pk, "chip-counts"]),
                                        {**_guard(five_seated), "table": str(table), "chips_1": "12500",
                                         "chips_2": "7500"})
    assert response.status_code == 302
    assert _state(five_seated).entry(1).stack == 12_500 and _state(five_seated).entry(2).stack == 7_500


def test_a_chip_count_that_is_not_a_number_is_named(five_seated, floor_fede):
    table, _seat = _seat_of(five_seated, 1)
    response = _client(floor_fede).post(reverse("tournaments:act", args=[five_seated.pk, "chip-counts"]),
                                        {**_guard(five_seated), "table": str(table), "chips_1": "lots"}, follow=True)
    assert "The chips of entry 1 must be a whole number" in response.content.decode()


def test_the_colour_up_races_the_odd_chips_of_a_table(five_seated, floor_fede):
    state = _state(five_seated)
    table = state.entry(1).table
    smallest = Structure.from_dict(state.setup.structure).denominations[0]
    seats = [s for s, _n in state.table(table).players][:2]
    response = _client(floor_fede).post(reverse("tournaments:act", args=[five_seated.pk, "colour-up"]), {
        **_guard(five_seated), "table": str(table), "denomination": str(smallest),
        f"odd_{seats[0]}": "1", f"odd_{seats[1]}": "2"}, follow=True)
    assert response.status_code == 200
    race = TournamentEvent.objects.get(tournament=five_seated, type="colour_up")
    assert race.data["removed"] == smallest and len(race.data["odd_chips"]) == 2


def test_an_absent_players_stack_is_held_then_the_others_are_removed(five_seated, director_dora):
    client = _client(director_dora)
    client.post(reverse("tournaments:act", args=[five_seated.pk, "hold-stack"]),
                {**_guard(five_seated), "entry": "4", "held": "1"})
    assert _state(five_seated).entry(4).held
    held = _tap(client, five_seated, "remove-absent", absent="4")
    assert held.status_code == 422 and "CC-31" in held.content.decode()
    removed = _tap(client, five_seated, "remove-absent", absent="5")
    assert removed.status_code == 200
    assert _state(five_seated).entry(5).status == "busted"


def test_the_setup_is_changed_during_the_event_and_the_change_recorded(five_seated, director_dora):
    client = _client(director_dora)
    response = client.post(reverse("tournaments:setup", args=[five_seated.pk]), {
        **_guard(five_seated), "buy_in": "100", "fee": "10", "starting_stack": "10000", "seats_per_table": "9",
        "final_table_size": "9", "ante_mode": "button", "structure": "100/200 30\n200/400/400 30",
        "denominations": "25 100 500", "payouts": "60 40", "reason": "announced at the start"})
    assert response.status_code == 302
    setup = _state(five_seated).setup
    assert setup.options.final_table_size == 9 and setup.payout_table[0][1] == (6000, 4000)
    assert TournamentEvent.objects.filter(tournament=five_seated, type="setup_changed").exists()


@pytest.mark.parametrize("page", ["console", "registration", "setup", "record", "classification", "chip_counts",
                                  "seating"])
def test_every_page_reads_in_spanish_too(five_seated, director_dora, page):
    client = _client(director_dora)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.get(reverse(f"tournaments:{page}", args=[five_seated.pk]))
    assert response.status_code == 200
    assert 'lang="es"' in response.content.decode()


def test_a_table_and_an_entry_page_open_for_the_floor(five_seated, floor_fede):
    table, _seat = _seat_of(five_seated, 1)
    client = _client(floor_fede)
    assert client.get(reverse("tournaments:table", args=[five_seated.pk, table])).status_code == 200
    assert client.get(reverse("tournaments:table", args=[five_seated.pk, 99])).status_code == 404
    entry = client.get(reverse("tournaments:entry", args=[five_seated.pk, 1])).content.decode()
    assert 'data-action="accredit"' in entry and 'data-action="hold-stack"' not in entry
