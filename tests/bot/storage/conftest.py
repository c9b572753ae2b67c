"""What the storage tests share: an open store on each test database."""

import pytest

from bot.storage.address import store_for


@pytest.fixture
async def store(database):
    """An open store on the test's database (SQLite and PostgreSQL), closed after the test."""
    store = store_for(database)
    await store.open()
    yield store
    await store.close()
