"""Quick pairing by rating with widening windows, seeks and who may accept a challenge."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.server.accounts.rules import AccountError
from ludotheque.server.errors import GameError
from ludotheque.server.lobby.pairing import (
    BASE_WINDOW,
    MAX_RATED_WINDOW,
    Pairing,
    Seek,
    add,
    assign_sides,
    check_accept,
    compatible,
    expire,
    make_seek,
    pair,
)

T0 = 1_700_000_000.0


def seek(
    name: str, rating: float, *, since: float = T0, deviation: float = 60.0, **kw: object
) -> Seek:
    base = Seek(
        id=f"seek-{name}",
        player=name,
        game="general",
        ruleset="default",
        control="5+3",
        rated=True,
        since=since,
        rating=rating,
        deviation=deviation,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def heads(a: Seek, b: Seek) -> bool:
    return True


def names(pairings: list[Pairing]) -> list[set[str]]:
    return [{s.player for s in p.seeks} for p in pairings]


def test_windows_start_narrow_and_widen_with_waiting() -> None:
    settled = seek("ann", 1500)
    assert settled.window(T0) == BASE_WINDOW
    assert settled.window(T0 + 10) == BASE_WINDOW + 100
    assert settled.window(T0 + 3600) == MAX_RATED_WINDOW
    assert replace(settled, rated=False).window(T0 + 3600) > 30_000  # casual: no limit
    assert seek("new", 1500, deviation=500).window(T0) == 350  # uncertain: wider at once
    assert seek("mid", 1500, deviation=200).window(T0) == 200


def test_close_ratings_pair_at_once() -> None:
    pairings = pair([seek("ann", 1500), seek("bob", 1580)], T0, heads)
    assert names(pairings) == [{"ann", "bob"}]
    assert pairings[0].sides == {"rebels": seek("ann", 1500), "general": seek("bob", 1580)}


def test_distant_ratings_wait_until_the_windows_meet() -> None:
    pool = [seek("ann", 1500), seek("bob", 1800, since=T0 + 5)]
    assert pair(pool, T0 + 5) == []
    # bob's window reaches 300 after 20 s of waiting (ann's is wider by then)
    assert pair(pool, T0 + 24.9) == []
    assert names(pair(pool, T0 + 25)) == [{"ann", "bob"}]


def test_the_longest_waiting_seek_takes_the_closest_rating() -> None:
    pool = [
        seek("cat", 1540, since=T0 + 2),
        seek("ann", 1500),
        seek("bob", 1620, since=T0 + 1),
        seek("dan", 1640, since=T0 + 3),
    ]
    assert names(pair(pool, T0 + 3)) == [{"ann", "cat"}, {"bob", "dan"}]


def test_only_one_kind_of_game_meets() -> None:
    ann = seek("ann", 1500)
    for other in (
        replace(seek("bob", 1500), control="10+5"),
        replace(seek("bob", 1500), rated=False),
        replace(seek("bob", 1500), game="defiance", ruleset="10x10"),
        replace(seek("bob", 1500), control=None),
    ):
        assert not compatible(ann, other, T0 + 3600)
    assert not compatible(ann, replace(ann, id="seek-again"), T0)  # the same player
    assert compatible(ann, seek("bob", 1500), T0)


def test_wished_sides() -> None:
    rebel = seek("ann", 1500, side="rebels")
    assert not compatible(rebel, seek("bob", 1500, side="rebels"), T0)
    general = seek("bob", 1500, side="general")
    assert compatible(rebel, general, T0)
    assert assign_sides(rebel, general, ("rebels", "general"), heads).sides["rebels"] == rebel
    anyone = seek("cat", 1500)
    for a, b in ((general, anyone), (anyone, general)):
        pairing = assign_sides(a, b, ("rebels", "general"), heads)
        assert pairing.sides["general"] == general and pairing.sides["rebels"] == anyone
    tails = assign_sides(anyone, seek("dan", 1500), ("rebels", "general"), lambda a, b: False)
    assert tails.sides["general"].player == "cat"


def test_named_challenges_are_not_for_quick_pairing() -> None:
    pool = [seek("ann", 1500, opponent="bob"), seek("bob", 1500)]
    assert pair(pool, T0) == []


def test_one_seek_a_player_and_old_seeks_go() -> None:
    pool = add([seek("ann", 1500), seek("bob", 1500)], seek("ann", 1500, control="10+5"))
    assert [(s.player, s.control) for s in pool] == [("bob", "5+3"), ("ann", "10+5")]
    stale = seek("old", 1500, since=T0 - 901)
    assert [s.player for s in expire([*pool, stale], T0)] == ["bob", "ann"]


def test_making_a_seek_checks_it() -> None:
    made = make_seek(
        id="s1", player="ann", game="backgammon", ruleset=None, control=" 3+12D ", rated=False,
        since=T0, account=False,
    )  # fmt: skip
    assert made.ruleset == "seed" and made.control == "3+12d"
    assert make_seek(
        id="s2", player="ann", game="general", ruleset="default", control=None, rated=True,
        since=T0, side="general",
    ).side == "general"  # fmt: skip
    bad: list[dict[str, object]] = [
        {"game": "chess"},
        {"ruleset": "8x8"},
        {"control": "3+12d"},
        {"control": "five minutes"},
        {"side": "white"},
    ]
    for change in bad:
        args: dict[str, object] = {
            "id": "s3", "player": "ann", "game": "general", "ruleset": "default",
            "control": "5+3", "rated": False, "since": T0,
        }  # fmt: skip
        args.update(change)
        with pytest.raises(GameError) as caught:
            make_seek(**args)  # type: ignore[arg-type]
        assert caught.value.code == "bad-seek" and caught.value.in_language("fr")
    with pytest.raises(AccountError) as refused:
        make_seek(
            id="s4", player="visitor", game="general", ruleset=None, control="5+3", rated=True,
            since=T0, account=False,
        )  # fmt: skip
    assert refused.value.code == "sign-in-required" and refused.value.status == 403


def test_who_may_accept_a_challenge() -> None:
    open_game = seek("ann", 1500, rated=False)
    check_accept(open_game, "visitor-1", account=False, username=None)
    with pytest.raises(GameError, match="your own"):
        check_accept(open_game, "ann", account=True, username="ann")
    rated = seek("ann", 1500)
    check_accept(rated, "bob", account=True, username="bob")
    with pytest.raises(AccountError):
        check_accept(rated, "visitor-1", account=False, username=None)
    named = seek("ann", 1500, opponent="Bob")
    check_accept(named, "bob", account=True, username="BOB")
    with pytest.raises(GameError, match="another player"):
        check_accept(named, "cat", account=True, username="cat")
    with pytest.raises(GameError, match="another player"):
        check_accept(named, "visitor-1", account=False, username=None)


pools = st.lists(
    st.builds(
        lambda i, r, d, wait, control, side: seek(
            f"p{i}", r, since=T0 - wait, deviation=d, control=control, side=side
        ),
        st.integers(0, 12),
        st.floats(800, 2400),
        st.floats(45, 500),
        st.floats(0, 120),
        st.sampled_from(["5+3", "10+5"]),
        st.sampled_from([None, None, "rebels", "general"]),
    ),
    max_size=14,
    unique_by=lambda s: s.player,
)


@given(pools)
def test_pairings_are_sound_and_leave_no_possible_pair(pool: list[Seek]) -> None:
    pairings = pair(pool, T0, heads)
    used = [s.id for p in pairings for s in p.seeks]
    assert len(used) == len(set(used))
    for p in pairings:
        a, b = p.seeks
        assert compatible(a, b, T0)
        for side, s in p.sides.items():
            assert s.side in (None, side)
    left = [s for s in pool if s.id not in used]
    assert not any(compatible(a, b, T0) for a in left for b in left)
    assert pair(list(reversed(pool)), T0, heads) == pairings  # every process pairs alike
