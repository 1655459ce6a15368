"""Charts as inline SVG, drawn at build time (pure: numbers in, markup out).

No script and no third-party code: each chart is a static ``<svg role="img">`` with a
``<title>`` and ``<desc>``; the page shows the same numbers as a table beside it, so the
chart is never the only way to read them. Colours come from CSS classes (``series-N``),
so the light and dark themes both apply, and every bar carries a ``<title>`` tooltip.
All text is escaped here, since the result is inserted into pages as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final

WIDTH: Final = 640
BAR_HEIGHT: Final = 22
LABEL_WIDTH: Final = 150
SERIES_CLASSES: Final = 8
"""Distinct series styles in the stylesheet; more sources than this reuse them in turn."""


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"


def horizontal_bars(
    rows: Sequence[tuple[str, int]], *, chart_id: str, title: str, description: str
) -> str:
    """A horizontal bar chart of ``(label, count)`` rows, scaled to the largest count."""
    top = max((count for _, count in rows), default=0) or 1
    height = BAR_HEIGHT * max(len(rows), 1) + 10
    span = WIDTH - LABEL_WIDTH - 60
    parts = [_open(chart_id, title, description, height)]
    for i, (label, count) in enumerate(rows):
        y = 5 + i * BAR_HEIGHT
        width = span * count / top
        parts.append(
            f'<text x="{LABEL_WIDTH - 8}" y="{_num(y + 15)}" text-anchor="end" '
            f'class="chart-label">{escape(label)}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{_num(y + 3)}" width="{_num(width)}" '
            f'height="{BAR_HEIGHT - 6}" class="bar series-0">'
            f"<title>{escape(label)}: {count}</title></rect>"
            f'<text x="{_num(LABEL_WIDTH + width + 6)}" y="{_num(y + 15)}" '
            f'class="chart-value">{count}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def stacked_columns(
    days: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    chart_id: str,
    title: str,
    description: str,
) -> str:
    """Columns per day, stacked by series (e.g. sources), with a legend under the axis."""
    plot_top, plot_height, left = 10, 160, 40
    totals = [sum(values[i] for _, values in series) for i in range(len(days))]
    top = max(totals, default=0) or 1
    column = (WIDTH - left - 10) / max(len(days), 1)
    legend_rows = (len(series) + 2) // 3
    height = plot_top + plot_height + 30 + 20 * legend_rows
    parts = [_open(chart_id, title, description, height)]
    base = plot_top + plot_height
    parts.append(
        f'<line x1="{left}" y1="{base}" x2="{WIDTH - 10}" y2="{base}" class="axis"/>'
        f'<text x="{left - 6}" y="{plot_top + 10}" text-anchor="end" class="chart-value">'
        f"{top}</text>"
        f'<text x="{left - 6}" y="{base}" text-anchor="end" class="chart-value">0</text>'
    )
    for i, day in enumerate(days):
        x = left + i * column
        y = float(base)
        for s, (name, values) in enumerate(series):
            count = values[i]
            if not count:
                continue
            h = plot_height * count / top
            y -= h
            parts.append(
                f'<rect x="{_num(x + 1)}" y="{_num(y)}" width="{_num(max(column - 2, 1))}" '
                f'height="{_num(h)}" class="bar series-{s % SERIES_CLASSES}">'
                f"<title>{escape(day)}, {escape(name)}: {count}</title></rect>"
            )
        if (i % 7 == 0 and i < len(days) - 4) or i == len(days) - 1:
            parts.append(
                f'<text x="{_num(x + column / 2)}" y="{base + 16}" text-anchor="middle" '
                f'class="chart-label">{escape(day[5:])}</text>'
            )
    for s, (name, _) in enumerate(series):
        lx = left + (s % 3) * 200
        ly = base + 28 + (s // 3) * 20
        parts.append(
            f'<rect x="{lx}" y="{ly}" width="12" height="12" '
            f'class="bar series-{s % SERIES_CLASSES}"/>'
            f'<text x="{lx + 18}" y="{ly + 11}" class="chart-label">{escape(name[:28])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _open(chart_id: str, title: str, description: str, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {WIDTH} {_num(height)}" '
        f'aria-labelledby="{escape(chart_id)}-t {escape(chart_id)}-d">'
        f'<title id="{escape(chart_id)}-t">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-d">{escape(description)}</desc>'
    )
