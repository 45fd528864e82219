"""Fixtures shared by every area: a throwaway PostgreSQL server (one per test process)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgcluster import PgCluster, cluster_fixture, fresh_database


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL server for this test process; skipped without PostgreSQL (not in CI)."""
    yield from cluster_fixture()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> Iterator[str]:
    """The URL of a fresh, empty database, dropped after the test."""
    yield from fresh_database(pg_cluster)
