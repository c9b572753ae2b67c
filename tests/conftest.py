"""For every test: no picture-service key from the developer's environment, so no test reaches
beyond 127.0.0.1 (media tests point providers at a stand-in on 127.0.0.1)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_picture_service_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KLIPY_API_KEY", "GIPHY_API_KEY", "KLIPY_API_URL", "GIPHY_API_URL"):
        monkeypatch.delenv(name, raising=False)
