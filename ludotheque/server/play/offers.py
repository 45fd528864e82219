"""What the players of a game may agree on, as pure rules over a game in memory: aborting a game
before one's first move, offering a draw (and offering one again after a refusal), and whether
a rematch offer still stands. The changes themselves are ``agreements``'s and ``rematch``'s.

The rules, as lichess plays them:

- **Abort**: a player may call the game off until their own first move (a forced pass is not
  a move of theirs); the game then has no result, is never rated, and is not a draw.
- **Draw offers**, in the games that have draws (the General and Defiance; backgammon has
  none): one offer stands at a time; it stands until the opponent answers it or makes a move
  (a move is a silent no); the offerer's own moves leave it standing. A side whose offer was
  declined may offer again once it has made ``OFFER_AGAIN_AFTER`` more moves. Offering while
  the opponent's offer stands accepts it.
- **Rematch offers** between two people stand until the other player answers, or until a
  player has been away from the game's page for ``REMATCH_LAPSE`` seconds (a reload is back
  well before).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...core import CHANCE
from .session import BOTH, WATCH, GameSession

DRAWN_GAMES = frozenset({"general", "defiance"})
"""The games that can end in a draw (``clock.controls.HAS_DRAWS`` says the same)."""
OFFER_AGAIN_AFTER = 3
"""Moves a side makes after its draw offer was declined before it may offer again."""
REMATCH_LAPSE = 5.0
"""Seconds a player may be away from a finished game's page before a rematch offer lapses."""


def seat_sides(session: GameSession, seat: str) -> list[str]:
    """The sides a seat plays for itself (not the computer's, none for watchers)."""
    sides = list(session.record.game_object.sides)
    mine = sides if seat == BOTH else [seat] if seat in sides else []
    return [s for s in mine if s != session.computer_side]


def seat_side(session: GameSession, seat: str) -> str | None:
    """The one side a seat plays (``None`` at one screen, and for watchers)."""
    sides = seat_sides(session, seat)
    return sides[0] if len(sides) == 1 else None


def _chosen(session: GameSession) -> Iterator[tuple[int, str]]:
    """Each move a side chose, as (its ply counted from 1, the side), from the start: rolls
    and forced passes are nobody's choice. Lazy, so that a question about the first moves
    reads only those (a state's side to move says whose ply follows it)."""
    record = session.record
    states, moves = record.states, record.moves
    made = 0
    for i in range(len(states) - 1):
        side = states[i].to_move
        if side == CHANCE:
            continue
        text = moves[made]
        made += 1
        if text != "pass":
            yield i + 1, str(side)


def moves_by(session: GameSession, side: str, after: int = 0) -> list[int]:
    """The plies (counted from 1) of the moves ``side`` chose after ply ``after``."""
    return [ply for ply, who in _chosen(session) if who == side and ply > after]


def may_abort(session: GameSession, seat: str) -> bool:
    """Whether ``seat`` may abort its game now: a player of a game going on, none of whose
    sides has moved yet."""
    sides = seat_sides(session, seat)
    if not sides or seat == WATCH or session.finished:
        return False
    return not any(who in sides for _, who in _chosen(session))


def has_draws(session: GameSession) -> bool:
    return session.game in DRAWN_GAMES


def offers_draws(session: GameSession, seat: str) -> bool:
    """Whether ``seat`` plays one side against someone who can answer a draw offer (a person
    between friends, or the computer), in a game that has draws."""
    if not has_draws(session) or seat == WATCH:
        return False
    return session.mode in ("friend", "computer") and len(seat_sides(session, seat)) == 1


def draw_lapsed_at(session: GameSession) -> int | None:
    """The ply of the opponent's move that answered the standing draw offer with a silent
    no (``None``: no offer, or no such move yet)."""
    if session.draw_offer is None:
        return None
    side, ply = session.draw_offer
    opponent = session.record.game_object.opponent(side)
    answers = moves_by(session, opponent, ply)
    return answers[0] if answers else None


def standing_draw(session: GameSession) -> str | None:
    """The side whose draw offer stands now (``None``: no offer stands)."""
    if session.finished or session.draw_offer is None or draw_lapsed_at(session) is not None:
        return None
    return session.draw_offer[0]


def draw_declined_at(session: GameSession, side: str) -> int | None:
    """The ply at which ``side``'s last draw offer was declined, in words or by a move."""
    lapsed = draw_lapsed_at(session)
    if lapsed is not None and session.draw_offer is not None and session.draw_offer[0] == side:
        return lapsed
    return session.draw_declined.get(side)


def draw_wait(session: GameSession, side: str) -> int:
    """How many more moves ``side`` must make before it may offer a draw again (0: now)."""
    declined = draw_declined_at(session, side)
    if declined is None:
        return 0
    return max(0, OFFER_AGAIN_AFTER - len(moves_by(session, side, declined)))


def draw_declined_news(session: GameSession, side: str) -> bool:
    """Whether ``side`` is to be told its draw offer was declined: it was, and ``side`` has
    not moved since."""
    declined = draw_declined_at(session, side)
    return declined is not None and not moves_by(session, side, declined)


def gone_for(session: GameSession, now: float) -> str | None:
    """A player who has been away from the game's page for ``REMATCH_LAPSE`` seconds."""
    for side, since in sorted(session.presence.items()):
        if now - since >= REMATCH_LAPSE:
            return side
    return None


def standing_rematch(session: GameSession, now: float) -> str | None:
    """The side whose rematch offer stands (between friends, before the rematch is made;
    ``None`` once declined, or lapsed because a player left)."""
    by = session.rematch_by
    if (
        by is None or session.mode != "friend" or session.rematch_id is not None
        or session.rematch_declined is not None or not session.finished
    ):  # fmt: skip
        return None
    return None if gone_for(session, now) is not None else by


def rematch_lapsed(session: GameSession, now: float) -> str | None:
    """The player whose leaving ended the last rematch offer (``None``: it did not lapse)."""
    if session.rematch_lapsed is not None:
        return session.rematch_lapsed
    pending = session.rematch_id is None and session.rematch_declined is None
    if session.rematch_by is not None and pending and standing_rematch(session, now) is None:
        return gone_for(session, now)
    return None


def offers_view(session: GameSession, seat: str, now: float) -> dict[str, object]:
    """What a seat is told of the offers: whether it may abort, the draw offer standing,
    whether it may offer one (and after how many more moves), whether its own was declined;
    the rematch offer standing and whose leaving ended the last one."""
    side = seat_side(session, seat)
    draws = offers_draws(session, seat) and not session.finished and side is not None
    return {
        "abort": may_abort(session, seat),
        "draw": standing_draw(session),
        "draw_allowed": draws,
        "draw_wait": draw_wait(session, side) if draws and side is not None else 0,
        "draw_declined": bool(side and draws and draw_declined_news(session, side)),
        "rematch": standing_rematch(session, now),
        "rematch_lapsed": rematch_lapsed(session, now),
    }
