"""The analysis as text, for the terminal: the annotated game, then the summary per side."""

from __future__ import annotations

from .labels import EQUITY, LABELS, LUCK_LABELS, SLOWER_PLIES, SYMBOLS
from .model import Analysis, Decision, MoveValue

_TITLES = {"general": "Le Général et les rebelles", "backgammon": "Backgammon",
           "defiance": "Defiance and Domain"}  # fmt: skip
_EQUITY_WORDS = {
    "money": "equity per unit of the cube (cube decisions included)",
    "match": "normalised equity (the chance to win the match as money equity, as GNU "
    "Backgammon's mwc2eq; cube decisions included)",
}
_DRAWS = {
    "makes-repetition": "repeats the position a third time: a draw in a winning position",
    "allows-repetition": "lets the position be repeated into a draw in a winning position",
    "makes-turn-limit": "reaches the turn limit: a draw in a winning position",
    "allows-turn-limit": "lets the game run out of turns: a draw in a winning position",
}
_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders",
            "doubtful": "doubtful", "bad": "bad", "very-bad": "very bad"}  # fmt: skip


def render(analysis: Analysis, players: dict[str, str] | None = None) -> str:
    """The annotated game: every move with its mark (``?!``, ``?``, ``??``), its value and, for
    an error, the better move; the rolls with their luck; proven results where they appear;
    then the summary per side."""
    lines = [_heading(analysis, players or {}), ""]
    rolls = {r.ply: r for r in analysis.rolls}
    equity = analysis.measure == EQUITY
    last_proof = None
    width = max((len(d.played.move) for d in analysis.decisions), default=0) + 4
    for d in analysis.decisions:
        prefix = f"{d.move_index + 1:>4}. {d.side:<8}"
        roll = rolls.get(d.ply - 1)
        if equity:
            prefix += f" {roll.roll if roll is not None else '':<4}"
        move = f"{d.played.move} {d.symbol}".strip()
        line = f"{prefix} {move:<{width}} {_value(d.played, equity):>6}"
        if d.label is not None and d.best:
            better = f"{d.best[0].move} {_value(d.best[0], equity)}"
            line += f"  {_cost(d, equity)}, better: {better}"
            if d.cube_error is not None:
                line += f" ({d.cube_error})"
        if d.draw is not None:
            line += f"  [{_DRAWS[d.draw]}]"
        if roll is not None and roll.label is not None:
            line += f"  [{roll.roll}: {roll.label.replace('-', ' ')}, {roll.luck:+.3f}]"
        lines.append(line.rstrip())
        proof = d.proof.text() if d.proof is not None and not equity else None
        if proof is not None and proof != last_proof and d.played.proof is None:
            lines.append(f"{'':>6}{proof} with best play")
        last_proof = proof
    if analysis.result:
        winner = analysis.result.get("winner")
        reason = analysis.result.get("reason")
        lines.append(f"{'':>6}{'draw' if winner is None else winner + ' won'} ({reason})")
    lines += ["", _summary(analysis)]
    return "\n".join(lines)


def _heading(analysis: Analysis, players: dict[str, str]) -> str:
    title = _TITLES.get(analysis.game, analysis.game)
    who = ", ".join(f"{side}: {players[side]}" for side in analysis.sides if side in players)
    measure = (
        f"values are {_EQUITY_WORDS.get(analysis.ruleset, 'cubeless equity')} for the side "
        "that plays; marks by equity lost (GNU Backgammon: ?! above 0.04, ? above 0.08, ?? "
        "above 0.16)"
        if analysis.measure == EQUITY
        else 'values are the proven result where it is known ("the rebels win in 9": 9 '
        "moves of theirs), else the winning chance of the side that moves; marks by winning "
        "chance lost (?! from 5%, ? from 10%, ?? from 15%), and where a win is proven: ?? for "
        f"a move that gives it away, ?! for one that keeps it {SLOWER_PLIES} plies or more "
        "later than the fastest"
    )
    head = f"{title} ({analysis.ruleset}), analysis at strength {analysis.strength}"
    return "\n".join(x for x in (head, who, measure) if x)


def _value(value: MoveValue, equity: bool) -> str:
    if equity and value.equity is not None:
        return f"{value.equity:+.3f}"
    if value.proof is not None:
        return value.proof.text()
    return f"{100 * value.win:.0f}%"


def _cost(decision: Decision, equity: bool) -> str:
    """What an error cost: where the best move's win is proven, the win given away or how
    many plies later it comes; elsewhere the equity or winning chance lost."""
    best, mine, side = decision.best[0].proof, decision.played.proof, decision.side
    if not equity and best is not None and best.winner == side:
        if mine is None or mine.winner != side:
            return "the win given away"
        if best.plies is not None and mine.plies is not None and mine.plies > best.plies:
            return f"a win {mine.plies - best.plies} plies slower"
    return f"-{_loss(decision.loss, equity)}"


def _loss(loss: float, equity: bool) -> str:
    return f"{loss:.3f}" if equity else f"{100 * loss:.1f}%"


def _summary(analysis: Analysis) -> str:
    equity = analysis.measure == EQUITY
    sides = analysis.sides
    rows: list[tuple[str, list[str]]] = []
    s = analysis.summary
    rows.append(("moves (unforced)", [f"{s[x].moves} ({s[x].unforced})" for x in sides]))
    rows.append(("average loss", [_loss(s[x].average_loss, equity) for x in sides]))
    if equity:
        rows.append(("error rate (mEMG)", [f"{s[x].error_rate:.1f}" for x in sides]))
    for name in LABELS[analysis.measure]:
        rows.append(
            (f"{_PLURALS[name]} ({SYMBOLS[name]})", [str(s[x].labels[name]) for x in sides])
        )
    if equity:
        rows.append(("luck (total equity)", [f"{s[x].luck or 0.0:+.3f}" for x in sides]))
        rows.append(("luck per roll (mEMG)", [f"{s[x].luck_rate or 0.0:+.1f}" for x in sides]))
        for name in LUCK_LABELS:
            rows.append(
                (name.replace("-", " ") + " rolls", [str(s[x].luck_labels[name]) for x in sides])
            )
    width = max(len(r[0]) for r in rows)
    out = ["Summary".ljust(width) + "".join(f"{side:>12}" for side in sides)]
    for title, cells in rows:
        out.append(title.ljust(width) + "".join(f"{c:>12}" for c in cells))
    return "\n".join(out)


def decision_line(decision: Decision, equity: bool) -> str:
    """One decision in a line: the move, its mark and value, and the better move."""
    text = f"{decision.played.move}{decision.symbol} {_value(decision.played, equity)}"
    if decision.label is not None and decision.best:
        text += f", better {decision.best[0].move} {_value(decision.best[0], equity)}"
    return text


__all__ = ["decision_line", "render"]
