"""A player's rating history drawn as an SVG chart on a time axis, with its points as a table
for those who do not see it (no script: the page's Content-Security-Policy forbids inline
ones, and a chart needs none).

The time axis has a few ticks at round instants chosen by the span of the games (every 5
minutes to every 12 hours within a day, days and weeks, months, years), each labelled as the
reader's language writes that unit (``14:30``, ``5 déc.``, ``déc. 2026``, ``2027``): within one
unit the labels never repeat, and the span as a whole is written under the axis. Games within
the same minute, or a single game, are one instant: the chart shows the date under the points.
Times are the server's, in UTC.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from babel.dates import format_interval, format_skeleton
from markupsafe import Markup, escape

from ..i18n.languages import format_day, translate

WIDTH, HEIGHT = 480, 210
LEFT, RIGHT, TOP, BOTTOM = 50, 16, 14, 48
CHAR = 8.4  # the width of a label's character (14 px monospace: site.css)
MAX_TICKS = 5  # time ticks at most
GAP = 12  # px at least between two time labels
TABLE_ROWS = 100  # the text alternative lists the latest games, at most this many
MINUTE, HOUR, DAY = 60, 3600, 86400
SAME_DAY = 20 * HOUR  # spans up to this long have ticks at times of day, longer ones at days


@dataclass(frozen=True)
class Point:
    """A player's rating after a rated game (``change``: what the game moved it by)."""

    at: datetime
    rating: float
    change: float | None = None


@dataclass(frozen=True)
class Step:
    """A distance between two time ticks: a number of seconds, or of months."""

    seconds: int = 0
    months: int = 0

    @property
    def unit(self) -> str:
        """What a label of this step writes: ``time``, ``day``, ``month`` or ``year``."""
        if self.months:
            return "year" if self.months % 12 == 0 else "month"
        return "time" if self.seconds < DAY else "day"


STEPS = (
    *(Step(seconds=m * MINUTE) for m in (1, 2, 5, 10, 15, 30)),
    *(Step(seconds=h * HOUR) for h in (1, 2, 3, 6, 12)),
    *(Step(seconds=d * DAY) for d in (1, 2, 7, 14)),
    *(Step(months=m) for m in (1, 2, 3, 6)),
    *(Step(months=12 * y) for y in (1, 2, 5, 10, 20, 50, 100)),
)
SKELETONS = {"time": "Hm", "day": "MMMd", "month": "yMMM", "year": "y"}


def aware(when: datetime) -> datetime:
    """A stored date as UTC (SQLite gives them back without their time zone)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _add_months(when: datetime, months: int) -> datetime:
    index = when.year * 12 + when.month - 1 + months
    return when.replace(year=index // 12, month=index % 12 + 1, day=1)


Fits = Callable[[list[datetime], list[str]], bool]


def time_ticks(
    start: datetime, end: datetime, lang: str = "en", fits: Fits | None = None
) -> tuple[Step, list[datetime], list[str]]:
    """Round instants between ``start`` and ``end`` (UTC), at most ``MAX_TICKS``, and their
    labels in ``lang``: the finest step of ``STEPS`` that needs no more ticks and whose
    labels ``fits`` accepts (the chart's: they do not touch)."""
    start, end = aware(start), aware(end)
    span = max(1.0, (end - start).total_seconds())
    for step in STEPS:
        if step.unit == "time" and span > SAME_DAY:
            continue  # times of day label one day only: they would repeat
        if span / (step.seconds or step.months * 28 * DAY) > MAX_TICKS + 1:
            continue
        ticks = _ticks(step, start, end)
        if len(ticks) > MAX_TICKS:
            continue
        labels = tick_labels(step, ticks, lang)
        if fits is None or fits(ticks, labels):
            return step, ticks, labels
    step = STEPS[-1]
    ticks = _ticks(step, start, end)[:1]
    return step, ticks, tick_labels(step, ticks, lang)


def _ticks(step: Step, start: datetime, end: datetime) -> list[datetime]:
    if step.months:
        first = start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        if first < start:
            first = _add_months(first, 1)
        index = first.year * 12 + first.month - 1
        first = _add_months(first, -index % step.months)  # on a multiple of the step
        out: list[datetime] = []
        while first <= end:
            out.append(first)
            first = _add_months(first, step.months)
        return out
    epoch = datetime(1970, 1, 5, tzinfo=UTC)  # a Monday: weeks start on Mondays
    offset = (start - epoch).total_seconds()
    tick = epoch + timedelta(seconds=math.ceil(offset / step.seconds) * step.seconds)
    out = []
    while tick <= end:
        out.append(tick)
        tick += timedelta(seconds=step.seconds)
    return out


def tick_labels(step: Step, ticks: list[datetime], lang: str) -> list[str]:
    """The ticks' labels: the unit of ``step`` as ``lang`` writes it (months without their
    year when all are in one year: the span under the axis says it)."""
    skeleton = SKELETONS[step.unit]
    if step.unit == "month" and len({t.year for t in ticks}) == 1:
        skeleton = "MMM"
    return [str(format_skeleton(skeleton, aware(t), locale=lang)) for t in ticks]


def _rating_ticks(low: float, high: float) -> list[int]:
    """Round ratings between ``low`` and ``high``: three to five of them."""
    for size in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        first = math.ceil(low / size) * size
        ticks = list(range(first, int(high) + 1, size))
        if len(ticks) <= 5:
            return ticks
    return [round(low), round(high)]


def rating_chart(points: list[Point], label: str, lang: str = "en") -> Markup:
    """The ratings of ``points`` (in order) as a line on a time axis, with its text
    alternative (a title and a description) and a table of the points; ``label`` makes the
    chart's ids unique on the page."""
    if not points:
        return Markup("")
    ratings = [p.rating for p in points]
    low, high = min(ratings), max(ratings)
    if high - low < 60:
        middle = (high + low) / 2
        low, high = middle - 30, middle + 30
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    first, last = aware(points[0].at), aware(points[-1].at)
    span = (last - first).total_seconds()
    one_instant = span < MINUTE
    if not one_instant:
        first -= timedelta(seconds=span * 0.03)
        last += timedelta(seconds=span * 0.03)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    base = HEIGHT - BOTTOM

    def x_of(when: datetime) -> float:
        if one_instant:
            return LEFT + plot_w / 2
        whole = (last - first).total_seconds()
        return LEFT + plot_w * (aware(when) - first).total_seconds() / whole

    def y_of(rating: float) -> float:
        return TOP + plot_h * (1 - (rating - low) / (high - low))

    ident = escape(label)
    coords = [(round(x_of(p.at), 1), round(y_of(p.rating), 1)) for p in points]
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-{ident}-title chart-{ident}-desc" data-points="{len(points)}">',
        f'<title id="chart-{ident}-title">{escape(_title(points, lang))}</title>',
        f'<desc id="chart-{ident}-desc">{escape(_description(points, lang))}</desc>',
    ]
    for rating in _rating_ticks(low, high):
        y = round(y_of(rating), 1)
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}"/>')
        parts.append(f'<text class="tick rating-tick" x="{LEFT - 6}" y="{y + 4}" '
                     f'text-anchor="end">{rating}</text>')  # fmt: skip
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>')
    if one_instant:
        parts.append(f'<text class="tick time-tick" x="{LEFT + plot_w / 2}" y="{base + 18}" '
                     f'text-anchor="middle">{escape(format_day(lang, first))}</text>')  # fmt: skip
    else:

        def placed(ticks: list[datetime], labels: list[str]) -> list[float]:
            """Where each label's middle goes: under its tick, inside the chart."""
            out = []
            for tick, text in zip(ticks, labels, strict=True):
                half = len(text) * CHAR / 2
                out.append(round(min(max(x_of(tick), half + 2), WIDTH - half - 2), 1))
            return out

        def fits(ticks: list[datetime], labels: list[str]) -> bool:
            middles = placed(ticks, labels)
            return all(
                b - a >= (len(u) + len(v)) * CHAR / 2 + GAP
                for a, b, u, v in zip(middles, middles[1:], labels, labels[1:], strict=False)
            )

        step, ticks, names = time_ticks(first, last, lang, fits)
        for tick, text, middle in zip(ticks, names, placed(ticks, names), strict=True):
            x = round(x_of(tick), 1)
            parts.append(f'<line class="axis" x1="{x}" y1="{base}" x2="{x}" y2="{base + 5}"/>')
            parts.append(f'<text class="tick time-tick" x="{middle}" y="{base + 18}" '
                         f'text-anchor="middle">{escape(text)}</text>')  # fmt: skip
        span_text = escape(_span(points, step, lang))
        parts.append(f'<text class="tick span" x="{LEFT + plot_w / 2}" y="{HEIGHT - 6}" '
                     f'text-anchor="middle">{span_text}</text>')  # fmt: skip
    if len(points) > 1:
        line = " ".join(f"{x},{y}" for x, y in coords)
        parts.append(f'<polyline class="line" points="{line}"/>')
    parts += [f'<circle class="dot" cx="{x}" cy="{y}" r="3"/>' for x, y in coords]
    parts.append("</svg>")
    return Markup("".join(parts)) + _table(points, label, lang)


def _title(points: list[Point], lang: str) -> str:
    first = points[0].rating - (points[0].change or 0.0)
    return translate(lang, "chart.title", start=round(first), end=round(points[-1].rating))


def _description(points: list[Point], lang: str) -> str:
    ratings = [p.rating for p in points]
    when = format_interval(aware(points[0].at), aware(points[-1].at), "yMMMd", locale=lang)
    return translate(lang, "chart.description", n=len(points), when=when,
                     low=round(min(ratings)), high=round(max(ratings)))  # fmt: skip


def _span(points: list[Point], step: Step, lang: str) -> str:
    """The span of the games under the axis (with ``UTC`` when the ticks are times)."""
    when = str(format_interval(aware(points[0].at), aware(points[-1].at), "yMMMd", locale=lang))
    return translate(lang, "chart.utc", when=when) if step.unit == "time" else when


def _table(points: list[Point], label: str, lang: str) -> Markup:
    """The points as a table in a disclosure (the latest ``TABLE_ROWS``, newest first)."""
    shown = points[::-1][:TABLE_ROWS]
    rows = "".join(
        f'<tr><td>{escape(_moment(p.at, lang))}</td><td class="num">{round(p.rating)}</td>'
        f'<td class="num">{_signed(p.change)}</td></tr>'
        for p in shown
    )
    caption = translate(lang, "chart.table", n=len(shown))
    return Markup(
        f'<details class="chart-table" id="chart-{escape(label)}-table"><summary>'
        f'{escape(caption)}</summary><div class="table-wrap"><table>'
        f'<thead><tr><th scope="col">{escape(translate(lang, "chart.when"))}</th>'
        f'<th scope="col" class="num">{escape(translate(lang, "chart.rating"))}</th>'
        f'<th scope="col" class="num">{escape(translate(lang, "chart.change"))}</th></tr>'
        f"</thead><tbody>{rows}</tbody></table></div></details>"
    )


def _signed(change: float | None) -> str:
    """A rating change as a table shows it: ``+12``, ``−7`` (a minus sign), nothing."""
    return "" if change is None else f"{round(change):+d}".replace("-", "\u2212")


def _moment(when: datetime, lang: str) -> str:
    """A game's date and time (UTC) in ``lang``."""
    day = format_day(lang, aware(when))
    return f"{day}, {format_skeleton('Hm', aware(when), locale=lang)}"
