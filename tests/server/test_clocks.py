"""Clocks on a controlled time source: every way a clock ends a game, and who can still win."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludotheque
from ludotheque import Outcome
from ludotheque.server.clock import controls as clocks
from ludotheque.server.clock.controls import (
    ABORTED,
    FIRST_MOVE_SECONDS,
    LEFT,
    PRESETS,
    TIME_OUT,
    Clock,
    Flag,
    TimeControl,
    allowed,
    can_claim,
    can_win,
    claim_at,
    claim_outcome,
    flag,
    flag_outcome,
    grace_seconds,
    press,
    stop,
    timeout_outcome,
)

SIDES = ("rebels", "general")
DAY = 86400.0


@dataclass
class FakeTime:
    """The server's time source, under the test's control."""

    now: float = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def opened(control: str, time: FakeTime) -> Clock:
    """A clock after both sides' first moves (taken instantly): the main times now run."""
    clock = press(Clock.new(TimeControl.parse(control), SIDES), time(), "rebels")
    clock = press(clock, time(), "general")
    return press(clock, time(), "rebels")


# -- time controls ----------------------------------------------------------------------------


def test_time_controls_have_one_text_form() -> None:
    for game, presets in PRESETS.items():
        for control in presets:
            assert TimeControl.parse(control.key) == control
            assert allowed(game, control)
    assert TimeControl.parse(" 5+3 ") == TimeControl("fischer", 300, 3)
    assert TimeControl.parse("0.5+0").key == "0.5+0"
    assert TimeControl.parse("3+12D") == TimeControl("delay", 180, 12)
    assert TimeControl.parse("14d") == TimeControl("correspondence", 14 * DAY)
    for bad in ("", "5", "5+", "+3", "5+3x", "0+0", "3 days", "5:00", "-1+2", "1e3+0"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
    with pytest.raises(ValueError):
        TimeControl.parse(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        TimeControl("hourglass", 60)
    with pytest.raises(ValueError):
        TimeControl("correspondence", DAY, 5)


def test_presets_and_their_speeds() -> None:
    keys = {game: [c.key for c in presets] for game, presets in PRESETS.items()}
    corr = ["1d", "3d", "7d", "14d"]
    assert keys["general"] == keys["defiance"] == ["3+2", "5+3", "10+5", "15+10", "30+20", *corr]
    assert keys["backgammon"] == ["1+12d", "3+12d", "5+12d", "10+12d", *corr]
    speeds = [c.speed for c in PRESETS["general"]]
    assert speeds == ["blitz", "blitz", "rapid", "rapid", "classical", *["correspondence"] * 4]
    assert TimeControl.parse("1+0").speed == "bullet"
    assert not allowed("backgammon", TimeControl.parse("5+3"))
    assert not allowed("general", TimeControl.parse("5+12d"))


def test_labels_in_both_languages() -> None:
    # the names of issue 36: "5+3" as players write it, days "a move" (test_lists checks
    # every control the site offers)
    assert TimeControl.parse("5+3").label()("en") == "5+3"
    assert TimeControl.parse("3+12d").label()("fr") == "3 min + 12 s de délai"
    assert TimeControl.parse("1d").label()("en") == "1 day a move"
    assert TimeControl.parse("7d").label()("fr") == "7 jours par coup"


# -- Fischer ----------------------------------------------------------------------------------


def test_fischer_charges_thinking_and_adds_the_increment() -> None:
    time = FakeTime()
    clock = opened("5+3", time)
    assert clock.left(time()) == {"rebels": 300.0, "general": 300.0}  # first moves: free
    time.advance(10.5)
    assert clock.left(time())["rebels"] == pytest.approx(289.5)
    clock = press(clock, time(), "general")
    assert clock.remaining["rebels"] == pytest.approx(292.5)
    assert clock.running == "general" and clock.since == time()
    time.advance(100)
    assert clock.left(time()) == {"rebels": pytest.approx(292.5), "general": pytest.approx(200)}


def test_first_moves_are_free_but_limited() -> None:
    time = FakeTime()
    clock = press(Clock.new(TimeControl.parse("3+2"), SIDES), time(), "rebels")
    assert clock.deadline() == time() + FIRST_MOVE_SECONDS
    time.advance(25)
    assert clock.left(time())["rebels"] == 180.0
    assert clock.view(time())["first_move"] == pytest.approx(5)
    clock = press(clock, time(), "general")
    assert clock.remaining == {"rebels": 180.0, "general": 180.0}
    assert clock.moves == {"rebels": 1, "general": 0}
    time.advance(FIRST_MOVE_SECONDS)
    fell = flag(clock, time())
    assert fell == Flag("general", time(), first_move=True)
    state = ludotheque.load("general").start().play("a2-b2")
    assert flag_outcome(fell, state) == Outcome(None, ABORTED)


def test_a_flag_falls_at_the_exact_instant() -> None:
    time = FakeTime()
    clock = opened("3+2", time)
    start = time()
    assert clock.deadline() == start + 180
    assert flag(clock, time.advance(179.999)) is None
    fell = flag(clock, time.advance(0.001))
    assert fell == Flag("rebels", start + 180)
    assert flag(clock, time.advance(1000)) == fell  # found late, the instant is still exact
    with pytest.raises(ValueError, match="too late"):
        press(clock, time(), "general")
    state = ludotheque.load("general").start()
    assert flag_outcome(fell, state) == Outcome("general", TIME_OUT)
    ended = stop(clock, time())
    assert ended.left(time()) == {"rebels": 0.0, "general": 180.0}
    assert ended.running is None and ended.deadline() is None and flag(ended, time()) is None


def test_a_side_may_follow_itself() -> None:
    """After a forced pass of the other side, the same side moves again."""
    time = FakeTime()
    clock = opened("5+3", time)
    time.advance(4)
    clock = press(clock, time(), "rebels")
    assert clock.running == "rebels" and clock.remaining["rebels"] == pytest.approx(299)
    assert clock.moves["rebels"] == 2


def test_the_game_ends_by_a_move() -> None:
    time = FakeTime()
    clock = opened("5+3", time)
    time.advance(7)
    over = press(clock, time(), None)
    assert over.running is None and over.since is None
    assert over.remaining["rebels"] == pytest.approx(293)  # no increment after the last move
    assert flag(over, time.advance(10_000)) is None
    assert press(over, time(), None) == over


def test_stop_and_undo() -> None:
    time = FakeTime()
    clock = opened("5+3", time)
    time.advance(20)
    stopped = stop(clock, time())
    assert stopped.remaining["rebels"] == pytest.approx(280)
    assert stop(stopped, time.advance(5)) == stopped
    # an undo gives the turn to the general without counting a move
    resumed = press(stopped, time(), "general")
    assert resumed.moves == clock.moves and resumed.running == "general"
    assert resumed.deadline() == time() + 300


def test_low_time_and_the_browser_view() -> None:
    time = FakeTime()
    clock = opened("3+2", time)
    assert TimeControl.parse("3+2").low_time == 22.5
    assert TimeControl.parse("1+0").low_time == 10 and TimeControl.parse("30+20").low_time == 60
    time.advance(170)
    view = clock.view(time())
    assert view["running"] == "rebels" and view["now"] == time()
    assert view["left"] == {"rebels": pytest.approx(10), "general": 180}
    assert view["low"] == {"rebels": True, "general": False}
    assert view["deadline"] == time() + 10 and view["delay"] is None
    assert view["first_move"] is None and view["control"] == "3+2" and view["kind"] == "fischer"


# -- backgammon delay -------------------------------------------------------------------------

BG = ("white", "black")


def test_the_delay_counts_down_before_the_reserve() -> None:
    time = FakeTime()
    clock = Clock.new(TimeControl.parse("1+12d"), BG)
    clock = press(press(press(clock, time(), "white"), time(), "black"), time(), "white")
    time.advance(11)
    assert clock.delay_left(time()) == pytest.approx(1)
    assert clock.left(time())["white"] == 60
    clock = press(clock, time(), "black")
    assert clock.remaining["white"] == 60  # a move within the delay costs nothing, keeps nothing
    time.advance(20)
    assert clock.delay_left(time()) == 0
    assert clock.left(time())["black"] == pytest.approx(52)
    clock = press(clock, time(), "white")
    assert clock.remaining["black"] == pytest.approx(52)
    assert clock.deadline() == time() + 12 + 60
    assert clock.view(time())["delay"] == 12


def test_a_backgammon_flag_always_loses() -> None:
    time = FakeTime()
    clock = Clock.new(TimeControl.parse("1+12d"), BG)
    clock = press(press(press(clock, time(), "white"), time(), "black"), time(), "white")
    fell = flag(clock, time.advance(72))
    assert fell == Flag("white", time())
    state = ludotheque.load("backgammon").start()
    assert flag_outcome(fell, state) == Outcome("black", TIME_OUT)
    assert timeout_outcome(state, "black") == Outcome("white", TIME_OUT)


# -- correspondence ---------------------------------------------------------------------------


def test_correspondence_gives_the_full_time_for_every_move() -> None:
    time = FakeTime()
    clock = press(Clock.new(TimeControl.parse("3d"), SIDES), time(), "rebels")
    assert clock.deadline() == time() + 3 * DAY  # the first move has the normal time
    clock = press(clock, time.advance(2 * DAY), "general")
    clock = press(clock, time.advance(2.9 * DAY), "rebels")
    assert clock.remaining == {"rebels": 3 * DAY, "general": 3 * DAY}
    assert clock.view(time())["low"] == {"rebels": False, "general": False}
    time.advance(2.8 * DAY)
    assert clock.view(time())["low"]["rebels"]  # under 10% of the move's time
    fell = flag(clock, time.advance(0.2 * DAY))
    assert fell == Flag("rebels", time())
    state = ludotheque.load("general").start()
    assert flag_outcome(fell, state) == Outcome("general", TIME_OUT)
    # after an undo the side to move has the whole time again
    resumed = press(stop(clock, time() - 1), time(), "rebels")
    assert resumed.deadline() == time() + 3 * DAY


def test_a_correspondence_game_nobody_starts_is_aborted() -> None:
    time = FakeTime()
    clock = press(Clock.new(TimeControl.parse("1d"), SIDES), time(), "rebels")
    fell = flag(clock, time.advance(DAY))
    assert fell is not None and fell.first_move
    assert flag_outcome(fell, ludotheque.load("general").start()).reason == ABORTED


# -- storage ----------------------------------------------------------------------------------


def test_round_trip_through_a_dict() -> None:
    time = FakeTime()
    for control in ("5+3", "3+12d", "7d"):
        clock = opened(control, time)
        assert Clock.from_dict(clock.to_dict()) == clock
        stopped = stop(clock, time.advance(3))
        assert Clock.from_dict(stopped.to_dict()) == stopped
    good = opened("5+3", time).to_dict()
    bad = [
        {},
        {**good, "control": "5 minutes"},
        {**good, "running": "imperium"},
        {**good, "since": None},
        {**good, "remaining": {"rebels": 1.0}},
        {**good, "remaining": {"rebels": -1.0, "general": 5.0}},
        {**good, "moves": {"x": 1, "y": 2}},
        "5+3",
    ]
    for data in bad:
        with pytest.raises(ValueError, match="not a clock"):
            Clock.from_dict(data)
    with pytest.raises(ValueError, match="two sides"):
        Clock.new(TimeControl.parse("5+3"), ("rebels",))
    with pytest.raises(ValueError, match="unknown side"):
        press(opened("5+3", time), time(), "imperium")


@given(st.lists(st.floats(0, 20), min_size=1, max_size=30))
def test_fischer_time_is_conserved(thinking: list[float]) -> None:
    """Time left + time spent = base + increments earned, whatever the moves' durations."""
    time = FakeTime()
    clock = opened("10+5", time)
    spent = {"rebels": 0.0, "general": 0.0}
    moves = {"rebels": 0, "general": 0}
    for seconds in thinking:
        side = clock.running
        assert side is not None
        time.advance(seconds)
        clock = press(clock, time(), "general" if side == "rebels" else "rebels")
        spent[side] += seconds
        moves[side] += 1
    for side in SIDES:
        earned = 5 * moves[side]  # (the free first moves earn nothing)
        assert clock.remaining[side] + spent[side] == pytest.approx(600 + earned)


# -- leaving a game ---------------------------------------------------------------------------


def test_grace_periods() -> None:
    seconds = {key: grace_seconds(TimeControl.parse(key)) for key in ("1+0", "3+2", "10+5")}
    assert seconds == {"1+0": 15, "3+2": 20, "10+5": 30}
    assert grace_seconds(TimeControl.parse("30+20")) == 60
    assert grace_seconds(TimeControl.parse("5+12d")) == 30
    assert grace_seconds(None) == 300
    assert grace_seconds(TimeControl.parse("3d")) is None
    assert claim_at(TimeControl.parse("3d"), 100.0) is None
    assert claim_at(TimeControl.parse("3+2"), 100.0) == 120.0


def test_who_may_claim_and_when() -> None:
    blitz = TimeControl.parse("5+3")
    gone = 1000.0

    def claim(now: float, to_move: str = "general", gone_since: float | None = gone) -> bool:
        return can_claim(blitz, gone="general", to_move=to_move, gone_since=gone_since, now=now)

    assert not claim(gone + 19.9)
    assert claim(gone + 20)
    assert not claim(gone + 500, to_move="rebels")  # the one who stayed is on move
    assert not claim(gone + 500, gone_since=None)  # back again
    assert not can_claim(
        TimeControl.parse("3d"), gone="general", to_move="general", gone_since=0, now=1e9
    )
    assert can_claim(None, gone="general", to_move="general", gone_since=0, now=300)


def test_claims() -> None:
    general = ludotheque.load("general").start().play("a2-b2")
    assert claim_outcome(general, "rebels") == Outcome("rebels", LEFT)
    bg = ludotheque.load("backgammon").start()
    assert claim_outcome(bg, "black") == Outcome("black", LEFT)
    with pytest.raises(ValueError):
        claim_outcome(general, "white")


# -- who can still win ------------------------------------------------------------------------

FOUR_SECTORS_BUT_ONE_CELL = (
    "10/10/10/RNRN3RN4/RNRN3RNRN3/10/10/10/RNRN3RNRN3/RNRN3RNRN3 r25,i40 R2.2,I7.8,I8.7 {side}"
)
EMPTY = "10/10/10/10/10/10/10/10/10/10"


def test_the_general_times_out_as_usual() -> None:
    """With fewer than six rebels the game is over, and six can always still shut in or
    immobilise the general, as the general can always still capture: no draw on time."""
    game = ludotheque.load("general")
    start = game.start()
    assert timeout_outcome(start, "rebels") == Outcome("general", TIME_OUT)
    after = start.play("a2-b2")
    assert timeout_outcome(after, "general") == Outcome("rebels", TIME_OUT)
    six = game.parse_position("c3 a1,a5,b5,d5,e1,e5 r 0")
    assert can_win(six, "general") and can_win(six, "rebels")
    # where the search finds the win, it is a proof, not a default
    assert clocks._reachable(six, lambda s: clocks._won_by(s, "general"), None, 5000)
    cornered = game.parse_position("a1 a2,b3,c1,c2,d5,e5 r 0")
    assert clocks._reachable(cornered, lambda s: clocks._won_by(s, "rebels"), None, 5000)


def test_a_finished_position_is_won_only_by_its_winner() -> None:
    over = ludotheque.load("general").parse_position("c3 a1,a2,e4,e5 g 1")
    assert can_win(over, "general") and not can_win(over, "rebels")
    with pytest.raises(ValueError, match="unknown side"):
        can_win(over, "white")


def test_the_search_proves_only_what_it_visits() -> None:
    start = ludotheque.load("general").start()

    def captured(state: ludotheque.State) -> bool:
        return state.position().split()[1].count(",") < 15

    assert clocks._reachable(start, captured, 1, 5000) is False  # the rebels move first
    assert clocks._reachable(start, captured, 2, 5000) is True
    assert clocks._reachable(start, lambda s: False, 2, 5000) is False  # every state seen
    assert clocks._reachable(start, lambda s: False, None, 50) is None  # out of budget
    # chance nodes: every roll is followed
    bg = ludotheque.load("backgammon").start()
    rolls = {str(o) for o, _ in bg.chance_outcomes()}
    target = bg.play(sorted(rolls)[0])
    assert clocks._reachable(bg, lambda s: s == target, 1, 100) is True


def test_defiance_rebels_short_of_moves_draw_on_time() -> None:
    game = ludotheque.load("defiance")
    # one placement from four sectors; the Imperium to move
    state = game.parse_position(FOUR_SECTORS_BUT_ONE_CELL.format(side="i"))
    assert not can_win(state, "rebels", moves_left=1)
    assert can_win(state, "rebels", moves_left=2)
    assert can_win(state, "rebels")  # no turn limit: the Rebels can always still win
    assert timeout_outcome(state, "imperium", moves_left=1) == Outcome(None, TIME_OUT)
    assert timeout_outcome(state, "imperium", moves_left=2) == Outcome("rebels", TIME_OUT)
    # the Rebels to move: the bound is met exactly by the winning placement
    mover = game.parse_position(FOUR_SECTORS_BUT_ONE_CELL.format(side="r"))
    assert can_win(mover, "rebels", moves_left=1)
    assert mover.play("g7>N").outcome() == Outcome("rebels", "four-sectors")
    # from the start, sixteen placements are needed
    start = game.start()
    assert not can_win(start, "rebels", moves_left=30)  # 15 Rebel turns
    assert can_win(start, "rebels", moves_left=31)  # the Rebels move first: 16
    assert not can_win(start, "rebels", moves_left=0)


def test_defiance_imperium_too_far_draws_on_time() -> None:
    game = ludotheque.load("defiance")
    start = game.start()  # the Imperial Commands are 11 steps from the Rebel Command
    assert not can_win(start, "imperium", moves_left=7)  # 3 steps each way a round: 9
    assert can_win(start, "imperium", moves_left=8)
    assert timeout_outcome(start, "rebels", moves_left=7) == Outcome(None, TIME_OUT)
    assert timeout_outcome(start, "rebels", moves_left=8) == Outcome("imperium", TIME_OUT)
    assert timeout_outcome(start, "rebels") == Outcome("imperium", TIME_OUT)
    near = game.parse_position(f"{EMPTY} r40,i40 R2.2,I3.2,I8.7 i")
    assert can_win(near, "imperium", moves_left=1)
    assert near.play(next(m for m in near.legal_moves() if str(m).endswith("P3.2-P2.2"))).outcome()
    away = game.parse_position(f"{EMPTY} r40,i40 R2.2,I3.2,I8.7 r")
    assert not can_win(away, "imperium", moves_left=1)
    assert can_win(away, "imperium", moves_left=2)


def test_defiance_eight_by_eight_sectors() -> None:
    game = ludotheque.load("defiance", "8x8")
    start = game.start()
    assert not can_win(start, "rebels", moves_left=30)
    assert can_win(start, "rebels", moves_left=31)
    assert not can_win(start, "imperium", moves_left=5)  # 4 + 4 steps apart: 8 > 2 x 3
    assert can_win(start, "imperium", moves_left=6)
