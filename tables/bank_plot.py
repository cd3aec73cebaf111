"""The shift report's plot (issue #39, docs/bank.md), drawn as SVG on the server (as the tournament console's:
``tournaments/plot.py``): each table's win (a bar, above or below the zero line) and hold (a dot on the right
axis, in percent), and the shift's running difference between the counted win and the hands as the sessions
closed (a step line under it). No chart library, no inline style: CSS classes only. Pure function of its input.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

WIDTH, BARS_H, LINE_H = 640, 220, 110
LEFT, RIGHT, TOP = 56, 56, 18


def _top(value: int) -> int:
    value = abs(value)
    if value <= 0:
        return 1
    scale = 1
    while scale * 10 <= value:
        scale *= 10
    for step in (1, 2, 5, 10):
        if step * scale >= value:
            return step * scale
    return 10 * scale


def shift_plot(rows, differences: list[tuple[datetime, int]], start: datetime, end: datetime) -> SafeString:
    """The SVG of the shift: win and hold per table, and the difference over the shift; '' without tables."""
    if not rows:
        return mark_safe("")
    plot_w = WIDTH - LEFT - RIGHT
    wins = [r.result.win for r in rows]
    top_win = _top(max(abs(w) for w in wins))
    holds = [r.result.hold for r in rows]
    top_hold = max([abs(h) for h in holds if h is not None] + [0.01])
    zero = TOP + BARS_H / 2
    half = BARS_H / 2 - 4
    slot = plot_w / len(rows)
    bars, dots, labels = [], [], []
    for i, (row, win, hold) in enumerate(zip(rows, wins, holds, strict=True)):
        x = LEFT + i * slot + slot * 0.15
        h = half * abs(win) / top_win
        y = zero - h if win >= 0 else zero
        bars.append(("plot-win" if win >= 0 else "plot-loss", f"{x:.1f}", f"{y:.1f}", f"{slot * 0.7:.1f}", f"{h:.1f}",
                     row.table.name, win))
        if hold is not None:
            dots.append((f"{x + slot * 0.35:.1f}", f"{zero - half * hold / top_hold:.1f}", row.table.name,
                         f"{hold:.1%}"))
        labels.append((f"{x + slot * 0.35:.1f}", f"{TOP + BARS_H + 12:.0f}", row.table.name))
    line_top = TOP + BARS_H + 24
    span = max((end - start).total_seconds(), 1.0)
    top_diff = _top(max([abs(d) for _at, d in differences] + [1]))
    mid = line_top + LINE_H / 2
    points, previous = [f"{LEFT},{mid:.1f}"], mid
    for at, diff in differences:
        x = LEFT + plot_w * min(max((at - start).total_seconds() / span, 0), 1)
        y = mid - (LINE_H / 2 - 4) * diff / top_diff
        points += [f"{x:.1f},{previous:.1f}", f"{x:.1f},{y:.1f}"]
        previous = y
    points.append(f"{LEFT + plot_w},{previous:.1f}")
    height = line_top + LINE_H + 20
    final = differences[-1][1] if differences else 0
    return format_html(
        '<svg class="shift-plot" viewBox="0 0 {w} {h}" role="img" aria-labelledby="shift-plot-title shift-plot-desc"'
        ' preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">'
        '<title id="shift-plot-title">{title}</title><desc id="shift-plot-desc">{desc}</desc>'
        '<line class="plot-grid" x1="{left}" x2="{right}" y1="{zero}" y2="{zero}"/>'
        '<text class="plot-axis" x="4" y="{top_y}">{top_win}</text><text class="plot-axis" x="4" y="{bottom_y}">'
        '-{top_win}</text><text class="plot-axis" x="{right_label}" y="{top_y}">{top_hold}</text>'
        '{bars}{dots}{labels}'
        '<line class="plot-grid" x1="{left}" x2="{right}" y1="{mid}" y2="{mid}"/>'
        '<polyline class="plot-line plot-difference" points="{points}"/>'
        '<text class="plot-legend" x="{left}" y="{line_label}">{diff_label}</text>'
        '<text class="plot-axis plot-time" x="{left}" y="{time_y}">{t0}</text>'
        '<text class="plot-axis plot-time plot-time-end" x="{right}" y="{time_y}">{t1}</text>'
        '<text class="plot-legend" x="{left}" y="12">{bars_label}</text>'
        '</svg>',
        w=WIDTH, h=f"{height:.0f}", title=_("Win and hold per table; the difference over the shift"),
        desc=_("%(tables)d tables, total win %(win)s, difference at the end %(difference)s") % {
            "tables": len(rows), "win": f"{sum(wins):,}", "difference": final},
        left=LEFT, right=WIDTH - RIGHT, zero=f"{zero:.1f}", top_y=TOP + 4, bottom_y=f"{TOP + BARS_H - 2:.0f}",
        top_win=top_win, right_label=WIDTH - RIGHT + 4, top_hold=f"{top_hold:.0%}",
        bars=format_html_join("", '<rect class="plot-bar {}" x="{}" y="{}" width="{}" height="{}" '
                                  'data-table="{}" data-win="{}"/>', bars),
        dots=format_html_join("", '<circle class="plot-dot plot-hold" cx="{}" cy="{}" r="4" data-table="{}" '
                                  'data-hold="{}"/>', dots),
        labels=format_html_join("", '<text class="plot-axis plot-table" x="{}" y="{}">{}</text>', labels),
        mid=f"{mid:.1f}", points=" ".join(points), line_label=f"{line_top + 10:.0f}",
        diff_label=_("Difference (counted win less the hands), running: %(final)s") % {"final": final},
        time_y=f"{height - 4:.0f}", t0=localtime(start).strftime("%H:%M"), t1=localtime(end).strftime("%H:%M"),
        bars_label=_("Win per table (bars) and hold (dots)"),
    )
