"""Shared helpers for the General's tests."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque.games.general import GeneralGame

START = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"


@pytest.fixture(scope="session")
def game() -> GeneralGame:
    g = ludotheque.load("general")
    assert isinstance(g, GeneralGame)
    return g


def notations(state: ludotheque.State) -> set[str]:
    return {str(m) for m in state.legal_moves()}
