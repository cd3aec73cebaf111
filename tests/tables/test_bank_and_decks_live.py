"""Issue #39's leftovers: the decks page and the bank's pages are live (docs/realtime.md, docs/decks.md, docs/bank.md).

Each screen's socket, through the whole ASGI stack (origin check, session, role check): it receives a change made by
someone else, as that person's write announces it after commit (a deck issued, a fill requested, a slip's step, a
float counted), and a person without the role (or another pit's boss) is refused at the handshake. And a deck's data
keys (its back, its steps, its defects) and a slip's steps read in Spanish, the house's language (THB-21, THB-36).
"""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from casino import decks
from casino.asgi import application
from casino.deck_labels import back_label, defect_label, step_label
from tables import bank, sessions
from tables.models import ChipSlip
from tests.conftest import _staff

from .helpers import act
from .test_bank import closing, opened_with_float

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_passwords")]


@pytest.fixture
def cashier_carla(django_user_model):
    return _staff(django_user_model, "carla", "cage_cashier", "Carla")


@pytest.fixture
def security_sam(django_user_model):
    return _staff(django_user_model, "sam", "security_officer", "Sam")


def _session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def _connect(path: str, user) -> tuple[bool, WebsocketCommunicator]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        key = await database_sync_to_async(_session_of)(user)
        headers.append((b"cookie", f"sessionid={key}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _code = await socket.connect(timeout=5)
    return connected, socket


async def _refused(path: str, *people) -> None:
    for person in people:
        connected, socket = await _connect(path, person)
        assert not connected, getattr(person, "username", "anonymous")


def _request_fill(table, pit_boss) -> ChipSlip:
    done = bank.request_slip(table=table, by=pit_boss, key=uuid.uuid4().hex, kind="fill", chips={100: 10})
    return ChipSlip.objects.get(pk=done.ids["slip"])


# --------------------------------------------------------------------------- the decks page


async def test_the_decks_page_shows_a_deck_issued_by_another_signer_at_once_THB_21(
        table_one, pit_boss_pat, games_director_gloria):
    stock = table_one.pit.deck_stock
    connected, socket = await _connect(f"/ws/decks/{stock}/", pit_boss_pat)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert f'id="decks-{stock.replace(".", "-")}"' in first and "R-7" not in first

    def receive_and_issue():
        deck = decks.receive_deck(stock=stock, stock_name=table_one.pit.name, back="red", serial="R-7",
                                  by=games_director_gloria)
        decks.issue_deck(deck=deck, by=games_director_gloria, key=uuid.uuid4().hex, expected_version=deck.version,
                         place=f"tables.table.{table_one.pk}", place_name=table_one.name)

    await database_sync_to_async(receive_and_issue)()
    pushed = await socket.receive_from(timeout=5)
    assert 'data-deck="R-7"' in pushed
    if 'data-deck-state="issued"' not in pushed:  # the receipt's push first, then the issue's
        pushed = await socket.receive_from(timeout=5)
    assert 'data-deck="R-7" data-deck-state="issued"' in pushed
    assert "roja" in pushed or "red" in pushed  # the back's word (Spanish once the catalogue has it)
    await socket.disconnect()


async def test_the_decks_page_refuses_a_dealer_a_cashier_another_pits_boss_and_a_stranger_THB_21(
        table_one, dealer_dana, pit_boss_paula, cashier_carla):
    stock = table_one.pit.deck_stock
    await _refused(f"/ws/decks/{stock}/", dealer_dana, cashier_carla, pit_boss_paula, None)
    await _refused("/ws/decks/tables.pit.999999/", dealer_dana)


# --------------------------------------------------------------------------- the cage's and security's phones


async def test_the_cashiers_phone_shows_a_fill_the_pit_boss_requested_at_once(
        table_one, dealer_dana, pit_boss_pat, cashier_carla):
    await database_sync_to_async(opened_with_float)(table_one, dealer_dana, pit_boss_pat)
    connected, socket = await _connect("/ws/tables/cage/", cashier_carla)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="slips-cage"' in first and "data-slip=" not in first
    slip = await database_sync_to_async(_request_fill)(table_one, pit_boss_pat)
    pushed = await socket.receive_from(timeout=5)
    assert f'data-slip="{slip.number}" data-slip-state="requested"' in pushed
    assert 'data-action="sign-slip"' in pushed
    assert "Firmar: Emitido por la caja" in pushed  # the step in the house's language
    await socket.disconnect()


async def test_the_security_officers_phone_shows_a_fill_once_the_cage_issued_it(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    await database_sync_to_async(opened_with_float)(table_one, dealer_dana, pit_boss_pat)
    slip = await database_sync_to_async(_request_fill)(table_one, pit_boss_pat)
    connected, socket = await _connect("/ws/tables/security/", security_sam)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="slips-security"' in first and slip.number not in first  # the cage's step first
    await database_sync_to_async(bank.sign_slip)(slip=slip, by=cashier_carla, key=uuid.uuid4().hex,
                                                 expected_version=slip.version)
    pushed = await socket.receive_from(timeout=5)
    assert f'data-slip="{slip.number}" data-slip-state="issued"' in pushed
    await socket.disconnect()


async def test_the_phones_are_for_the_cashier_and_the_security_officer_only(
        table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    await _refused("/ws/tables/cage/", dealer_dana, pit_boss_pat, security_sam, None)
    await _refused("/ws/tables/security/", dealer_dana, pit_boss_pat, cashier_carla, None)


# --------------------------------------------------------------------------- the table's bank page and a slip's page


async def test_the_tables_bank_page_shows_the_dealers_count_and_the_cages_step_at_once_THB_70(
        table_one, dealer_dana, pit_boss_pat, cashier_carla):
    def opened():
        act(sessions.request_opening, table_one, dealer_dana)
        act(sessions.confirm_deck_check, table_one, pit_boss_pat)

    await database_sync_to_async(opened)()
    connected, socket = await _connect(f"/ws/tables/{table_one.pk}/bank/", pit_boss_pat)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert f'id="bank-{table_one.pk}"' in first and 'data-stage="opening"' not in first
    await database_sync_to_async(act)(bank.count_float, table_one, dealer_dana, stage="opening",
                                      chips={100: 50, 25: 40})
    pushed = await socket.receive_from(timeout=5)
    assert 'data-stage="opening" data-total="6000"' in pushed
    await database_sync_to_async(act)(bank.sign_float, table_one, pit_boss_pat, stage="opening")
    await socket.receive_from(timeout=5)
    slip = await database_sync_to_async(_request_fill)(table_one, pit_boss_pat)
    pushed = await socket.receive_from(timeout=5)
    assert f'data-slip="{slip.number}" data-slip-state="requested"' in pushed
    await database_sync_to_async(bank.sign_slip)(slip=slip, by=cashier_carla, key=uuid.uuid4().hex,
                                                 expected_version=slip.version)
    pushed = await socket.receive_from(timeout=5)
    assert f'data-slip="{slip.number}" data-slip-state="issued"' in pushed
    await socket.disconnect()


async def test_the_tables_bank_page_refuses_another_tables_dealer_another_pits_boss_and_the_cage(
        table_one, table_two, dealer_diego, pit_boss_paula, cashier_carla):
    await _refused(f"/ws/tables/{table_one.pk}/bank/", dealer_diego, pit_boss_paula, cashier_carla, None)
    await _refused("/ws/tables/999999/bank/", pit_boss_paula)


async def test_a_slips_page_shows_its_next_step_signed_elsewhere_and_refuses_a_stranger(
        table_one, table_two, dealer_dana, dealer_diego, pit_boss_pat, pit_boss_paula, cashier_carla, security_sam):
    await database_sync_to_async(opened_with_float)(table_one, dealer_dana, pit_boss_pat)
    slip = await database_sync_to_async(_request_fill)(table_one, pit_boss_pat)
    path = f"/ws/tables/slips/{slip.pk}/"
    connected, socket = await _connect(path, security_sam)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert f'id="slip-{slip.pk}"' in first and 'data-slip-state="requested"' in first
    await database_sync_to_async(bank.sign_slip)(slip=slip, by=cashier_carla, key=uuid.uuid4().hex,
                                                 expected_version=slip.version)
    pushed = await socket.receive_from(timeout=5)
    assert 'data-slip-state="issued"' in pushed and 'data-action="sign-slip"' in pushed  # now his step
    await socket.disconnect()
    await _refused(path, dealer_diego, pit_boss_paula, None)


# --------------------------------------------------------------------------- the games director's shift report


async def test_the_shift_report_shows_a_table_closed_meanwhile_THB_70(
        table_one, dealer_dana, pit_boss_pat, games_director_gloria):
    from urllib.parse import urlencode

    from django.utils import timezone

    await database_sync_to_async(opened_with_float)(table_one, dealer_dana, pit_boss_pat)
    now = timezone.now()
    window = urlencode({"from": (now - timezone.timedelta(hours=1)).isoformat(),
                        "to": (now + timezone.timedelta(hours=1)).isoformat()})
    connected, socket = await _connect(f"/ws/tables/shift/?{window}", games_director_gloria)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="shift-' in first and f'data-table="{table_one.name}"' not in first
    await database_sync_to_async(closing)(table_one, dealer_dana, pit_boss_pat)
    pushed = await socket.receive_from(timeout=5)
    assert f'data-table="{table_one.name}" data-difference="0"' in pushed
    await socket.disconnect()


async def test_the_shift_report_is_the_games_directors_and_its_window_is_checked(
        table_one, dealer_dana, pit_boss_pat, games_director_gloria, cashier_carla):
    await _refused("/ws/tables/shift/", pit_boss_pat, dealer_dana, cashier_carla, None)
    await _refused("/ws/tables/shift/?from=yesterday", games_director_gloria)  # bad input: refused, never a 500


# --------------------------------------------------------------------------- the words, in Spanish


def test_a_decks_steps_and_defects_read_in_spanish_on_the_decks_page_THB_21_CC_72(
        client, table_one, pit_boss_pat):
    deck = decks.receive_deck(stock=table_one.pit.deck_stock, stock_name=table_one.pit.name, back="blue",
                              serial="B-9", by=pit_boss_pat)
    decks.issue_deck(deck=deck, by=pit_boss_pat, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=f"tables.table.{table_one.pk}", place_name=table_one.name)
    client.force_login(pit_boss_pat)
    page = client.get(f"/decks/{table_one.pit.deck_stock}/").content.decode()
    assert "Entregada a una mesa" in page  # the step "issued", not its key
    assert "cartas marcadas" in page and ">marked<" not in page  # CC-72's defects in the form's choices
    assert str(step_label("in-play")) == "En juego" and str(defect_label("duplicate")) == "dos cartas idénticas"
    assert back_label("Verde") == "Verde"  # a colour typed by hand stays as typed


def test_a_shufflers_backs_read_in_spanish_THB_36(client, table_one, pit_boss_pat):
    decks.receive_deck(stock=table_one.pit.deck_stock, stock_name=table_one.pit.name, back="red", serial="R-9",
                       by=pit_boss_pat)
    assert str(back_label("red")) == "roja" and str(back_label("blue")) == "azul"
    client.force_login(pit_boss_pat)
    page = client.get(f"/decks/{table_one.pit.deck_stock}/").content.decode()
    assert "R-9 <small>roja" in page
