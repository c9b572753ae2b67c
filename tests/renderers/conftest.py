"""Pictures in these tests are drawn with the fonts tileref ships only, so golden images are the
same on every machine; a test marked `system_fonts` may use the machine's CJK font too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from renderers import common


def _forget_fonts() -> None:
    for cached in (common._font_files, common.fonts, common._has, common._text_mask, common.text_width):
        cached.cache_clear()


@pytest.fixture(autouse=True)
def shipped_fonts_only(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.get_closest_marker("system_fonts") is None:
        monkeypatch.setattr(common, "CJK_FONTS", ())
    _forget_fonts()
    yield
    _forget_fonts()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "system_fonts: may draw with fonts installed on the machine")
