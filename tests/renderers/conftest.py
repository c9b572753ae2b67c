"""Pictures in these tests are drawn with the fonts tileref ships only, so golden images are the
same on every machine; a test marked `system_fonts` uses the machine's CJK and emoji fonts too
(Debian's fonts-noto-cjk and fonts-noto-color-emoji, which CI installs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from renderers import text


def forget_fonts() -> None:
    """Drop every cached font, glyph probe and rendered text (after changing the font paths)."""
    for cached in (text.font_files, text.fonts, text._has, text._lettering, text.text_width):
        cached.cache_clear()


@pytest.fixture(autouse=True)
def shipped_fonts_only(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.get_closest_marker("system_fonts") is None:
        monkeypatch.setattr(text, "CJK_FONTS", ())
        monkeypatch.setattr(text, "EMOJI_FONTS", ())
    forget_fonts()
    yield
    forget_fonts()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "system_fonts: may draw with fonts installed on the machine")
