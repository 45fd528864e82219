"""A turn played one checker at a time: which single moves may come next, and when it can end.

Only single moves that can still end in a legal play are offered: a single move is allowed when
some continuation with the dice left reaches the final position of a legal play using exactly as
many dice as every legal play of the roll uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core import AmbiguousMove, IllegalMove, InvalidMove, described
from . import board as B
from .movegen import completions, dice_of, remove_die
from .moves import Play, Step, point_name

if TYPE_CHECKING:
    from .rules import BackgammonState


@dataclass(frozen=True)
class PartialTurn:
    """A turn being played one checker at a time.

    ``done``: the single moves made; ``dice_left``: the dice not used yet; ``next_steps``: the
    single moves that may come next (each can still end in a legal play); ``play``: the legal
    play these moves make when the turn can end now, else ``None``; ``white``/``black``: the
    boards now (26 counts each, as ``BackgammonState.board``).
    """

    done: tuple[Step, ...]
    dice_left: tuple[int, ...]
    next_steps: tuple[Step, ...]
    play: Play | None
    white: tuple[int, ...]
    black: tuple[int, ...]

    @property
    def can_finish(self) -> bool:
        """True when the moves made so far are a whole legal play."""
        return self.play is not None


def _is_int(value: object) -> bool:
    """An ``int`` that is not a ``bool`` (``True`` is no point nor die)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _as_step(item: Step | str | tuple[int, int, int], offered: list[Step], position: int) -> Step:
    if isinstance(item, Step):
        key = (item.src, item.dst, item.die)
        match = [s for s in offered if (s.src, s.dst, s.die) == key]
        if not match:
            raise IllegalMove(
                "move {n}: {step} with a {die} is not allowed here",
                code="step-not-allowed-with-die",
                n=position,
                step=str(item),
                die=item.die,
            )
        return match[0]
    if isinstance(item, tuple) and len(item) == 3 and all(_is_int(v) for v in item):
        src, dst, die = item
        match = [s for s in offered if (s.src, s.dst, s.die) == (src, dst, die)]
        if not match:
            raise IllegalMove(
                "move {n}: {step} with a {die} is not allowed here",
                code="step-not-allowed-with-die",
                n=position,
                step=f"{point_name(src)}/{point_name(dst)}",
                die=die,
            )
        return match[0]
    if not isinstance(item, str):
        raise InvalidMove(
            "move {n}: cannot read {item} as a single move like '13/7'",
            code="step-not-text",
            n=position,
            item=repr(item),
        )
    text = item.strip().lower().rstrip("*")
    parts = text.split("/")
    if len(parts) != 2:
        raise InvalidMove(
            "move {n}: a single move is 'from/to', like '13/7', not {item!r}",
            code="step-not-from-to",
            n=position,
            item=item,
        )
    names = {point_name(p): p for p in range(26)}
    if parts[0] not in names or parts[1] not in names:
        raise InvalidMove(
            "move {n}: cannot read {item!r}: points are 1–24, bar, off",
            code="step-unreadable-point",
            n=position,
            item=item,
        )
    src, dst = names[parts[0]], names[parts[1]]
    match = [s for s in offered if s.src == src and s.dst == dst]
    if not match:
        raise IllegalMove(
            "move {n}: {step} is not allowed here", code="step-not-allowed", n=position, step=text
        )
    if len(match) > 1:
        dice = [s.die for s in match]
        raise AmbiguousMove(
            "move {n}: {step} can use the {dice_text}: say which die",
            code="step-which-die",
            n=position,
            step=text,
            dice=dice,
            dice_text=" or the ".join(str(d) for d in dice),
        )
    return match[0]


def partial_turn(
    state: BackgammonState, done: Sequence[Step | str | tuple[int, int, int]]
) -> PartialTurn:
    """See ``BackgammonState.partial_turn``."""
    if not isinstance(done, Sequence) or isinstance(done, (str, bytes, bytearray)):
        # a string is a sequence of characters, not of moves: "13/7" would be read as "1", …
        raise InvalidMove(
            "the single moves made must be a list like ['13/7', '7/4'], not {value} ({type})",
            code="steps-not-a-list",
            **described(done),
        )
    if state.dice is None or state.to_move in (None, "chance"):
        raise IllegalMove("there is no roll to play now", code="no-roll-to-play")
    legal = state.legal_moves()
    need_total = len(legal[0].raw)
    goals = {(p.mover_after, p.opponent_after): p for p in legal}
    cap = state.game.cap
    me, opp = state.mover_boards()
    dice = dice_of(state.dice.high, state.dice.low)
    made: list[Step] = []
    for position, item in enumerate(done, start=1):
        offered = _offered(me, opp, dice, cap, goals, need_total - len(made))
        step = _as_step(item, offered, position)
        made.append(step)
        me, opp = _apply(me, opp, step)
        dice = remove_die(dice, step.die)
    offered = _offered(me, opp, dice, cap, goals, need_total - len(made))
    play = goals.get((me, opp)) if len(made) == need_total else None
    white, black = (me, opp) if state.side == "white" else (opp, me)
    return PartialTurn(
        done=tuple(made),
        dice_left=dice,
        next_steps=tuple(offered),
        play=play,
        white=tuple(B.unpack(white)),
        black=tuple(B.unpack(black)),
    )


def _offered(
    me: int,
    opp: int,
    dice: tuple[int, ...],
    cap: int,
    goals: Mapping[tuple[int, int], object],
    need: int,
) -> list[Step]:
    targets = set(goals)
    return [
        Step(s[0], s[1], s[2], s[3])
        for s, ok in completions(me, opp, dice, cap, targets, need)
        if ok
    ]


def _apply(me: int, opp: int, step: Step) -> tuple[int, int]:
    me2 = me - (1 << (step.src << 2)) + (1 << (step.dst << 2))
    if step.hit:
        opp = opp - (1 << ((25 - step.dst) << 2)) + (1 << (B.BAR << 2))
    return me2, opp
