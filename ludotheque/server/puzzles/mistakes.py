"""A player's own mistakes as puzzles: from the analyses already made of their finished games.

Each error labelled a mistake or a blunder (backgammon: bad or very bad) on the player's own
moves becomes a puzzle: the position before the error, the engine's best move as the answer
(with the moves as good as it), the error's facts (the move played, what it gave up). Nothing is
analysed again: the stored analysis is read. Its id, ``m<game id>-<ply>``, names where it is
read from.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...analysis.labels import BAD, BLUNDER, MISTAKE, VERY_BAD
from ...analysis.model import RESIGN, VERSION
from ...analysis.strength import NAMES
from ...puzzles.model import Puzzle
from ..analysis.jobs import DONE, AnalysisRow
from ..store.db import GameRow, PlayerRow

SERIOUS = frozenset({MISTAKE, BLUNDER, BAD, VERY_BAD})
SAME = 1e-9
MISTAKE_RATING = 1500.0
LIMIT = 200
"""The most mistakes listed (the newest games first)."""


def mistake_id(game_id: str, ply: int) -> str:
    return f"m{game_id}-{ply}"


def split_id(puzzle_id: str) -> tuple[str, int] | None:
    """The game and ply a mistake's id names (``None``: not a mistake's id)."""
    if not puzzle_id.startswith("m") or "-" not in puzzle_id:
        return None
    game_id, _, ply = puzzle_id[1:].rpartition("-")
    return (game_id, int(ply)) if ply.isdigit() and game_id else None


def _puzzle(game_id: str, row: GameRow, side: str, data: dict[str, Any]) -> Puzzle | None:
    """The puzzle of one judged decision (``None`` when it is no error of ``side``)."""
    best = data.get("best") or []
    if data.get("label") not in SERIOUS or data.get("side") != side or not best:
        return None
    if data.get("kind") == RESIGN or best[0]["move"] == data["played"]["move"]:
        return None
    measure = "equity" if row.game == "backgammon" else "win"
    top = best[0].get(measure)
    same = tuple(
        str(m["move"])
        for m in best[1:]
        if top is not None and m.get(measure) is not None and abs(m[measure] - top) <= SAME
    )
    facts: dict[str, Any] = {
        "played": data["played"]["move"],
        "label": data["label"],
        "loss": data.get("loss"),
        "plies": best[0].get("plies"),
        "game_id": game_id,
        "ply": data["ply"],
        "move_index": data.get("move_index", data["ply"]),
    }
    return Puzzle(
        id=mistake_id(game_id, int(data["ply"])),
        game=row.game,
        ruleset=row.ruleset,
        position=str(data["position"]),
        side=side,
        line=(str(best[0]["move"]),),
        themes=("mistake",),
        rating=MISTAKE_RATING,
        source="analysis",
        accepted=(same,) if same else (),
        facts=facts,
    )


def _deepest(rows: list[AnalysisRow]) -> AnalysisRow:
    return max(rows, key=lambda r: NAMES.index(r.strength) if r.strength in NAMES else -1)


def mistakes_of(db: Session, user_id: int, game: str | None = None) -> list[Puzzle]:
    """The user's own mistakes in their analysed games, newest game first (at most
    ``LIMIT``), from each game's deepest analysis."""
    query = (
        select(GameRow, PlayerRow.side, AnalysisRow)
        .join(PlayerRow, PlayerRow.game_id == GameRow.id)
        .join(AnalysisRow, AnalysisRow.game_id == GameRow.id)
        .where(
            PlayerRow.user_id == user_id, AnalysisRow.status == DONE, AnalysisRow.version == VERSION
        )
        .order_by(GameRow.created_at.desc())
    )
    if game:
        query = query.where(GameRow.game == game)
    found: dict[str, tuple[GameRow, str, list[AnalysisRow]]] = {}
    for row, side, analysis in db.execute(query):
        found.setdefault(row.id, (row, side, []))[2].append(analysis)
    puzzles: list[Puzzle] = []
    for game_id, (row, side, analyses) in found.items():
        chosen = _deepest(analyses)
        decisions = json.loads(chosen.result or "{}").get("decisions", [])
        for data in decisions:
            puzzle = _puzzle(game_id, row, side, data)
            if puzzle is not None:
                puzzles.append(puzzle)
        if len(puzzles) >= LIMIT:
            break
    return puzzles[:LIMIT]


def mistake(db: Session, user_id: int, puzzle_id: str) -> Puzzle | None:
    """One of the user's mistakes by its id (``None``: no such mistake of theirs)."""
    named = split_id(puzzle_id)
    if named is None:
        return None
    row = db.get(GameRow, named[0])
    if row is None:
        return None
    return next((p for p in mistakes_of(db, user_id, row.game) if p.id == puzzle_id), None)
