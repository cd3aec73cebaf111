"""The director's console over HTTP: who may see and do what, CSRF, bad input and refusals said plainly
(never a 500), the plot, the receipts and the seating display's privacy (issue #14)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Entry, Tournament
from tournaments.projections import entry_number

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(tournament_director_teo):
    return Tournament.objects.create(name="Sunday Deepstack", starts_at=timezone.now() + timedelta(hours=1),
                                     buy_in=100, starting_stack=20000, director=tournament_director_teo)


def _client(user=None, *, language: str = "en", **kwargs) -> Client:
    client = Client(**kwargs)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if user is not None:
        client.force_login(user)
    return client


def _guard(version: int = 0) -> dict:
    return {"version": str(version), "key": uuid.uuid4().hex}


def test_the_console_shows_the_field_to_the_tournament_director(event, tournament_director_teo):
    response = _client(tournament_director_teo).get(reverse("tournaments:console", args=[event.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="tournament-console"' in html
    assert f'ws-connect="/ws/tournaments/{event.pk}/console/"' in html
    assert "Sunday Deepstack" in html


def test_a_dealer_may_not_open_the_console(event, dealer_dana):
    response = _client(dealer_dana).get(reverse("tournaments:console", args=[event.pk]))
    assert response.status_code == 403


def test_an_anonymous_visitor_is_sent_to_log_in(event):
    response = _client().get(reverse("tournaments:console", args=[event.pk]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_an_action_without_the_csrf_token_is_refused(event, tournament_director_teo):
    client = _client(tournament_director_teo, enforce_csrf_checks=True)
    response = client.post(reverse("tournaments:act", args=[event.pk, "clock-start"]), _guard(event.version))
    assert response.status_code == 403


def test_a_version_that_is_not_a_number_is_said_plainly(event, tournament_director_teo):
    response = _client(tournament_director_teo).post(
        reverse("tournaments:act", args=[event.pk, "clock-pause"]), {"version": "abc", "key": "k1"},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "must be a whole number" in response.content.decode()


def test_an_unknown_action_is_not_found(event, tournament_director_teo):
    response = _client(tournament_director_teo).post(reverse("tournaments:act", args=[event.pk, "deal-aces"]),
                                                     _guard())
    assert response.status_code == 404


@pytest.mark.parametrize("page", ["registration", "setup", "record", "classification", "chip_counts", "seating"])
def test_every_page_of_the_event_opens_for_its_director(event, tournament_director_teo, page):
    response = _client(tournament_director_teo).get(reverse(f"tournaments:{page}", args=[event.pk]))
    assert response.status_code == 200, response.content.decode()[:500]


def test_the_new_tournament_form_opens_for_a_director_only(tournament_director_teo, dealer_dana):
    assert _client(tournament_director_teo).get(reverse("tournaments:new")).status_code == 200
    assert _client(dealer_dana).get(reverse("tournaments:new")).status_code == 403


def test_the_entry_receipt_prints_the_entry_number_and_the_buy_in(event, tournament_director_teo):
    entry = Entry.objects.create(tournament=event, number=1, player_name="Ana Ruiz")
    response = _client(tournament_director_teo).get(reverse("tournaments:receipt", args=[event.pk, entry.pk, "entry"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ana Ruiz" in html and "data-print" in html


def test_the_accreditation_receipt_carries_the_players_qr_link(event, tournament_director_teo):
    entry = Entry.objects.create(tournament=event, number=1, player_name="Ana Ruiz")
    client = _client(tournament_director_teo)
    receipt = reverse("tournaments:receipt", args=[event.pk, entry.pk, "accreditation"])
    # A GET issues nothing: it offers to issue the link.
    offered = client.get(receipt).content.decode()
    assert "<svg" not in offered and 'data-action="issue-link"' in offered
    issued = client.post(reverse("tournaments:issue_accreditation_link", args=[event.pk, entry.pk]))
    assert issued.status_code == 302 and issued["Location"].startswith(receipt + "?link=")
    html = client.get(issued["Location"]).content.decode()
    assert "<svg" in html and "/p/" in html
    assert "style=" not in html.split('class="qr"')[1].split("</div>")[0]  # the QR passes the CSP


def test_a_link_of_another_entry_is_not_printed_on_this_receipt(event, tournament_director_teo):
    ana = Entry.objects.create(tournament=event, number=1, player_name="Ana Ruiz")
    bruno = Entry.objects.create(tournament=event, number=2, player_name="Bruno Paz")
    client = _client(tournament_director_teo)
    issued = client.post(reverse("tournaments:issue_accreditation_link", args=[event.pk, bruno.pk]))
    link_id = issued["Location"].split("?link=")[1]
    html = client.get(reverse("tournaments:receipt", args=[event.pk, ana.pk, "accreditation"]),
                      {"link": link_id}).content.decode()
    assert "<svg" not in html


# --- the seating display: public by entry number, names for staff only ---------------------------------


@pytest.fixture
def seated_board(event, monkeypatch):
    """The room's board with entries 1 and 2 seated and entry 2 moved a few minutes ago."""
    from tournaments.reads import event as event_reads

    Entry.objects.create(tournament=event, number=1, player_name="Ana Ruiz")
    Entry.objects.create(tournament=event, number=2, player_name="Bruno Paz")
    numbers = sorted(entry_number(e) for e in Entry.objects.filter(tournament=event))
    ana, bruno = numbers
    board = event_reads.Board(
        tournament_id=event.pk, version=event.version, name=event.name, status="running", status_label="Running",
        entries=2, players_left=2, chips_in_play=40000,
        seats={ana: event_reads.SeatAt(table=4, seat=7), bruno: event_reads.SeatAt(table=2, seat=3)},
        moves={bruno: event_reads.MoveNotice(at=timezone.now() - timedelta(minutes=3), why="balance", to_table=2,
                                         to_seat=3, from_table=5, from_seat=1)},
    )
    monkeypatch.setattr(event_reads, "board_at", lambda tournament, version=None: board)
    return ana, bruno


def test_a_player_finds_their_seat_by_entry_number_without_logging_in(event, seated_board):
    ana, _bruno = seated_board
    html = _client().get(reverse("tournaments:seating", args=[event.pk]), {"q": str(ana)}).content.decode()
    assert "Table 4 · seat 7" in html


def test_the_public_seating_display_shows_no_name(event, seated_board):
    html = _client().get(reverse("tournaments:seating", args=[event.pk]), {"q": "1"}).content.decode()
    assert "Ana Ruiz" not in html and "Bruno Paz" not in html
    # the recent move is listed by entry number
    assert "table 5 seat 1" in html and "table 2 seat 3" in html


def test_a_passer_by_cannot_find_a_player_by_name(event, seated_board):
    response = _client().get(reverse("tournaments:seating", args=[event.pk]), {"q": "Ana"})
    html = response.content.decode()
    assert "Table 4" not in html
    assert "Search by your entry number" in html


def test_staff_find_a_player_by_name_and_see_the_names(event, seated_board, tournament_director_teo):
    html = _client(tournament_director_teo).get(reverse("tournaments:seating", args=[event.pk]),
                                                {"q": "ana"}).content.decode()
    assert "Table 4 · seat 7" in html and "Ana Ruiz" in html


def test_a_number_no_one_holds_says_so(event, seated_board):
    html = _client().get(reverse("tournaments:seating", args=[event.pk]), {"q": "999"}).content.decode()
    assert "No player in play matches" in html


def test_the_console_draws_the_tables_and_who_sits_where(event, seated_board, tournament_director_teo):
    ana, _bruno = seated_board
    html = _client(tournament_director_teo).get(reverse("tournaments:console", args=[event.pk])).content.decode()
    assert 'id="ttable-4"' in html and 'id="ttable-2"' in html
    assert f"#{ana} Ana Ruiz" in html
