"""The registration desk (issue #36, item 12): a registration lands back on an empty form with the entry just
made confirmed (its number, its seat once seated, its name) and its receipt and QR a tap away; "accredit now"
records the accreditation with the registration; the list says who is accredited and an accreditation says
who; the entries are found by name, ID or entry number. The rules stay the services' (CC-23..28)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.conftest import PLAYERS, act, english_client, form_guard, register
from tournaments import forms, services
from tournaments.models import Entry, IdCheck, TournamentEvent
from tournaments.reads import event as event_reads
from tournaments.views import desk

pytestmark = pytest.mark.django_db


_client = english_client
_guard = form_guard


def _at_the_desk(client, tournament, name="Ana Núñez", id_number="30.123.456", birth="01/05/1990", accredit=True,
                 guard=None, **more):
    fields = {**(guard or _guard(tournament)), "player_name": name, "id_type": "dni", "id_number": id_number,
              "birth_date": birth, **more}
    if accredit:
        fields["accredit"] = "1"
    return client.post(reverse("tournaments:registration", args=[tournament.pk]), fields)


def _desk(client, tournament, **params) -> str:
    response = client.get(reverse("tournaments:registration", args=[tournament.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _last_card(html: str) -> str:
    found = re.search(r'<section class="card desk-last[^"]*" id="desk-last".*?</section>', html, re.S)
    assert found, "the desk confirms no entry"
    return found.group(0)


def _row(html: str, number: int) -> str:
    found = re.search(rf'<tr data-entry="{number}".*?</tr>', html, re.S)
    assert found, f"entry {number} is not listed"
    return found.group(0)


def _listed(html: str) -> list[int]:
    """The entry numbers the desk's list shows (each row's first cell)."""
    body = html.split('id="entries"', 1)[1].split("</table>", 1)[0]
    return [int(n) for n in re.findall(r'<tr[^>]*>\s*<td class="num">(\d+)</td>', body)]


def _accredited(tournament, number: int) -> bool:
    tournament.refresh_from_db()
    return "accreditation" in event_reads.tournament_state(tournament).entry(number).checks


# --------------------------------------------------------------------------- the confirmation


def test_a_registration_lands_back_on_the_empty_desk_with_the_entry_confirmed(registering, floor_fede):
    client = _client(floor_fede)
    response = _at_the_desk(client, registering)
    entry = Entry.objects.get(tournament=registering, number=1)
    assert response.status_code == 302
    assert response["Location"] == desk.desk_url(registering, last=1)
    html = _desk(client, registering, last="1")
    card = _last_card(html)
    assert 'data-role="last-number">#1<' in card and 'data-role="last-name">Ana Núñez<' in card
    # its receipt and its QR one tap away
    assert reverse("tournaments:receipt", args=[registering.pk, entry.pk, "entry"]) in card
    assert reverse("tournaments:issue_accreditation_link", args=[registering.pk, entry.pk]) in card
    # and the form empty again, the cursor in its first field
    name_field = re.search(r'<input name="player_name"[^>]*>', html).group(0)
    assert 'value=""' in name_field and "autofocus" in name_field
    assert 'value=""' in re.search(r'<input name="id_number"[^>]*>', html).group(0)


def test_a_late_entry_is_confirmed_with_its_table_and_seat(event_in_play, floor_fede):
    client = _client(floor_fede)
    assert _at_the_desk(client, event_in_play, name="Ulises Uría", id_number="41.000.111").status_code == 302
    seat = event_reads.tournament_state(event_in_play).entry(5)
    card = _last_card(_desk(client, event_in_play, last="5"))
    assert f'data-role="last-seat">table {seat.table} seat {seat.seat}<' in card
    assert "Ulises Uría" in card


def test_cc32_after_late_registration_the_desk_refuses_and_only_the_director_overrides(event_in_play, floor_fede,
                                                                                       director_dora):
    act(services.change_setup, event_in_play, director_dora, late_registration_level=1, reason="to level 1")
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=1)
    floor = _client(floor_fede)
    assert 'name="late_override"' not in _desk(floor, event_in_play)  # the floor is not offered it
    refused = _at_the_desk(floor, event_in_play, name="Ulises Uría", id_number="41.000.111")
    assert refused.status_code == 422 and "CC-32" in refused.content.decode()
    assert _at_the_desk(floor, event_in_play, name="Ulises Uría", id_number="41.000.111",
                        late_override="1").status_code == 403
    director = _client(director_dora)
    assert 'name="late_override"' in _desk(director, event_in_play)
    assert _at_the_desk(director, event_in_play, name="Ulises Uría", id_number="41.000.111",
                        late_override="1").status_code == 302
    event_in_play.refresh_from_db()
    assert event_reads.tournament_state(event_in_play).entry(5).status == "seated"


def test_the_qr_asked_from_the_desk_is_shown_on_the_desk_for_the_player_to_scan(registering, floor_fede):
    client = _client(floor_fede)
    _at_the_desk(client, registering)
    entry = Entry.objects.get(tournament=registering, number=1)
    response = client.post(reverse("tournaments:issue_accreditation_link", args=[registering.pk, entry.pk]),
                           {"from": "desk"})
    assert response.status_code == 302 and response["Location"].startswith(desk.desk_url(registering, last=1))
    card = _last_card(client.get(response["Location"]).content.decode())
    assert 'id="desk-qr"' in card and "<svg" in card
    assert 'data-action="print-accreditation"' in card  # and its printed receipt a tap further


def test_a_link_of_another_entry_is_never_shown_as_the_last_entrys_qr(registering, floor_fede):
    from tournaments import services

    client = _client(floor_fede)
    _at_the_desk(client, registering)
    _at_the_desk(client, registering, name="Beto Bravo", id_number="31.222.333")
    other = services.issue_entry_link(Entry.objects.get(tournament=registering, number=2), by=floor_fede)
    card = _last_card(_desk(client, registering, last="1", link=str(other.pk)))
    assert 'id="desk-qr"' not in card


def test_a_last_entry_that_is_none_confirms_nothing_and_never_fails(registering, floor_fede):
    client = _client(floor_fede)
    _at_the_desk(client, registering)
    assert 'id="desk-last"' in _desk(client, registering, last="1")
    for last in ("0", "x", "²", "9" * 50, "99", ""):
        assert 'id="desk-last"' not in _desk(client, registering, last=last)


# --------------------------------------------------------------------------- accreditation


def test_accredit_now_records_the_accreditation_with_the_registration_CC_24_CC_28(registering, floor_fede):
    _at_the_desk(_client(floor_fede), registering)
    entry = Entry.objects.get(tournament=registering, number=1)
    assert _accredited(registering, 1)
    assert sorted(IdCheck.objects.filter(entry=entry).values_list("checkpoint", flat=True)) == [
        "accreditation", "entry"]
    assert 'class="badge accredited"' in _row(_desk(_client(floor_fede), registering), 1)


def test_without_accredit_now_the_entry_is_registered_and_listed_as_not_accredited(registering, floor_fede):
    _at_the_desk(_client(floor_fede), registering, accredit=False)
    assert not _accredited(registering, 1)
    row = _row(_desk(_client(floor_fede), registering), 1)
    assert 'data-action="accredit"' in row and "badge accredited" not in row


def test_a_refused_registration_is_recorded_and_never_accredited_CC_23(registering, floor_fede):
    response = _at_the_desk(_client(floor_fede), registering, name="Nino Chico", birth="01/01/2015")
    assert response.status_code == 422
    assert not Entry.objects.filter(tournament=registering).exists()
    assert TournamentEvent.objects.filter(tournament=registering, type="refused").count() == 1
    assert not TournamentEvent.objects.filter(tournament=registering, type="id_checked").exists()


def test_the_same_form_sent_twice_registers_and_accredits_once(registering, floor_fede):
    client, guard = _client(floor_fede), _guard(registering)
    first = _at_the_desk(client, registering, guard=guard)
    again = _at_the_desk(client, registering, guard=guard)
    assert first.status_code == 302 and again.status_code == 302
    assert Entry.objects.filter(tournament=registering).count() == 1
    assert IdCheck.objects.filter(entry__tournament=registering, checkpoint="accreditation").count() == 1


def test_an_accreditation_at_the_desk_says_who_was_accredited_and_goes_back_to_the_search(registering, floor_fede):
    client = _client(floor_fede)
    _at_the_desk(client, registering, accredit=False)
    response = client.post(reverse("tournaments:act", args=[registering.pk, "accredit"]), {
        **_guard(registering), "entry": "1", "id_type": "dni", "id_number": "30123456", "from": "desk",
        "q": "Núñez"}, follow=True)
    assert response.redirect_chain[-1][0] == desk.desk_url(registering, query="Núñez")
    html = response.content.decode()
    assert "Entry #1, Ana Núñez, is accredited." in html
    assert 'class="badge accredited"' in _row(html, 1)


def test_a_document_that_is_not_the_entrys_is_refused_at_the_desk_and_nobody_is_accredited_CC_24(registering,
                                                                                                 floor_fede):
    client = _client(floor_fede)
    _at_the_desk(client, registering, accredit=False)
    response = client.post(reverse("tournaments:act", args=[registering.pk, "accredit"]), {
        **_guard(registering), "entry": "1", "id_type": "dni", "id_number": "99999999", "from": "desk"})
    assert response.status_code == 302 and response["X-Refused"] == "422"
    assert response["Location"] == desk.desk_url(registering)
    assert not _accredited(registering, 1)


def test_the_accreditation_on_the_entry_page_names_the_player_and_the_page_says_accredited(registering,
                                                                                           floor_fede):
    client = _client(floor_fede)
    register(registering, floor_fede, 0)
    page = reverse("tournaments:entry", args=[registering.pk, 1])
    assert "Not accredited" in client.get(page).content.decode()
    response = client.post(reverse("tournaments:act", args=[registering.pk, "accredit"]), {
        **_guard(registering), "entry": "1", "id_type": "dni", "id_number": PLAYERS[0][2]}, follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == page
    assert f"Entry #1, {PLAYERS[0][0]}, is accredited." in html
    assert re.search(r'data-role="accreditation"><span class="badge accredited">Accredited<', html)


# --------------------------------------------------------------------------- the search


@pytest.fixture
def five_at_the_desk(registering, floor_fede):
    for i in range(len(PLAYERS)):
        register(registering, floor_fede, i)
    act(services.register, registering, floor_fede, name="José Pérez Núñez", id_type="dni", id_number="22.444.666",
        birth_date=date(1970, 6, 6))
    return registering


@pytest.mark.parametrize(("query", "found"), [
    ("rita", [3]),                       # a name, any case
    ("jose perez", [6]),                 # accents ignored
    ("NUÑEZ JOSÉ", [6]),                 # any order
    ("AB123456", [3]),                   # an ID number
    ("30.111", [1]),                     # part of an ID, its dots ignored
    ("35555666", [4]),
    ("4", [4]),                          # an entry number
    ("#2", [2]),
    ("zzz", []),
])
def test_the_desk_finds_an_entry_by_name_id_or_number(five_at_the_desk, floor_fede, query, found):
    assert _listed(_desk(_client(floor_fede), five_at_the_desk, q=query)) == found


def test_a_search_says_how_many_it_found_and_offers_the_whole_list_again(five_at_the_desk, floor_fede):
    html = _desk(_client(floor_fede), five_at_the_desk, q="rita")
    assert "1 of 6 entries matches “rita”." in html and 'data-action="show-all"' in html
    assert _listed(_desk(_client(floor_fede), five_at_the_desk)) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("query", ["²", "9" * 5000, "a\x07b", "' OR 1=1 --", "<script>"])
def test_a_search_no_desk_types_finds_nothing_and_never_fails(five_at_the_desk, floor_fede, query):
    html = _desk(_client(floor_fede), five_at_the_desk, q=query)
    assert _listed(html) == [] and "<script>" not in html.split('id="entries"')[1]


def test_an_entry_found_by_its_id_never_shows_the_id_on_the_page(five_at_the_desk, floor_fede):
    html = _desk(_client(floor_fede), five_at_the_desk, q="30.111")  # the desk typed part of it
    assert _listed(html) == [1]
    assert "30111222" not in html and "30.111.222" not in html


def _entry(number, name, id_number="") -> desk.DeskEntry:
    return desk.DeskEntry(pk=number, number=number, name=name, status="", in_play=True, accredited=False,
                          table=None, seat=None, id_type="dni", id_number=id_number,
                          find=f"{number} {desk.fold(name)}")


def test_a_short_run_of_digits_is_an_entry_number_never_part_of_every_id():
    entries = [_entry(1, "Ana", "30123456"), _entry(12, "Beto", "12999999"), _entry(3, "Ceci", "40120000")]
    assert [e.number for e in desk.find(entries, "12")] == [12]
    assert [e.number for e in desk.find(entries, "0120")] == [3]
    assert [e.number for e in desk.find(entries, "  ")] == [1, 12, 3]


# --------------------------------------------------------------------------- the date of birth as typed


@pytest.mark.parametrize("typed", ["01/05/1990", "1/5/1990", "01-05-1990", "01.05.1990", "01051990", "1990-05-01"])
def test_the_date_of_birth_is_typed_day_first_as_the_document_prints_it(typed):
    assert forms.a_typed_date(typed, "The date of birth") == date(1990, 5, 1)


@pytest.mark.parametrize("typed", ["31/02/1990", "010590", "05/01/90", "ayer", "", "1" * 300])
def test_a_date_of_birth_that_is_no_date_is_bad_input_naming_the_field(typed):
    with translation.override("en"), pytest.raises(forms.BadInput, match="The date of birth must be a date"):
        forms.a_typed_date(typed, "The date of birth")
    with translation.override("es"), pytest.raises(forms.BadInput, match="La fecha de nacimiento debe ser una fecha"):
        forms.a_typed_date(typed, translation.gettext("The date of birth"))
