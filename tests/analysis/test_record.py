"""Analysing whole records: reproducible, stored as JSON, summed up per side; hints; the CLI."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import Analysis, InvalidAnalysis, analyse, best_moves
from ludotheque.analysis.labels import EQUITY, LABELS, WIN
from ludotheque.cli import main
from ludotheque.core import CHANCE
from ludotheque.record import Record


@cache
def played(game: str, ruleset: str | None, moves: int, level: str = "easy") -> str:
    """A seeded game between two computer players, as record JSON."""
    record = Record.new(game, ruleset, seed="analysis-tests")
    agents = {
        side: make_agent(game, level, 11 + i) for i, side in enumerate(record.game_object.sides)
    }
    while record.outcome() is None and len(record.moves) < moves:
        if record.state.to_move == CHANCE:
            record.roll()
        else:
            record.play(agents[str(record.state.to_move)].choose(record.state))
    return record.to_json()


def record_of(game: str, ruleset: str | None, moves: int) -> Record:
    return Record.from_json(played(game, ruleset, moves))


@cache
def analysed(game: str, ruleset: str | None, moves: int, strength: str) -> Analysis:
    """The analysis of ``played(...)`` (computed once for the tests that share it)."""
    return analyse(record_of(game, ruleset, moves), strength)


@pytest.mark.parametrize(
    ("game", "ruleset", "moves", "strength"),
    [("general", None, 8, "normal"), ("backgammon", "seed", 24, "normal"),
     ("defiance", "8x8", 6, "quick")],
)  # fmt: skip
def test_an_analysis_is_reproducible_and_round_trips(
    game: str, ruleset: str | None, moves: int, strength: str
) -> None:
    record = record_of(game, ruleset, moves)
    first = analysed(game, ruleset, moves, strength)
    again = analyse(Record.from_json(record.to_json()), strength)
    assert first == again
    assert first.to_dict() == again.to_dict()
    assert Analysis.from_dict(first.to_dict()) == first
    text = first.to_json()
    assert Analysis.from_json(text) == first
    assert json.loads(text)["format"] == "ludotheque-analysis"


def test_every_decision_and_roll_of_a_backgammon_game_is_judged() -> None:
    record = record_of("backgammon", "seed", 400)
    result = analyse(record, "quick")
    assert result.measure == EQUITY
    assert len(result.decisions) == len(record.moves)
    assert len(result.rolls) == len(record.chance)
    assert [d.played.move for d in result.decisions] == record.moves
    for d in result.decisions:
        assert record.states[d.ply].position() == d.position
        assert d.best and d.best[0].equity is not None and d.played.equity is not None
        assert d.loss == pytest.approx(max(0.0, d.best[0].equity - d.played.equity), abs=2e-4)
        assert d.forced == (len(record.states[d.ply].legal_moves()) == 1)
        if d.forced:
            assert d.loss == 0 and d.label is None
    for side, s in result.summary.items():
        mine = [d for d in result.decisions if d.side == side]
        unforced = [d for d in mine if not d.forced]
        assert s.moves == len(mine) and s.unforced == len(unforced)
        assert s.total_loss == pytest.approx(sum(d.loss for d in unforced), abs=1e-3)
        assert s.error_rate == pytest.approx(1000 * s.average_loss, abs=0.06)
        assert sum(s.labels.values()) == sum(1 for d in mine if d.label)
        rolls = [r for r in result.rolls if r.side == side]
        assert s.rolls == len(rolls)
        assert s.luck == pytest.approx(sum(r.luck for r in rolls), abs=1e-3)
    # the timeline starts before the opening roll and ends with the result
    assert result.timeline[0].ply == 0 and result.timeline[0].win == pytest.approx(0.5, abs=0.02)
    assert result.timeline[-1].ply == len(record.plies)
    winner = record.outcome()
    assert winner is not None
    assert result.timeline[-1].win == (1.0 if winner.winner == "white" else 0.0)


def test_a_general_game_summary_and_progress() -> None:
    record = record_of("general", None, 30)
    calls: list[tuple[int, int]] = []
    result = analyse(record, "quick", progress=lambda done, total: calls.append((done, total)))
    n = len(record.plies)
    assert calls == [(i, n) for i in range(1, n + 1)]
    assert result.measure == WIN and result.rolls == ()
    assert set(result.summary) == {"rebels", "general"}
    for s in result.summary.values():
        assert set(s.labels) == set(LABELS[WIN]) and s.error_rate is None and s.luck is None
    for d in result.decisions:
        assert 0.0 <= d.played.win <= d.best[0].win <= 1.0
    # the timeline is the first side's winning chance after each ply
    assert [p.ply for p in result.timeline] == list(range(n + 1))
    for d, p in zip(result.decisions, result.timeline, strict=False):
        expected = d.value.win if d.side == "rebels" else 1 - d.value.win
        assert p.win == pytest.approx(expected, abs=1e-4)


def test_best_moves_match_the_analysis_and_refuse_what_is_not_a_decision() -> None:
    record = record_of("general", None, 8)
    result = analysed("general", None, 8, "normal")
    d = result.decisions[5]
    hints = best_moves(record.states[d.ply], 3, history=record.states[: d.ply])
    assert [h.move for h in hints] == [b.move for b in d.best]
    assert [h.win for h in hints] == [b.win for b in d.best]
    bg = ludotheque.load("backgammon")
    with pytest.raises(ludotheque.IllegalMove):
        best_moves(bg.start())  # the dice first
    over = ludotheque.load("general").parse_position("c2 a1,c3,e1,e2,a4,a5 g 1").play("c2-b2")
    with pytest.raises(ludotheque.IllegalMove):
        best_moves(over)
    with pytest.raises(ValueError, match="strength"):
        best_moves(record.states[0], strength="godlike")


def test_malformed_analysis_data_is_refused() -> None:
    good = analyse(record_of("general", None, 30), "quick").to_dict()
    bad: object  # malformed data of every shape
    for bad in (None, [], {**good, "format": "x"}, {**good, "version": 99},
                {**good, "decisions": [{"ply": 0}]}, {**good, "measure": "elo"}):  # fmt: skip
        with pytest.raises(InvalidAnalysis):
            Analysis.from_dict(bad)
    with pytest.raises(InvalidAnalysis):
        Analysis.from_json("{not json")


def test_the_command_prints_the_annotated_game_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the command asks the endgame tables: they prove c2-c1 throws the win away (the rebels
    # then win in 18); they also show that every move of TRAP (test_games) loses
    record = Record.new("general", start="c2 a1,c3,e1,e2,a4,a5 g 1")
    record.play("c2-c1")
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["analyse", str(path), "--strength", "quick"]) == 0
    out = capsys.readouterr().out
    assert "c2-c1 ??" in out and "better: c2-b2xa1c3" in out
    assert "Summary" in out and "blunders (??)" in out
    assert main(["analyse", str(path), "--json", "--strength", "quick"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"][0]["label"] == "blunder"
    assert data["decisions"][0]["symbol"] == "??"
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    assert main(["analyse", str(tmp_path / "bad.json")]) == 2
