"""A record's dice: a secret seed, committed to before the game, from which every chance outcome
is drawn, so that a game replays exactly from its record and anyone can check its rolls offline.

Before the game the players see the seed's SHA-256 (``seed_digest``); the record reveals the
seed when the game is over, and ``draw_chance`` draws each roll from it.

>>> seed_digest("abc")[:16]
'ba7816bf8f01cfea'
"""

from __future__ import annotations

import hashlib
import secrets
from fractions import Fraction
from typing import Any


def new_seed() -> str:
    """A fresh secret dice seed (32 hex digits)."""
    return secrets.token_hex(16)


def seed_digest(seed: str) -> str:
    """The SHA-256 commitment to a dice seed (hex), shown before the game, checked after it."""
    return hashlib.sha256(seed.encode()).hexdigest()


def draw_chance(seed: str, index: int, outcomes: list[tuple[Any, float]]) -> Any:
    """The ``index``-th chance outcome (0-based) of a game whose dice seed is ``seed``.

    The procedure, so that anyone can check a game offline: give each outcome an integer weight
    (its probability as an exact fraction, over the common denominator ``W``); for attempt
    ``a = 0, 1, …`` take ``x`` = the first 8 bytes, big-endian, of
    ``SHA-256(f"{seed}:{index}:{a}")``; skip the attempt when ``x ≥ 2**64 - 2**64 % W``;
    otherwise ``r = x % W`` picks the outcome whose cumulative weight range holds ``r``, in the
    order the state lists its outcomes.
    """
    fractions = [Fraction(p).limit_denominator(10_000) for _, p in outcomes]
    denominator = 1
    for f in fractions:
        denominator = denominator * f.denominator // _gcd(denominator, f.denominator)
    weights = [int(f * denominator) for f in fractions]
    total = sum(weights)
    limit = 2**64 - 2**64 % total
    attempt = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{index}:{attempt}".encode()).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            r = x % total
            for (outcome, _), weight in zip(outcomes, weights, strict=True):
                if r < weight:
                    return outcome
                r -= weight
        attempt += 1


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


__all__ = ["draw_chance", "new_seed", "seed_digest"]
