"""A tournament player's phone at 390x844, in Debian's chromium, in Spanish: the clock's time left, the biggest
figure of its card, reads dark on the card's white (C-04). The room's TV draws the same part (tournaments/_clock.html)
white on black, and its white digits had carried over to the phone, where they were invisible on the white card."""

import pytest

from tests.browser.conftest import off_the_browser_thread
from tests.browser.test_tournament_phone_hand import DRAWN, _phone
from tests.browser.test_tournament_phone_rulings import PHONE, _three_handed
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    director_dora,
    floor_fede,
    registering,
    sunday_event,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: WCAG's contrast ratio of a large text's colour to its background's (3:1 is its least for large text; 4.5 asked).
CONTRAST = """(sel) => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => v / 255)
                       .map(v => v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4);
                     return .2126 * r + .7152 * g + .0722 * b; };
  const el = document.querySelector(sel);
  let back = el;
  while (back && getComputedStyle(back).backgroundColor.match(/[\\d.]+/g).length === 4
         && Number(getComputedStyle(back).backgroundColor.match(/[\\d.]+/g)[3]) === 0) back = back.parentElement;
  const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(back || document.body).backgroundColor)];
  return (Math.max(a, b) + .05) / (Math.min(a, b) + .05); }"""


@pytest.fixture
def quick_passwords():
    """The real hashers: nobody logs in here, but the fixtures' staff are made with them as elsewhere."""


def test_the_phones_clock_shows_its_time_left_dark_on_its_white_card_not_the_tvs_white_C_04(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    _table, in_turn, _later, links = off_the_browser_thread(
        lambda: _three_handed(registering, director_dora, floor_fede, dealer_dana))
    phone = _phone(browser, server, links[in_turn], "es-ES", [])
    phone.set_viewport_size(PHONE)
    phone.wait_for_selector(DRAWN, timeout=10000)
    time_left = "#player-view .tphone-clock [data-role='time-left']"
    assert ":" in phone.inner_text(time_left)  # the clock runs: its time left is there to be read
    assert phone.evaluate(CONTRAST, time_left) >= 4.5
