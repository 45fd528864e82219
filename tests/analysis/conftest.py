"""Every analysis test starts as a fresh process does: no oracle registered for the General, so
that its analysis asks the default (the General's solution), whatever a test run earlier in the
same process registered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ludotheque.analysis import register_oracle, reset_oracle


@pytest.fixture(autouse=True)
def default_oracle() -> Iterator[None]:
    reset_oracle("general")
    yield
    reset_oracle("general")


@pytest.fixture
def search_alone() -> None:
    """No oracle for the General: the search judges alone (the tests of its own judgement in
    positions the solution knows otherwise)."""
    register_oracle("general", None)
