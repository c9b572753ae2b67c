"""For every test: no picture-service key from the developer's environment, so no test reaches
beyond 127.0.0.1 (media tests point providers at a stand-in on 127.0.0.1); and the `database`
fixture, which runs a test once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def no_picture_service_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KLIPY_API_KEY", "GIPHY_API_KEY", "KLIPY_API_URL", "GIPHY_API_URL"):
        monkeypatch.delenv(name, raising=False)


POSTGRES = "TILEREF_TEST_POSTGRES"
"""The PostgreSQL server the PostgreSQL-backed tests use (`.ci/run` sets it to the local one)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database address for a store, once per backend: an SQLite file in a temporary folder,
    and a schema of its own on the PostgreSQL server at $TILEREF_TEST_POSTGRES (skipped, saying
    so, where that is not set), dropped afterwards."""
    if request.param == "sqlite":
        yield str(tmp_path / "db" / "tileref.sqlite3")
        return
    server = os.environ.get(POSTGRES)
    if not server:
        pytest.skip(f"set {POSTGRES}=postgresql://user@host:5432/db to run the PostgreSQL tests")
    schema = f"test_{uuid.uuid4().hex[:12]}"
    yield f"{server}?search_path={schema}"
    asyncio.run(_drop_schema(server, schema))


async def _drop_schema(server: str, schema: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await connection.close()
