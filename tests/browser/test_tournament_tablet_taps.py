"""How many taps a three-player hand to the showdown takes on the tournament dealer's tablet (issue #36, item 3).

Nine players at the table: everyone folds to the button, the button calls, the small blind completes, the big
blind checks; the flop, turn and river are checked around; the three hands are shown (or the first is shown
and the two others mucked); the dealer confirms the award. Every touch of the screen is a tap; a typed card
is counted apart, as keys. The counts are the figures docs/tournament-tablets.md records ("Taps per hand").
Written so that it also runs on the tablet before issue #36 (cards typed, one fold a tap): that run gave the
"before" figures there.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet_at_the_table import (  # noqa: F401 - fixtures
    _a_table_of,
    _tablet,
    quick_passwords,
)
from tests.tournaments.conftest import dealer_dana_here, director_dora, floor_fede  # noqa: F401 - fixtures
from tournaments.reads import hands as hand_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The taps the hand takes (docs/tournament-tablets.md): before issue #36, 32 taps and 27 keys with the three
#: hands shown, 30 taps and 17 keys with two mucked.
TAPS_AFTER = {"all shown": 20, "two mucked": 18}
NINE_HANDED_TABLET = {"width": 1024, "height": 768}


class CountingTablet:
    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.keys = 0

    def version(self) -> str:
        return self.page.get_attribute("#deal-table", "data-version")

    def wait_past(self, version: str) -> None:
        wait_until(self.page, f"document.getElementById('deal-table').dataset.version !== '{version}'", 10000)

    def tap(self, selector: str) -> None:
        version = self.version()
        self.page.click(selector)
        self.taps += 1
        self.wait_past(version)

    def to_act(self) -> int | None:
        seat = self.page.get_attribute("[data-step='betting']", "data-to-act") if self.page.query_selector(
            "[data-step='betting']") else None
        if seat is None and self.page.query_selector("[data-step='betting'] h2"):  # before: read the heading
            seat = self.page.inner_text("[data-step='betting'] h2").split()[1]
        return int(seat) if seat else None

    def folds_to(self, seat: int) -> None:
        shortcut = f"[data-fold-to='{seat}']"
        if self.page.query_selector(shortcut):
            self.page.click(shortcut)
            self.taps += 1
            wait_until(self.page, f"document.querySelector('[data-step=betting]')?.dataset.toAct === '{seat}'"
                       " && !document.getElementById('deal-table').classList.contains('is-running-shortcut')", 20000)
            return
        while self.to_act() != seat:
            self.tap("[data-action='fold']")

    def checks_around(self) -> None:
        if self.page.query_selector("[data-check-around]"):
            version = self.version()
            self.page.click("[data-check-around]")
            self.taps += 1
            self.wait_past(version)
            self.page.wait_for_selector("[data-step='board'], [data-step='showdown']", timeout=20000)
            return
        while self.page.query_selector("[data-step='betting']"):
            self.tap("[data-action='check']")

    def cards(self, step: str, cards: str) -> None:
        picker = f"[data-step='{step}'] form[data-card-picker], form[data-step='{step}'][data-card-picker]"
        version = self.version()
        if self.page.query_selector(picker):
            for card in cards.split():
                self.page.click(f"#deal-table form[data-card-picker] label.pick:has(input[value='{card}'])")
                self.taps += 1
            self.wait_past(version)
            return
        # before issue #36: a tap on the field, the cards typed, a tap on the button
        self.page.fill(f"[data-step='{step}'] input[name=cards]", cards)
        self.taps += 1
        self.keys += len(cards)
        self.tap(f"[data-step='{step}'] button[data-action='{'deal' if step == 'board' else 'show'}']")


def _seat_with(page, marker: str) -> int:
    return int(page.inner_text(f"#deal-table tr[data-seat]:has(.marker:text-is('{marker}'))").split()[0])


@pytest.mark.parametrize("showdown", list(TAPS_AFTER))
def test_a_three_player_hand_to_the_showdown_at_a_nine_player_table_takes_the_recorded_taps(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, showdown, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 9, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, NINE_HANDED_TABLET)
    tablet = CountingTablet(page)

    tablet.tap("[data-action='new-hand']")
    button, small, big = (_seat_with(page, m) for m in ("D", "SB", "BB"))
    tablet.folds_to(button)
    tablet.tap("[data-action='call']")  # the button
    tablet.tap("[data-action='call']")  # the small blind completes
    tablet.tap("[data-action='check']")  # the big blind
    for board in ("2c 7d 9h", "Js", "Kc"):
        tablet.cards("board", board)
        tablet.checks_around()
    # the small blind shows first (TDA-16); the best hand first, so the others may muck
    tablet.cards("showdown", "As Ad")
    if showdown == "all shown":
        tablet.cards("showdown", "3h 4s")
        tablet.cards("showdown", "5c 6c")
    else:
        tablet.tap("[data-action='muck']")
        tablet.tap("[data-action='muck']")
    tablet.tap("[data-action='award-pots']")
    page.wait_for_selector("[data-step='between-hands']")

    def the_hand():
        hand = hand_reads.latest_hand(hand_reads.dealt_table(table.tournament, table.number))
        engine, _rows, _last = hand_reads.replayed(hand)
        return engine

    engine = off_the_browser_thread(the_hand)
    assert [str(c) for c in engine.board] == ["2c", "7d", "9h", "Js", "Kc"]
    assert engine.payouts[small] == 3 * 50 and {button, big} <= set(engine.payouts)
    print(f"{showdown}: {tablet.taps} taps, {tablet.keys} keys")
    assert (tablet.taps, tablet.keys) == (TAPS_AFTER[showdown], 0)
