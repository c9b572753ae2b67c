"""Words on pictures: the bundled fonts, the fallback chain glyph by glyph (Latin, Greek,
Cyrillic, CJK, emoji), what a machine without the system fonts still draws, and fitting."""

from __future__ import annotations

import os

import pytest
from PIL import Image, ImageChops

from renderers import text
from renderers.text import (
    PLACEHOLDER,
    draw_text,
    drawable,
    fit_name,
    fit_text,
    font,
    missing_scripts,
    recording,
    runs,
    text_width,
    wrap_text,
)
from tests.renderers.conftest import forget_fonts


def ink(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of everything not white."""
    return ImageChops.invert(image.convert("L")).getbbox()


def drawn(words: str, size: int = 28) -> Image.Image:
    image = Image.new("RGB", (600, 60), (255, 255, 255))
    draw_text(image, (10, 30), words, size, (0, 0, 0), anchor="lm")
    return image


def placeholders(words: str) -> int:
    return sum(run.count(PLACEHOLDER) for _, run in runs(words))


def need_system_fonts() -> None:
    """CJK and emoji fonts are Debian packages `.ci/run` installs: in CI their absence fails."""
    if missing_scripts():
        message = "install fonts-noto-cjk and fonts-noto-color-emoji (apt-get; .ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_the_first_font_is_pillows_bundled_scalable_font():
    loaded = font(30)
    assert loaded.getname() == ("Aileron", "Regular")
    assert not isinstance(loaded.path, str), "the font must come from Pillow, not a file on this system"
    assert text_width("Round 12", 30) > text_width("Round 12", 15) > 0


def test_names_keep_every_character_and_only_lose_control_characters():
    assert drawable("Zoë Łukasiewicz") == "Zoë Łukasiewicz"
    assert drawable("李雷 🐔", "P2") == "李雷 🐔"
    assert drawable("  two \x00  spaces ") == "two spaces"
    assert drawable("\x07", "P2") == "P2"


def test_latin_greek_and_cyrillic_names_are_drawn_without_any_system_font():
    assert drawn("Zoë").tobytes() != drawn("Zoe").tobytes()
    for name in ("Zoë Łukasz", "Ωμέγα", "Ёлка"):
        assert drawn(name).getbbox() is not None
        assert placeholders(name) == 0, name


def test_a_host_without_cjk_and_emoji_fonts_knows_which_scripts_it_cannot_draw():
    assert missing_scripts() == [("Chinese", "fonts-noto-cjk"), ("Japanese", "fonts-noto-cjk"),
                                 ("Korean", "fonts-noto-cjk"), ("emoji", "fonts-noto-color-emoji")]


def test_a_character_no_font_has_is_drawn_as_a_visible_box_not_dropped():
    pieces = runs("a\U0001F9FFb")
    assert "".join(chars for _, chars in pieces) == f"a{PLACEHOLDER}b"
    assert drawn("a\U0001F9FFb").tobytes() != drawn("ab").tobytes()


@pytest.mark.system_fonts
@pytest.mark.parametrize("name", ["大卫", "太郎", "たろう", "한글", "🐉", "Ana 🐔"])
def test_cjk_and_emoji_names_are_drawn_in_their_own_glyphs(name):
    need_system_fonts()
    assert placeholders(name) == 0
    assert drawn(name).tobytes() != drawn(PLACEHOLDER * len(name)).tobytes()


@pytest.mark.system_fonts
def test_fonts_are_chosen_glyph_by_glyph_within_one_name():
    need_system_fonts()
    chain = runs("Zoë 大卫 🐉")
    fonts_used = [index for index, chars in chain if chars.strip()]
    assert len(set(fonts_used)) == 3, chain
    assert "".join(chars for _, chars in chain) == "Zoë 大卫 🐉"


@pytest.mark.system_fonts
def test_emoji_are_drawn_in_colour_at_the_texts_size():
    need_system_fonts()
    image = drawn("🐉", 28)
    red, green, _ = image.split()
    assert ImageChops.difference(red, green).getbbox(), "a colour emoji has coloured pixels"
    left, top, right, bottom = ink(image) or (0, 0, 0, 0)
    assert 20 <= bottom - top <= 40 and 20 <= right - left <= 45


@pytest.mark.system_fonts
def test_every_script_is_drawn_where_the_system_fonts_are_installed():
    need_system_fonts()
    assert missing_scripts() == []


def test_a_broken_font_file_is_left_out_of_the_chain(tmp_path, monkeypatch):
    broken = tmp_path / "broken.ttc"
    broken.write_bytes(b"not a font")
    monkeypatch.setattr(text, "CJK_FONTS", (str(broken),))
    forget_fonts()
    assert placeholders("Zoë") == 0 and placeholders("大") == 1


def test_long_text_is_cut_to_fit():
    cut = fit_text("a very long player name indeed", 24, 120)
    assert cut.endswith("…") and text_width(cut, 24) <= 120
    assert fit_text("short", 24, 500) == "short"


def test_a_long_name_is_shortened_but_its_score_always_shows():
    label = fit_name("Maximiliana Wolfeschlegelsteinhausen", ": 42 · 7 tiles", 16, 160)
    assert label.endswith("…: 42 · 7 tiles") and text_width(label, 16) <= 160
    assert fit_name("Ana", ": 42", 16, 160) == "Ana: 42"


def test_wrapped_text_keeps_to_its_width_and_line_count():
    lines = wrap_text("plays by Wednesday 25 November 2026 at 14:05 Coordinated Universal Time", 16, 200)
    assert len(lines) == 2 and all(text_width(line, 16) <= 200 for line in lines)
    assert lines[-1].endswith("…")


def test_recording_reports_the_ink_box_of_every_text_drawn():
    image = Image.new("RGB", (300, 100), (255, 255, 255))
    with recording() as record:
        draw_text(image, (150, 50), "Ωμέγα: 12", 20, (0, 0, 0), anchor="mm")
    [(words, (left, top, right, bottom))] = record.on(image)
    assert words == "Ωμέγα: 12"
    assert (left, top, right, bottom) == ink(image)
    assert 150 - 60 < left < 150 < right < 150 + 60 and top < 50 < bottom
