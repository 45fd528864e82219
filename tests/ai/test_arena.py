"""The arena: statistics against known values, a small match, saved records, the command."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from ludotheque import arena, cli
from ludotheque.arena import GameResult, MatchResult, run_match
from ludotheque.record import Record
from ludotheque.stats import elo, elo_interval, score_interval, wilson


def test_wilson_interval_known_values() -> None:
    low, high = wilson(65, 100)
    assert math.isclose(low, 0.5525, abs_tol=1e-3) and math.isclose(high, 0.7364, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-3)
    low, high = wilson(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-3) and math.isclose(high, 1.0)


def test_elo_known_values() -> None:
    assert elo(0.5) == 0.0 and str(elo(0.5)) == "0.0"  # not -0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    diff, low, high = elo_interval(60, 0, 40)
    assert diff == pytest.approx(70.44, abs=0.01)
    # the Elo of the score's Wilson interval, 0.502 to 0.691 (the win rate's, without draws)
    assert (low, high) == pytest.approx(tuple(elo(x) for x in wilson(60, 100)), abs=0.01)
    assert low == pytest.approx(1.39, abs=0.01) and high == pytest.approx(139.48, abs=0.01)
    diff, _, _ = elo_interval(10, 20, 10)
    assert diff == 0.0


def test_score_interval_counts_a_draw_as_half() -> None:
    # the README's strength table: General, hard vs medium, 140 / 33 / 27: a score of 78.3%
    score, low, high = score_interval(140, 33, 27)
    assert score == pytest.approx(0.7825) and (low, high) == pytest.approx(wilson(156.5, 200))
    assert low == pytest.approx(0.7203, abs=1e-3) and high == pytest.approx(0.8341, abs=1e-3)
    assert score_interval(306, 0, 94)[1:] == pytest.approx(wilson(306, 400))
    score, low, high = score_interval(0, 3, 0)  # draws only: still an interval, not a point
    assert score == 0.5 and low < 0.2 and high > 0.8


def test_a_clean_sweep_bounds_the_elo_on_one_side_only() -> None:
    assert wilson(5, 5)[1] == 1.0 and wilson(0, 5)[0] == 0.0  # exactly, not a rounding away
    diff, low, high = elo_interval(5, 0, 0)
    assert diff == math.inf and high == math.inf and low == pytest.approx(elo(wilson(5, 5)[0]))
    assert math.isfinite(low) and low > 0
    diff, low, high = elo_interval(0, 0, 5)
    assert diff == -math.inf and low == -math.inf and math.isfinite(high) and high < 0


def _match(outcomes: list[tuple[str, str | None]]) -> MatchResult:
    match = MatchResult("general", "default", "A", "B", ("rebels", "general"))
    for i, (a_side, winner) in enumerate(outcomes):
        match.results.append(GameResult(i, a_side, winner, "x", 10))
    return match


def test_the_report_of_a_clean_sweep_gives_a_bound_not_a_point() -> None:
    swept = _match([("rebels", "rebels"), ("general", "general")] * 2)
    report = swept.report()
    low = round(elo(wilson(4, 4)[0]))
    assert (
        f"Elo difference at least {low:+d} (95% lower bound; not measurable above it: A won "
        "every game)" in report
    )
    assert "2400" not in report and "inf" not in report
    assert "A's score 100.0%, draws as half  (95% interval 51.0% to 100.0%)" in report
    lost = _match([("rebels", "general"), ("general", "rebels")] * 2).report()
    high = round(elo(wilson(0, 4)[1]))
    assert f"Elo difference at most {high:+d}" in lost and "B won every game" in lost
    assert "A's score 0.0%" in lost and "2400" not in lost


def test_the_report_never_says_minus_zero() -> None:
    even = _match([("rebels", "rebels"), ("general", "rebels"), ("rebels", None)]).report()
    assert "Elo difference +0  (95% interval -" in even and "-0 " not in even
    draws = _match([("rebels", None)] * 3).report()
    assert "Elo difference +0" in draws and "A's score 50.0%, draws as half" in draws
    assert "(95% interval +0 to +0)" not in draws


def test_match_counts() -> None:
    match = MatchResult("general", "default", "A", "B", ("rebels", "general"))
    outcomes = [
        ("rebels", "rebels"), ("rebels", "general"), ("rebels", None),
        ("general", "general"), ("general", "general"), ("general", "rebels"),
    ]  # fmt: skip
    for i, (a_side, winner) in enumerate(outcomes):
        match.results.append(GameResult(i, a_side, winner, "x", 10))
    assert (match.a_wins, match.draws, match.b_wins) == (3, 1, 2)
    assert match.by_side() == {"rebels": (1, 1, 1), "general": (2, 0, 1)}
    report = match.report()
    assert "A wins 3, B wins 2, draws 1" in report
    assert "win rate 50.0%" in report
    assert "A's score 58.3%, draws as half  (95% interval " in report  # (3 + ½) / 6


def test_a_small_match_with_saved_records(tmp_path: Path) -> None:
    match = run_match("backgammon", "easy", "random", 4, seed=3, jobs=2, save=tmp_path)
    assert len(match.results) == 4
    assert [r.a_side for r in match.results] == ["white", "black", "white", "black"]
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    record = Record.from_json(files[0].read_text(encoding="utf-8"))
    assert record.outcome() is not None and record.players["white"] == "easy"
    again = run_match("backgammon", "easy", "random", 4, seed=3, jobs=1)
    assert [r.winner for r in again.results] == [r.winner for r in match.results]


def test_a_stopped_match_resumes_from_its_saved_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_match("general", "easy", "random", 3, seed=5, save=tmp_path)
    (tmp_path / "general-00001.json").unlink()  # as if stopped during game 1
    played: list[int] = []
    real = arena.play_game

    def spy(*args: object, **kwargs: object) -> GameResult:
        played.append(int(args[4]))  # type: ignore[call-overload]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(arena, "play_game", spy)
    resumed = run_match("general", "easy", "random", 3, seed=5, save=tmp_path, resume=True)
    assert played == [1]
    assert [(r.winner, r.reason, r.plies) for r in resumed.results] == [
        (r.winner, r.reason, r.plies) for r in first.results
    ]
    other = run_match("general", "medium", "random", 1, seed=5, save=tmp_path, resume=True)
    assert played == [1, 0]  # saved games of other players are played again
    assert other.results[0].index == 0


def test_arena_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ludotheque", "arena", "general", "greedy", "random",
         "--games", "4", "--seed", "2", "--jobs", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "greedy vs random at general" in result.stdout
    assert "Elo difference" in result.stdout and "95% interval" in result.stdout
    assert "4/4 games" in result.stderr


def test_arena_rejects_bad_arguments() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ludotheque", "arena", "general", "easy", "random", "--games", "0"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and "at least 1" in result.stderr


def test_money_games_are_scored_in_points(tmp_path: Path) -> None:
    match = run_match("backgammon", "random", "easy", 6, seed=4, jobs=1, ruleset="money",
                      save=tmp_path)  # fmt: skip
    for result in match.results:
        record = Record.from_json((tmp_path / f"backgammon-{result.index:05d}.json").read_text())
        assert result.points == record.points() and result.points is not None
        assert result.points >= record.state.cube_value  # type: ignore[attr-defined]
        signed = result.points if result.winner == result.a_side else -result.points
        assert result.a_points == signed
    mean, low, high, games = match.points_per_game()  # type: ignore[misc]
    assert games == 6 and low <= mean <= high
    assert mean == pytest.approx(sum(r.a_points or 0 for r in match.results) / 6)
    assert "random's points:" in match.report() and "a game (95% interval" in match.report()


def test_a_match_ruleset_contest_is_a_whole_match(tmp_path: Path) -> None:
    match = run_match("backgammon", "random", "random", 2, seed=5, jobs=1, ruleset="match",
                      save=tmp_path, length=3)  # fmt: skip
    for result in match.results:
        assert result.reason == "match" and result.game_points
        first = tmp_path / f"backgammon-{result.index:05d}.json"
        files = [first, *sorted(tmp_path.glob(f"backgammon-{result.index:05d}-game*.json"))]
        assert len(files) == len(result.game_points)
        last = Record.from_json(files[-1].read_text())
        final = last.state.score_after()  # type: ignore[attr-defined]
        if last.outcome() is not None and last.outcome().reason == "resignation":  # type: ignore[union-attr]
            continue
        assert max(final) >= 3
        a_index = 0 if result.a_side == "white" else 1
        a_won = final[a_index] >= 3
        assert a_won == (result.winner == result.a_side)
    assert "2 matches" in match.report()


def test_cubeless_games_report_no_points() -> None:
    match = run_match("backgammon", "random", "random", 2, seed=1, jobs=1, ruleset="standard")
    assert match.points_per_game() is None and "points" not in match.report()


def test_arena_command_plays_matches_of_the_length_asked(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ludotheque", "arena", "backgammon", "random", "random",
         "--ruleset", "match", "--length", "1", "--games", "2", "--seed", "5",
         "--save", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    records = [Record.from_json(p.read_text(encoding="utf-8")) for p in tmp_path.glob("*.json")]
    assert records and all(r.states[0].stakes.length == 1 for r in records)  # type: ignore[attr-defined]


def test_arena_refuses_a_length_outside_a_match() -> None:
    for args in (
        ["general", "random", "random", "--length", "3"],
        ["backgammon", "random", "random", "--ruleset", "match", "--length", "26"],
    ):
        result = subprocess.run(
            [sys.executable, "-m", "ludotheque", "arena", *args],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert result.returncode == 2 and "--length" in result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "backgammon", "perfect", "hard", "--games", "2"],
        ["arena", "defiance", "perfect", "easy", "--games", "1", "--jobs", "2"],
        ["arena", "defiance", "easy", "perfect"],
        ["play", "backgammon", "--white", "perfect"],
        ["play", "defiance", "--imperium", "perfect"],
    ],
)
def test_a_perfect_player_of_an_unsolved_game_is_refused_up_front(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ludotheque: no perfect player for ") and err.count("\n") == 1
    assert "only the General is solved" in err and "easy, medium and hard" in err


def test_the_perfect_general_passes_the_check() -> None:
    assert cli.unplayable("general", ("perfect", "hard")) is None
    assert cli.unplayable("backgammon", ("human", "hard")) is None
