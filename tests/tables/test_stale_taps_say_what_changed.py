"""Issue #35, item 2: a tap made on a dealer's tablet or a pit console that another screen's tap has moved past
is refused (409) naming what was recorded at the table since the version the screen showed, in the viewer's
language, oldest first, a few lines at most; the tablet is told nothing it may not show (no card, nothing only
the pit hears of)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation

from casino.refusals import CHANGES_SAID
from casino.rules.holdem_bonus import HandState
from tables import reads, services
from tables.models import Alert, Hand

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    flop,
    fold,
    pass_river,
    pass_turn,
    play,
    reveal_box,
    reveal_dealer,
    river,
    turn,
)
from .screens import console, tablet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]

#: A card as a code ("Th") or a suit's symbol: nothing of a card belongs in a stale tap's answer.
ANY_CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b|[♠♥♦♣]")


def said_on(screen) -> str:
    """The screen's notice as its viewer reads it (the HTML's escapes undone)."""
    return html.unescape(screen.notice)


def _sentences(notice: str) -> list[str]:
    """The lines between the lead-in and "Check and try again."."""
    body = notice.removeprefix("Since your screen:").removesuffix("Check and try again.")
    return [s for s in re.split(r"(?<=[.…])\s+", body.strip()) if s]


def test_a_stale_tap_on_the_tablet_names_the_bets_recorded_since_its_screen_in_english(hand_started, dealer_dana):
    pad = tablet(Client(), dealer_dana, hand_started, "en")
    shown = pad.version
    # the dealer's second screen (or a retry that went through) records three taps
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), CLOSE_BETS)

    pad.tap("bet", box="2", spot="ante", amount="10", version=shown, expect=409)

    assert said_on(pad) == ("Since your screen: Box 1 placed an ante of 10. Box 1 placed a Bonus bet of 5. "
                          "Bets were closed (no va más). Check and try again.")
    assert reads.current_hand(hand_started)[1].box(2) is None  # the late tap recorded nothing


def test_a_stale_tap_on_the_tablet_names_the_card_dealt_since_in_spanish(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20))
    pad = tablet(Client(), dealer_dana, hand_started)  # the house's language
    shown = pad.version
    play(hand_started, dealer_dana, flop("2c 7d 9h"))

    pad.tap("decide", box="1", street="turn", choice="check", version=shown, expect=409)

    assert said_on(pad) == "Desde lo que muestra su pantalla: Se repartió el flop. Revise e intente de nuevo."


def test_a_stale_tap_on_the_console_names_the_award_decided_since_in_english(hand_started, dealer_dana,
                                                                            pit_boss_pat):
    play(hand_started, dealer_dana, ante(2, 10), bonus(2, 5), CLOSE_BETS, DEAL, bet_flop(2, 20), flop("2c 7d 9h"),
         pass_turn(2), turn("Js"), pass_river(2), river("Kc"), reveal_dealer("Ah Ad"), reveal_box(2, "As Ac"))
    hand = Hand.objects.get(table=hand_started)
    boss = console(Client(), pit_boss_pat, hand_started, "en")
    shown = boss.version
    # the pit boss's other screen approves the held award (THB-54)
    act(services.decide_award, hand_started, pit_boss_pat, hand_id=hand.pk, box=2, approve=True)

    boss.tap("award", hand=str(hand.pk), box="2", approve="0", reason="late", version=shown, expect=409)

    assert said_on(boss) == "Since your screen: The pit boss approved box 2's award. Check and try again."


def test_a_stale_tap_on_the_console_names_the_dealers_taps_since_in_spanish(hand_started, dealer_dana, pit_boss_pat):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20))
    boss = console(Client(), pit_boss_pat, hand_started)
    shown = boss.version
    play(hand_started, dealer_dana, flop("2c 7d 9h"), pass_turn(1), turn("Js"))

    boss.tap("alert", alert="1", version=shown, expect=409)

    with translation.override("es"):
        checked = translation.gettext("Box %(box)s checked the turn.") % {"box": 1}
    assert said_on(boss) == ("Desde lo que muestra su pantalla: Se repartió el flop. " + checked
                           + " Se repartió el turn. Revise e intente de nuevo.")


def test_a_stale_tap_names_a_new_hand_and_the_pit_bosss_steps(open_table, dealer_dana, pit_boss_pat):
    """The opening, the hand's start and the closing are said too, not only a hand's records."""
    from tables import sessions

    pad = tablet(Client(), dealer_dana, open_table, "en")
    shown = pad.version
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    act(sessions.request_closing, open_table, dealer_dana)
    act(sessions.confirm_closing, open_table, pit_boss_pat, approve=False)

    pad.tap("start-hand", mode="recorded", version=shown, expect=409)

    assert _sentences(said_on(pad)) == ["…", "Bets were closed (no va más).", "The cards were dealt.", "Box 1 folded.",
                                      "The dealer asked to close the table.",
                                      "The pit boss sent the table back to play."]


def test_at_most_a_few_lines_are_said_the_last_ones_oldest_first(hand_started, dealer_dana):
    pad = tablet(Client(), dealer_dana, hand_started, "en")
    shown = pad.version
    play(hand_started, dealer_dana, *[ante(box, 5 + box) for box in range(1, 8)], bonus(7, 5))

    pad.tap("close-bets", version=shown, expect=409)

    said = _sentences(said_on(pad))
    assert len(said) == CHANGES_SAID and said[0] == "…"  # the earlier ones left out, and said to be
    assert said[1:] == [f"Box {box} placed an ante of {5 + box}." for box in (4, 5, 6, 7)] + [
        "Box 7 placed a Bonus bet of 5."]


def test_the_tablet_is_never_told_a_hole_card_a_face_down_dealer_card_or_the_shoe(open_table, dealer_dana):
    """A tablet is seen from the boxes (THB-73): the dealt hand's shoe, the boxes' and the dealer's cards dealt
    face down, and a folded box's cards the dealer recorded, stay off its 409 as they stay off its screen."""
    pad = tablet(Client(), dealer_dana, open_table, "en")
    shown = pad.version
    act(services.start_hand, open_table, dealer_dana, mode=Hand.Mode.DEALT)
    play(open_table, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL)
    _hand, state = reads.current_hand(open_table)
    assert isinstance(state, HandState) and state.dealer_cards and state.box(1).cards  # dealt, face down

    pad.tap("close-bets", version=shown, expect=409)

    assert _sentences(said_on(pad)) == ["Hand 1 was started.", "Box 1 placed an ante of 10.",
                                      "Box 2 placed an ante of 10.", "Bets were closed (no va más).",
                                      "The cards were dealt."]
    assert not ANY_CARD.search(said_on(pad)), said_on(pad)


def test_a_folded_boxs_recorded_cards_are_not_named(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(5, 5), CLOSE_BETS, DEAL, bet_flop(1, 20))
    pad = tablet(Client(), dealer_dana, hand_started, "en")
    shown = pad.version
    play(hand_started, dealer_dana, fold(5, "3d 4d"))

    pad.tap("decide", box="5", street="flop", choice="fold", version=shown, expect=409)

    assert said_on(pad) == "Since your screen: Box 5 folded. Check and try again."


def test_suspect_cards_are_said_to_the_pit_and_never_on_the_tablet_THB_17(open_table, dealer_dana, pit_boss_pat):
    pad = tablet(Client(), dealer_dana, open_table, "en")
    boss = console(Client(), pit_boss_pat, open_table, "en")
    shown = pad.version
    act(services.report_suspect_cards, open_table, dealer_dana, note="a marked queen")

    pad.tap("start-hand", mode="recorded", version=shown, expect=409)
    boss.tap("alert", alert="1", version=shown, expect=409)

    assert said_on(pad) == "The table changed: refreshing."  # nothing the players around the tablet may read
    assert said_on(boss) == "Since your screen: The dealer reported suspect cards (THB-17). Check and try again."

    # nor that the pit boss has seen it
    shown = pad.version
    alert = Alert.objects.get(table=open_table, kind=Alert.Kind.SUSPECT_CARDS)
    act(services.acknowledge_alert, open_table, pit_boss_pat, alert_id=alert.pk)
    pad.tap("start-hand", mode="recorded", version=shown, expect=409)
    assert said_on(pad) == "The table changed: refreshing."
