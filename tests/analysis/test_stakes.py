"""The analysis of backgammon played for points: money and match records, cube decisions
labelled by normalised equity (points per unit of the cube; match winning chances as equity).

The positions of the cube decisions are races the bear-off database knows exactly, so their
verdicts hold whatever network ships (as in tests/backgammon/test_cube_play.py)."""

from __future__ import annotations

from functools import cache

import pytest

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import Analysis, analyse, best_moves
from ludotheque.analysis.labels import BAD, EQUITY, VERY_BAD
from ludotheque.analysis.model import CUBE, MOVE, Decision
from ludotheque.analysis.text import render
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import equity
from ludotheque.games.backgammon.cube import CubeAction
from ludotheque.record import Record

MONEY = ludotheque.load("backgammon", "money")
MATCH = ludotheque.load("backgammon", "match")

FAR_AHEAD = "W[5x2,4] B[6x2,5] w - cube 1"  # white on roll far ahead: double, and a pass
A_LITTLE_AHEAD = "W[6,5,4] B[6,5,3] w - cube 1"  # double, and a take
BEHIND = "W[6x2] B[1x2] w - cube 1"  # white far behind: no double (and black would take)


def judged(ruleset: str, start: str, moves: list[str], strength: str = "normal") -> Analysis:
    """The analysis of a record from ``start`` with ``moves`` (the dice rolled between)."""
    record = Record.new("backgammon", ruleset, start=start, seed="stakes-tests")
    for move in moves:
        while record.state.to_move == CHANCE:
            record.roll()
        record.play(move)
    return analyse(record, strength)


def values(d: Decision) -> dict[str, float]:
    out = {}
    for m in d.best:
        assert m.equity is not None
        out[m.move] = m.equity
    return out


def test_a_clear_pass_that_is_taken_is_a_very_bad_take() -> None:
    double, take = judged("money", FAR_AHEAD, ["double", "take"]).decisions
    assert double.kind == take.kind == CUBE
    # the double is right, and worth what the pass gives: one point per unit of the cube
    assert double.label is None and double.best[0].move == "double"
    assert values(double) == {"double": 1.0, "roll": pytest.approx(values(double)["roll"])}
    assert values(double)["roll"] < 1.0
    # taking gives up more than 0.16 of a point: very bad (GNU Backgammon's "??")
    assert take.best[0].move == "drop" and take.best[0].equity == -1.0
    assert take.played.move == "take" and take.played.equity is not None
    assert take.played.equity < -1.16
    assert take.loss == pytest.approx(-1.0 - take.played.equity, abs=1e-4)
    assert take.label == VERY_BAD and take.symbol == "??"
    assert take.cube_error == "wrong take"
    assert take.to_dict()["cube_error"] == "wrong take"


@pytest.mark.parametrize(
    ("start", "moves", "errors"),
    [
        (FAR_AHEAD, ["roll"], {0: "missed double"}),
        (A_LITTLE_AHEAD, ["double", "take"], {}),
        (A_LITTLE_AHEAD, ["double", "drop"], {1: "wrong pass"}),
        (BEHIND, ["double", "take"], {0: "wrong double"}),
        (BEHIND, ["double", "drop"], {0: "wrong double", 1: "wrong pass"}),
    ],
)
def test_cube_decisions_are_labelled_by_the_equity_they_give_up(
    start: str, moves: list[str], errors: dict[int, str]
) -> None:
    result = judged("money", start, moves)
    assert [d.played.move for d in result.decisions] == moves
    for i, d in enumerate(result.decisions):
        assert d.kind == CUBE and len(d.best) == 2  # both answers are valued
        assert {m.move for m in d.best} in ({"roll", "double"}, {"take", "drop"})
        assert d.cube_error == errors.get(i)
        assert (d.label is not None) == (i in errors)
        if i in errors:
            assert d.label in (BAD, VERY_BAD)
        if "drop" in values(d):
            assert values(d)["drop"] == -1.0  # a pass loses the cube's value before the double
        # normalised to the cube: within the three points of a backgammon, twice for a take
        assert all(-6.0 <= v <= 3.0 for v in values(d).values())
    summary = result.summary
    assert sum(sum(s.labels.values()) for s in summary.values()) == len(errors)


def test_the_equity_of_a_bigger_cube_is_per_unit_of_the_cube() -> None:
    # the same race with white owning a cube of 2 and of 8: in money play every value scales
    # with the cube, so per unit of the cube they are the same
    at_two = best_moves(MONEY.parse_position(A_LITTLE_AHEAD.replace("cube 1", "cube 2w")), 2)
    at_eight = best_moves(MONEY.parse_position(A_LITTLE_AHEAD.replace("cube 1", "cube 8w")), 2)
    assert [m.move for m in at_two] == [m.move for m in at_eight]
    assert {m.move for m in at_two} == {"double", "roll"}
    for two, eight in zip(at_two, at_eight, strict=True):
        assert eight.equity is not None and two.equity is not None
        assert eight.equity == pytest.approx(two.equity, abs=1e-3)
        assert -1.0 <= eight.equity <= 1.0


def test_a_clear_pass_taken_in_a_match_is_an_error_in_match_equity() -> None:
    start = f"{FAR_AHEAD} match 5 0-0"
    double, take = judged("match", start, ["double", "take"]).decisions
    assert double.best[0].move == "double" and double.label is None
    assert take.best[0].move == "drop" and take.cube_error == "wrong take"
    assert take.label in (BAD, VERY_BAD)
    drop = take.best[0]
    # the pass leaves black 5 away against 4: its winning chance is the table's, and that is
    # what losing a single game is worth: -1 in normalised equity
    assert drop.win == pytest.approx(equity.mwc(5, 4, False), abs=1e-4)
    assert drop.equity == -1.0
    assert take.played.win < drop.win


def play_out(record: Record, seed: int) -> Record:
    """``record`` played to its end by a medium player (white) and an easy one (black)."""
    agents = {"white": make_agent("backgammon", "medium", seed),
              "black": make_agent("backgammon", "easy", seed + 1)}  # fmt: skip
    while record.outcome() is None:
        if record.state.to_move == CHANCE:
            record.roll()
        else:
            record.play(agents[str(record.state.to_move)].choose(record.state))
    return record


@cache
def played(ruleset: str, start: str | None = None) -> Record:
    """A whole game for points between a medium and an easy player (cube errors included)."""
    return play_out(Record.new("backgammon", ruleset, start=start, seed=f"stakes-{ruleset}"), 5)


def check_a_whole_game(record: Record, result: Analysis) -> int:
    """Check the analysis of a whole game; the number of its cube decisions."""
    assert result.measure == EQUITY
    assert [d.played.move for d in result.decisions] == record.moves
    assert len(result.rolls) == len(record.chance)
    cube = 0
    for d in result.decisions:
        state = record.states[d.ply]
        cube_moves = [m for m in state.legal_moves() if isinstance(m, CubeAction)]
        # a cube decision: roll or double, take or drop (an answer to an offer to resign is
        # not one)
        assert d.kind == (CUBE if cube_moves and str(cube_moves[0]) != "accept" else MOVE)
        if d.kind == CUBE:
            cube += 1
            assert len(d.best) == len(cube_moves) == 2
        assert d.best and d.played.equity is not None
        for m in (*d.best, d.played):
            assert 0.0 <= m.win <= 1.0
            assert m.equity is not None and -6.0 <= m.equity <= 6.0
        top = d.best[0].equity
        assert top is not None
        assert d.loss == pytest.approx(max(0.0, top - d.played.equity), abs=2e-4)
    for p in result.timeline:
        assert 0.0 <= p.win <= 1.0 and p.equity is not None
    for side, s in result.summary.items():
        unforced = [d for d in result.decisions if d.side == side and not d.forced]
        assert s.total_loss == pytest.approx(sum(d.loss for d in unforced), abs=1e-3)
        assert s.error_rate == pytest.approx(1000 * s.average_loss, abs=0.06)
    assert Analysis.from_dict(result.to_dict()) == result
    return cube


def test_a_money_game_is_analysed_with_its_cube_decisions() -> None:
    record = played("money")
    result = analyse(record, "normal")
    assert check_a_whole_game(record, result) > 0
    # the last point of the chart is the result: the points won, per unit of the cube the
    # game started at (1)
    outcome, points = record.outcome(), record.points()
    assert outcome is not None and points is not None
    sign = 1 if outcome.winner == "white" else -1
    assert result.timeline[-1].equity == sign * points
    assert result.timeline[0].equity == pytest.approx(0.0, abs=0.05)
    text = render(result)
    assert "equity per unit of the cube" in text and "cubeless" not in text


def test_a_short_match_is_analysed_game_by_game_in_match_equity() -> None:
    # the games of a match to 3 points, then a game after the Crawford game at 2-1, where
    # the side behind doubles at once
    games = [played("match", MATCH.start(length=3).position())]
    while (after := games[-1].next_game(seed=f"stakes-match-{len(games)}")) is not None:
        games.append(play_out(after, 7 + 2 * len(games)))
    post = MATCH.start(length=3, score=(1, 2)).position()
    games.append(played("match", post))
    cube = 0
    for game in games:
        result = analyse(game, "quick")
        cube += check_a_whole_game(game, result)
        stakes = game.states[0].stakes  # type: ignore[attr-defined]
        n = stakes.length
        away = (n - stakes.score[0], n - stakes.score[1])
        post_crawford = not stakes.crawford and max(stakes.score) == n - 1
        # the chart is white's chance to win the match: about the table's before the game
        # (the engine's, through the opening rolls), and after it the table's at the new
        # score (1 or 0 once the match is won)
        table = equity.mwc(*away, post_crawford)
        assert result.timeline[0].win == pytest.approx(table, abs=0.04)
        score = game.states[-1].score_after()  # type: ignore[attr-defined]
        final = equity.mwc(n - score[0], n - score[1], stakes.crawford or post_crawford)
        assert result.timeline[-1].win == pytest.approx(final, abs=1e-4)
        assert "the chance to win the match as money equity" in render(result)
    assert cube > 0


def test_an_offer_to_resign_is_judged_by_the_better_answer() -> None:
    # white, gammoned for sure (no Jacoby rule in the position), offers a single game: black
    # declines, so the offer costs white nothing; accepting would have cost black a point
    lost = "W[6x5,5x5,4x5] B[1] w 21 cube 1"
    offer, answer = judged("money", lost, ["resign single", "decline"]).decisions
    assert offer.played.move == "resign single" and offer.loss == 0.0 and offer.label is None
    assert "resign single" not in {m.move for m in offer.best}
    assert offer.played.equity == offer.best[0].equity == -2.0
    assert answer.best[0].move == "decline" and answer.label is None
    judgement = judged("money", lost, ["resign single", "accept"])
    offer, answer = judgement.decisions
    assert answer.label == VERY_BAD and answer.best[0].move == "decline"
    assert answer.played.equity == 1.0
    # an offer and its answer are judged, but they are not moves of the game
    assert offer.kind == answer.kind == "resign"
    white, black = (judgement.summary[s] for s in ("white", "black"))
    assert (white.moves, white.unforced) == (0, 0) and (black.moves, black.unforced) == (0, 0)
    assert black.labels[VERY_BAD] == 1 and black.total_loss > 0
