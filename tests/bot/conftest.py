"""Fixtures shared by the bot's tests."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import pytest

from bot.core import logs


@pytest.fixture
def configured_logs() -> Iterator[Callable[..., io.StringIO]]:
    """`bot.core.logs.configure` at DEBUG into a buffer, as `tileref` sets logging up; call it with
    the format wanted. The root logger and the libraries' levels are put back afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, {n: logging.getLogger(n).level for n in logs.QUIET_BELOW_INFO})

    def configure(format: str | None = None) -> io.StringIO:
        buffer = io.StringIO()
        logs.configure(logging.DEBUG, format=format, stream=buffer)
        return buffer

    yield configure
    handlers, level, libraries = saved
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    for name, library_level in libraries.items():
        logging.getLogger(name).setLevel(library_level)
