"""The field over time as a picture: players left and the average stack, drawn as SVG on the server.

The console shows it so that a director sees at a glance how fast the field is shrinking and how deep
the stacks are, instead of reading two columns of numbers. No chart library, no CDN, no inline style:
the SVG carries CSS classes (``static/css/tournament_console.css`` colours them), so the casino's
Content-Security-Policy needs nothing new. Everything here is a pure function of the points given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _


@dataclass(frozen=True, slots=True)
class FieldPoint:
    """The field at one moment: after the start, a bust, a late entry, a chip count..."""

    at: datetime
    players: int
    chips: int  # chips in play (the average stack is chips / players)

    @property
    def average(self) -> int:
        return self.chips // self.players if self.players else 0


WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 64, 16, 28  # room for the two axes' labels and the time axis


def _nice_top(value: int) -> int:
    """A round number at or above ``value`` for an axis' top (1, 2, 5 x 10^n)."""
    if value <= 0:
        return 1
    scale = 1
    while scale * 10 <= value:
        scale *= 10
    for step in (1, 2, 5, 10):
        if step * scale >= value:
            return step * scale
    return 10 * scale  # unreachable: 10 * scale > value by the loop above


def _compact(number: int) -> str:
    """12,500 as 12.5k, 1,250,000 as 1.25M: axis labels must stay short on a phone."""
    if number >= 1_000_000:
        return f"{number / 1_000_000:.3g}M"
    if number >= 10_000:
        return f"{number / 1000:.3g}k"
    return str(number)


def field_plot(points: list[FieldPoint], *, width: int = WIDTH, height: int = HEIGHT) -> SafeString:
    """The SVG of players left (a step line: the field only changes at a bust or an entry) and of the
    average stack, on a shared time axis; an empty string when there is nothing to draw yet."""
    points = sorted(points, key=lambda p: p.at)
    if not points:
        return mark_safe("")
    start, end = points[0].at, points[-1].at
    span = max((end - start).total_seconds(), 1.0)
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    top_players = _nice_top(max(p.players for p in points))
    top_average = _nice_top(max(p.average for p in points))

    def x(point: FieldPoint) -> float:
        return LEFT + plot_w * (point.at - start).total_seconds() / span

    def y(value: int, top: int) -> float:
        return TOP + plot_h * (1 - value / top)

    # Players left as steps (the count holds until the next change), the average as a line.
    steps: list[str] = []
    for i, point in enumerate(points):
        if i:
            steps.append(f"{x(point):.1f},{y(points[i - 1].players, top_players):.1f}")
        steps.append(f"{x(point):.1f},{y(point.players, top_players):.1f}")
    average = [f"{x(p):.1f},{y(p.average, top_average):.1f}" for p in points]
    minutes = round(span / 60)
    # Five grid lines at 0, 1/4 ... of each axis' top: players on the left, the average on the right.
    rows = []
    for quarter in range(5):
        at = f"{TOP + plot_h * (1 - quarter / 4):.1f}"
        label_at = f"{TOP + plot_h * (1 - quarter / 4) + 4:.1f}"
        rows.append((LEFT, width - RIGHT, at, at, LEFT - 6, label_at, _compact(top_players * quarter // 4),
                     width - RIGHT + 6, label_at, _compact(top_average * quarter // 4)))
    grid = format_html_join(
        "", '<line class="plot-grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="plot-axis plot-axis-players" x="{}" y="{}">{}</text>'
        '<text class="plot-axis plot-axis-average" x="{}" y="{}">{}</text>', rows)
    last = points[-1]
    title = _("Players left and average stack over time")
    summary = _("%(players)d players left, average stack %(average)s, after %(minutes)d minutes") % {
        "players": last.players, "average": f"{last.average:,}", "minutes": minutes}
    return format_html(
        '<svg class="field-plot" viewBox="0 0 {w} {h}" role="img" aria-labelledby="field-plot-title field-plot-desc"'
        ' preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">'
        '<title id="field-plot-title">{title}</title><desc id="field-plot-desc">{summary}</desc>'
        '{grid}'
        '<polyline class="plot-line plot-players" points="{steps}"/>'
        '<polyline class="plot-line plot-average" points="{average}"/>'
        '<circle class="plot-dot plot-players" cx="{lx}" cy="{ly}" r="4"/>'
        '<circle class="plot-dot plot-average" cx="{lx}" cy="{la}" r="4"/>'
        '<text class="plot-axis plot-time" x="{left}" y="{bottom}">{t0}</text>'
        '<text class="plot-axis plot-time plot-time-end" x="{right}" y="{bottom}">{t1}</text>'
        '<text class="plot-legend plot-players" x="{left}" y="{legend}">{players_label}</text>'
        '<text class="plot-legend plot-average plot-time-end" x="{right}" y="{legend}">{average_label}</text>'
        '</svg>',
        w=width, h=height, title=title, summary=summary, grid=grid,
        steps=" ".join(steps), average=" ".join(average),
        lx=f"{x(last):.1f}", ly=f"{y(last.players, top_players):.1f}", la=f"{y(last.average, top_average):.1f}",
        left=LEFT, right=width - RIGHT, bottom=height - 8, legend=TOP - 4,
        t0=localtime(start).strftime("%H:%M"), t1=localtime(end).strftime("%H:%M"),
        players_label=_("Players left"), average_label=_("Average stack"),
    )
