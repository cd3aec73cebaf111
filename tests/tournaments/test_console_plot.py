"""The field plot: players left and average stack over time as SVG, coloured by CSS classes only."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from django.utils import translation

from tournaments.plot import FieldPoint, field_plot

START = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


def _points():
    # 20 players of 10,000 chips; two bust at 30 minutes, three more at 60 (the chips stay in play).
    return [FieldPoint(START, 20, 200_000), FieldPoint(START + timedelta(minutes=30), 18, 200_000),
            FieldPoint(START + timedelta(minutes=60), 15, 200_000)]


def test_nothing_is_drawn_before_anyone_plays():
    assert field_plot([]) == ""


def test_the_average_stack_is_the_chips_in_play_over_the_players_left():
    assert FieldPoint(START, 15, 200_000).average == 13_333
    assert FieldPoint(START, 0, 0).average == 0


def test_the_plot_says_in_words_what_it_draws_for_a_screen_reader():
    with translation.override("en"):  # the English source; Spanish is the default language
        svg = str(field_plot(_points()))
    assert svg.startswith("<svg") and 'role="img"' in svg
    assert "15 players left, average stack 13,333, after 60 minutes" in svg


def test_players_left_is_drawn_as_steps_one_corner_per_change():
    svg = str(field_plot(_points()))
    players = re.search(r'class="plot-line plot-players" points="([^"]+)"', svg).group(1).split()
    # three points and a corner before each of the two later ones
    assert len(players) == 5
    # a corner keeps the height of the point before it and takes the time of the next
    assert players[1].split(",")[1] == players[0].split(",")[1]
    assert players[1].split(",")[0] == players[2].split(",")[0]


def test_the_svg_has_no_inline_style_for_the_content_security_policy():
    svg = str(field_plot(_points()))
    assert "style=" not in svg and "<script" not in svg


def test_a_name_cannot_break_out_of_the_svg():
    # The plot draws numbers only; its texts are the translated labels, escaped like any other.
    svg = str(field_plot([FieldPoint(START, 3, 30_000)]))
    assert svg.count("<svg") == 1 and svg.endswith("</svg>")
