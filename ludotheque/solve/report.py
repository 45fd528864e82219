"""The answer and the figures of a solve, as text: the value of the start and of each of the
rebels' opening moves, and a table of the positions of each value per layer."""

from __future__ import annotations

from collections.abc import Iterable

from ..games.general.rules import GAME
from .layout import from_state
from .retrograde import RawStore, SublayerStats
from .tables import Tables, Verdict, decode


def raw_verdict(store: RawStore, state_text: str) -> Verdict:
    """The verdict of a position from the solver's own (raw) tables."""
    from .layout import index

    state = GAME.parse_position(state_text)
    position = from_state(state)
    code = int(store.load(position.layer, position.flight, mmap=True)[index(position)])
    return decode(code, position.side)


def answer_lines(store: RawStore) -> list[str]:
    """The start and the position after each of the rebels' opening moves."""
    start = GAME.start()
    first = raw_verdict(store, start.position())
    lines = [f"start ({start.position()}): {first.describe()} ({first.plies} plies)"]
    for move in start.legal_moves():
        after = start.play(move)
        verdict = raw_verdict(store, after.position())
        lines.append(f"  {move}: {verdict.describe()} ({verdict.plies} plies)")
    return lines


def opening_verdicts(tables: Tables) -> list[tuple[str, Verdict | None]]:
    """(move, verdict of the position after it) for the rebels' opening moves, from ``tables``."""
    start = GAME.start()
    return [(str(m), tables.verdict(start.play(m))) for m in start.legal_moves()]


def _sum(stats: Iterable[SublayerStats], key: str) -> int:
    return sum(s.counts.get(f"r:{key}", 0) + s.counts.get(f"g:{key}", 0) for s in stats)


def layer_table(stats: list[SublayerStats]) -> str:
    """A Markdown table: per sub-layer, the positions of each value (both sides to move),
    the longest distance, time and peak memory."""
    rows = [
        "| rebels | flight | positions | general wins | rebels win | draw | longest (plies) "
        "| processor (s) | wall (s) | peak memory (MB) |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in sorted(stats, key=lambda s: (s.rebels, s.flight)):
        rows.append(
            f"| {s.rebels} | {'available' if s.flight else 'used'} | {s.positions:,} "
            f"| {_sum([s], 'general-wins'):,} | {_sum([s], 'rebels-win'):,} "
            f"| {_sum([s], 'draw'):,} | {s.max_plies} | {s.cpu_seconds:,.0f} | {s.seconds:,.0f} "
            f"| {s.peak_rss_mb:,.0f} |"
        )
    total = sum(s.positions for s in stats)
    rows.append(
        f"| all | | {total:,} | {_sum(stats, 'general-wins'):,} | {_sum(stats, 'rebels-win'):,} "
        f"| {_sum(stats, 'draw'):,} | {max((s.max_plies for s in stats), default=0)} "
        f"| {sum(s.cpu_seconds for s in stats):,.0f} | {sum(s.seconds for s in stats):,.0f} "
        f"| {max((s.peak_rss_mb for s in stats), default=0):,.0f} |"
    )
    return "\n".join(rows)
