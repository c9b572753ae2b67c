"""Pytest fixtures for end-to-end bot tests.

Use them from a ``conftest.py`` next to your tests::

    from tests.standin.fixtures import standin  # noqa: F401  (re-exported fixture)

then ``async def test_x(standin): async with standin.run_bot(make_bot()): ...``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import DiscordStandIn


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    """A started :class:`DiscordStandIn` with the default world; stopped after the test.

    Fails the test at teardown if the bot used a route the stand-in does not implement
    (``standin.unhandled``).  Refused requests (``standin.errors``) are left for the test
    to assert on, since provoking them can be the point of a test; use
    ``standin.assert_clean()`` to require both lists to be empty.
    """
    async with DiscordStandIn() as s:
        yield s
        assert s.unhandled == [], f"routes the stand-in does not implement were used: {s.unhandled}"
