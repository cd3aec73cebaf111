"""The dealer's tablet over HTTP: a whole hand tap by tap, refusals, stale versions, double taps and bad input."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import reads
from tables.models import Hand, HandAction
from tests.conftest import issue_box_link

from .screens import console, tablet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


@pytest.fixture
def pad(client, table_one, dealer_dana):
    return tablet(client, dealer_dana, table_one)


@pytest.fixture
def boss(table_one, pit_boss_pat):
    return console(Client(), pit_boss_pat, table_one)


def _open(pad, boss):
    pad.tap("open")
    assert "Esperando la comprobación de las barajas" in pad.html
    boss.refresh()
    boss.tap("deck-check", approve="1")
    pad.refresh()


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_whole_recorded_hand_in_the_manuals_order_to_the_settlement_screen(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    assert 'data-step="bets"' in pad.html and "Hagan sus apuestas" in pad.html
    pad.tap("bet", box="1", spot="ante", amount="10")
    pad.tap("bet", box="1", spot="bonus", amount="5")
    pad.tap("bet", box="3", spot="ante", amount="20")
    pad.tap("close-bets")
    assert 'data-step="deal-initial"' in pad.html and "(1, 3)" in pad.html
    pad.tap("deal")
    assert 'data-step="decision"' in pad.html and "Casilla 1" in pad.html
    pad.tap("decide", box="1", street="flop", choice="bet", amount="20")
    pad.tap("decide", box="3", street="flop", choice="fold")
    assert 'data-step="street"' in pad.html and 'data-picker="3"' in pad.html
    pad.tap("street", street="flop", cards=["2c", "7d", "9h"])
    pad.tap("decide", box="1", street="turn", choice="check")
    # The card picker greys out what is on the table already (THB-03).
    assert 'value="2c" disabled' in pad.html and 'value="Ah">' in pad.html
    pad.tap("street", street="turn", cards=["Js"])
    pad.tap("decide", box="1", street="river", choice="bet", amount="10")
    pad.tap("street", street="river", cards=["Kc"])
    assert 'data-step="dealer-cards"' in pad.html
    pad.tap("dealer-cards", cards=["Qh", "Qd"])
    # Box 3 folded without a Bonus: only box 1 is turned.
    assert 'data-step="box-cards"' in pad.html and "Cartas de la casilla 1" in pad.html
    pad.tap("box-cards", box="1", cards=["As", "Ac"])
    assert 'data-step="settled"' in pad.html
    assert 'id="settlement"' in pad.html
    # Box 1: pair of aces beats queens; ante pushes below a straight (THB-50), flop 20 and river 10 win,
    # the A-A Bonus pays 30 to 1. Box 3 loses its ante on the fold.
    hand, state = reads.current_hand(table_one)
    assert state.settlement.box(1).net == 20 + 10 + 150 and state.settlement.box(3).net == -20
    assert '<td class="pay">180</td>' in pad.html and '<td class="take">20</td>' in pad.html
    assert pad.html.index('data-box="3"') < pad.html.index('data-box="1"')  # paid from box 7 down to 1
    assert 'data-action="new-hand"' in pad.html


def test_a_refusal_by_the_rules_is_422_with_the_clause_in_spanish_and_records_nothing(pad, boss):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    before = HandAction.objects.count()
    response = pad.tap("bet", box="2", spot="ante", amount="4", expect=422)
    assert response["X-Rule-Refusal"] == "1"
    assert pad.notice == "El ante de 4 de la casilla 2 está por debajo del mínimo de la mesa, 5 (THB-26)"
    assert HandAction.objects.count() == before
    assert 'id="dealer-table"' in pad.html  # the fresh tablet comes with the message


def test_a_stale_version_answers_the_fresh_tablet_and_says_the_table_changed(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    shown = pad.version
    pad.tap("bet", box="1", spot="ante", amount="10")
    pad.tap("bet", box="2", spot="ante", amount="10", version=shown, expect=409)
    # what changed since (tests/tables/test_stale_taps_say_what_changed.py has its words)
    assert pad.notice.startswith("Desde lo que muestra su pantalla:")
    table_one.refresh_from_db()
    assert pad.version == table_one.version  # the answer is the table as it is now
    _hand, state = reads.current_hand(table_one)
    assert state.box(2) is None  # never a silent overwrite


def test_a_double_tap_sends_the_same_key_and_is_applied_once(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    version = pad.version
    pad.tap("bet", box="1", spot="ante", amount="10", key="tap-1", version=version)
    pad.tap("bet", box="1", spot="ante", amount="10", key="tap-1", version=version)
    assert HandAction.objects.filter(kind="place-ante").count() == 1
    assert pad.notice == ""


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("bet", {"box": "1", "spot": "ante", "amount": "diez"}, "número entero"),
        ("bet", {"box": "9", "spot": "ante", "amount": "10"}, "entre 1 y 7"),
        ("bet", {"box": "1", "spot": "side", "amount": "10"}, "el ante o el Bonus"),
        ("decide", {"box": "1", "street": "preflop", "choice": "bet"}, "decisión"),
        ("irregularity", {"kind": "earthquake"}, "irregularidades"),
    ],
)
def test_bad_input_is_a_clear_400_never_a_500(pad, boss, action, data, message):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap(action, expect=400, **data)
    assert message in pad.notice


@pytest.mark.parametrize("amount", ["²", "٣", "1_000", "9" * 5000])
def test_it_refuses_an_amount_that_is_not_ascii_digits_or_too_long_with_a_400_naming_it(pad, boss, amount):
    """The pit reads numbers as the tournament does (casino.form_input.whole): "٣" or "1_000" is no bet of 3
    or 1,000, and 5,000 digits never reach int()."""
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    before = HandAction.objects.count()
    pad.tap("bet", box="1", spot="ante", amount=amount, expect=400)
    assert "El importe" in pad.notice and "número entero" in pad.notice
    assert HandAction.objects.count() == before


def test_a_bad_card_or_the_wrong_number_of_cards_is_refused_clearly(pad, boss):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="10")
    pad.tap("close-bets")
    pad.tap("deal")
    pad.tap("decide", box="1", street="flop", choice="bet", amount="20")
    pad.tap("street", street="flop", cards=["2c", "Zz", "9h"], expect=400)
    assert "no es una carta" in pad.notice
    pad.tap("street", street="flop", cards=["2c", "9h"], expect=400)
    assert "exactamente 3" in pad.notice
    pad.tap("street", street="flop", cards=["2c", "2c", "9h"], expect=422)
    assert "THB-03" in pad.notice


def test_a_missing_key_or_version_is_a_400(pad, boss, client, table_one):
    _open(pad, boss)
    url = f"/tables/{table_one.pk}/act/start-hand/"
    assert client.post(url, {"mode": "recorded"}, HTTP_HX_REQUEST="true").status_code == 400
    response = client.post(url, {"mode": "recorded", "version": pad.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "vuelva a cargar" in response.content.decode()


def test_an_unknown_action_is_a_404(pad):
    pad.tap("shuffle-up-and-deal", expect=404)


def test_a_wrong_decision_is_refused_by_the_engine_not_recorded(pad, boss):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="10")
    pad.tap("bet", box="2", spot="ante", amount="10")
    pad.tap("close-bets")
    pad.tap("deal")
    pad.tap("decide", box="2", street="flop", choice="fold", expect=422)
    assert "Le toca decidir a la casilla 1" in pad.notice and "THB-41" in pad.notice
    pad.tap("decide", box="1", street="flop", choice="bet", amount="30", expect=422)
    assert "THB-57" in pad.notice


def test_one_tap_repeats_the_last_hands_bets(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="4", spot="ante", amount="15")
    pad.tap("bet", box="4", spot="bonus", amount="5")
    pad.tap("close-bets")
    pad.tap("deal")
    pad.tap("decide", box="4", street="flop", choice="fold")
    pad.tap("box-cards", box="4", cards=["2s", "7h"])
    assert 'data-action="new-hand"' in pad.html
    pad.tap("start-hand", mode="recorded")
    assert 'data-action="repeat"' in pad.html
    pad.tap("repeat")
    _hand, state = reads.current_hand(table_one)
    assert (state.box(4).ante, state.box(4).bonus) == (15, 5)


def test_undo_takes_back_the_last_bet_with_its_reason(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="50")
    pad.tap("undo", reason="wrong-amount", detail="50 en vez de 5")
    _hand, state = reads.current_hand(table_one)
    assert state.box(1) is None
    undo = HandAction.objects.get(kind="undo")
    assert undo.reason == "Importe equivocado: 50 en vez de 5"
    pad.tap("undo", reason="", detail="", expect=400)


def test_an_irregularity_voids_the_hand_and_alerts_the_pit_boss(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="10")
    pad.tap("bet", box="1", spot="bonus", amount="5")
    pad.tap("close-bets")
    pad.tap("deal")
    pad.tap("irregularity", kind="dealer-card-exposed")
    assert 'data-step="void"' in pad.html
    assert "Se vio una carta del crupier antes de que todos los jugadores decidieran" in pad.html
    boss.refresh()
    assert "es nula" in boss.html and 'data-action="acknowledge"' in boss.html


def test_a_dealt_hand_needs_no_card_entry(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="dealt")
    assert "Zapato electrónico" in pad.html
    pad.tap("bet", box="2", spot="ante", amount="10")
    pad.tap("close-bets")
    assert "zapato electrónico" in pad.html
    pad.tap("deal")
    pad.tap("decide", box="2", street="flop", choice="bet", amount="20")
    assert 'data-picker' not in pad.html
    pad.tap("street", street="flop")
    pad.tap("decide", box="2", street="turn", choice="check")
    pad.tap("street", street="turn")
    pad.tap("decide", box="2", street="river", choice="check")
    pad.tap("street", street="river")
    pad.tap("dealer-cards")
    pad.tap("box-cards", box="2")
    hand = Hand.objects.get(table=table_one)
    assert hand.phase == "settled" and hand.mode == "dealt"


def test_the_tablet_never_shows_face_down_cards_in_dealt_mode(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("start-hand", mode="dealt")
    pad.tap("bet", box="2", spot="ante", amount="10")
    pad.tap("close-bets")
    pad.tap("deal")
    _hand, state = reads.current_hand(table_one)
    for card in [*state.box(2).cards, *state.dealer_cards]:
        assert f'data-card="{card}"' not in pad.html


def test_closing_waits_for_the_pit_boss(pad, boss, table_one):
    _open(pad, boss)
    pad.tap("close-table")
    assert "Esperando el cierre" in pad.html
    boss.refresh()
    boss.tap("closing", approve="1")
    pad.refresh()
    assert 'data-action="new-hand"' not in pad.html and "La mesa está cerrada" in pad.html


def test_the_dealer_counts_the_deck_and_a_wrong_count_holds_the_next_hand_THB_16(pad, boss, table_one):
    _open(pad, boss)
    assert 'data-action="deck-count"' in pad.html
    pad.tap("deck-count", cards="52")
    assert "52 cartas: la baraja está completa (THB-16)." in pad.notice
    pad.tap("deck-count", cards="50", note="faltan dos")
    assert "data-deck-pending" in pad.html
    boss.refresh()
    assert "contó 50 cartas en lugar de 52" in boss.html and "faltan dos" in boss.html
    pad.tap("start-hand", mode="recorded", expect=422)
    assert "el jefe de mesa cambia la baraja" in pad.notice
    assert not Hand.objects.filter(table=table_one).exists()


def test_a_deck_count_that_is_not_a_number_is_a_clear_400(pad, boss):
    _open(pad, boss)
    pad.tap("deck-count", expect=400, cards="cincuenta")
    assert "número entero" in pad.notice


def test_cards_that_look_marked_reach_the_pit_console_and_not_the_players_phone_THB_17(
    pad, boss, table_one, dealer_dana
):
    from casino import player_links

    _open(pad, boss)
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="10")
    phone = Client()
    phone.get(player_links.url_for(issue_box_link(table_one, 1, dealer_dana)))
    pad.tap("suspect-cards", note="la dama de picas tiene una marca")
    assert "Se ha avisado discretamente al jefe de mesa (THB-17)." in pad.notice
    assert 'data-step="bets"' in pad.html  # the hand goes on where it was
    boss.refresh()
    assert "la dama de picas tiene una marca" in boss.html and "alert-suspect-cards" in boss.html
    page = phone.get("/p/").content.decode()
    assert "Casilla 1" in page
    for word in ("marca", "THB-17", "sospecha", "discretamente"):
        assert word not in page


def test_a_box_that_says_it_loses_is_settled_from_the_tablet_without_its_cards_THB_66(client, open_table, dealer_dana):
    from tables import reads, services
    from tables.models import Hand

    from .helpers import (
        CLOSE_BETS,
        DEAL,
        act,
        ante,
        bet_flop,
        bet_river,
        flop,
        pass_river,
        pass_turn,
        play,
        reveal_box,
        reveal_dealer,
        river,
        turn,
    )

    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), ante(3, 20), CLOSE_BETS, DEAL, bet_flop(1, 20), bet_flop(3, 40),
         flop("2c 7d 9h"), pass_turn(1), pass_turn(3), turn("Js"), pass_river(1), bet_river(3, 20), river("Kc"),
         reveal_dealer("Qh Qd"), reveal_box(3, "8s Ts"))
    screen = tablet(client, dealer_dana, open_table)
    assert 'data-action="concede"' in screen.html
    screen.tap("concede", box="1")
    hand, state = reads.current_hand(open_table)
    settled = state.settlement.box(1)
    assert settled.outcome.value == "lose" and state.box(1).cards is None
    assert Hand.objects.get(pk=hand.pk).is_finished
