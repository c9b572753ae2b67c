"""Words on pictures: a font fallback chain tried glyph by glyph, measuring, fitting, wrapping,
and (for tests) a record of every box of text drawn.

The chain: Pillow's bundled scalable font, the bundled DejaVu Sans (Latin, Greek, Cyrillic in
full), then the machine's Noto Sans CJK and Noto Color Emoji when installed (Debian's
fonts-noto-cjk and fonts-noto-color-emoji; the Docker image and CI install both). Without them a
Latin, Greek or Cyrillic name is still drawn in full; `missing_scripts` says what is not.
Nothing here writes a file: fonts are read, pictures are returned.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

ASSETS = Path(__file__).resolve().parent / "assets"
WIDE_FONT = ASSETS / "DejaVuSans.ttf"
"""Bundled with tileref: Latin, Greek and Cyrillic in full (and much else)."""
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)
"""Fonts for Chinese, Japanese and Korean (Debian: fonts-noto-cjk); the first that exists is used."""
EMOJI_FONTS = (
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    "/System/Library/Fonts/Apple Color Emoji.ttc",
)
"""Colour emoji fonts (Debian: fonts-noto-color-emoji); the first that exists is used."""
EMOJI_STRIKE = 109
"""The one pixel size Noto Color Emoji's bitmaps come in; they are scaled to the text's size."""
PLACEHOLDER = "□"
"""Drawn for a character no font has, so nothing in a name silently disappears."""

SCRIPTS: dict[str, tuple[str, str]] = {
    "Latin": ("Zoë Łukasz", "bundled"),
    "Greek": ("Ωμέγα", "bundled"),
    "Cyrillic": ("Ёлка", "bundled"),
    "Chinese": ("大卫", "fonts-noto-cjk"),
    "Japanese": ("たろう", "fonts-noto-cjk"),
    "Korean": ("한글", "fonts-noto-cjk"),
    "emoji": ("🐉🐔", "fonts-noto-color-emoji"),
}
"""Each script a name may be written in: a sample, and the Debian package whose font draws it."""


@dataclass(frozen=True)
class Face:
    """One font of the chain at one text size. A colour bitmap font is loaded at its strike and
    drawn scaled by `scale`."""

    font: ImageFont.FreeTypeFont
    scale: float = 1.0
    colour: bool = False

    def length(self, text: str) -> float:
        """How far `text` advances, in pixels at the text's size."""
        return self.font.getlength(text) * self.scale

    def metrics(self) -> tuple[float, float]:
        """(ascent, descent) in pixels at the text's size."""
        ascent, descent = self.font.getmetrics()
        return ascent * self.scale, descent * self.scale


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at `size` pixels: the first choice for every character it
    has (see `fonts` for the rest)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("the board renderer needs Pillow built with FreeType")
    return loaded


def _first(paths: tuple[str, ...]) -> str | None:
    return next((path for path in paths if Path(path).exists()), None)


@lru_cache(maxsize=1)
def font_files() -> tuple[tuple[str, bool], ...]:
    """The font files of the chain after Pillow's own, in order: (path, is a colour bitmap font)."""
    files = [(str(WIDE_FONT), False)] if WIDE_FONT.exists() else []
    cjk, emoji = _first(CJK_FONTS), _first(EMOJI_FONTS)
    if cjk:
        files.append((cjk, False))
    if emoji:
        files.append((emoji, True))
    return tuple(files)


def _load(path: str, size: int, colour: bool) -> Face | None:
    try:
        if colour:
            return Face(ImageFont.truetype(path, EMOJI_STRIKE), size / EMOJI_STRIKE, True)
        return Face(ImageFont.truetype(path, size))
    except OSError:  # an unreadable or unexpected font file: the chain goes on without it
        return None


@lru_cache(maxsize=64)
def fonts(size: int) -> tuple[Face, ...]:
    """Every font at `size`, in the order they are tried for a character: Pillow's own, the
    bundled wide one, then the machine's CJK and emoji fonts where installed."""
    loaded = (_load(path, size, colour) for path, colour in font_files())
    return (Face(font(size)), *(face for face in loaded if face is not None))


_PROBE = 24
_MISSING = "\U0010fffd"  # a private-use code point no font draws: its glyph is the font's "missing" box


def _glyph(face: Face, text: str) -> bytes:
    if face.colour:
        image = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
        ImageDraw.Draw(image).text((4, 4), text, font=face.font, embedded_color=True)
        return image.tobytes()
    grey = Image.new("L", (2 * _PROBE, 2 * _PROBE), 0)
    ImageDraw.Draw(grey).text((4, 4), text, fill=255, font=face.font)
    return grey.tobytes()


@lru_cache(maxsize=32768)
def _has(index: int, char: str) -> bool:
    """Whether font `index` of `fonts` has a glyph for `char`."""
    if char.isspace() or unicodedata.category(char).startswith(("M", "C")):
        return True
    face = fonts(_PROBE)[index]
    drawn = _glyph(face, char)
    return drawn != _glyph(face, _MISSING) and any(drawn)


def runs(text: str) -> list[tuple[int, str]]:
    """`text` cut into runs drawn with one font each (font index, characters). A word is drawn in
    the first font that has all its letters (so "Zoë" is not a patchwork); otherwise letter by
    letter; a character no font has becomes PLACEHOLDER."""
    count = len(fonts(_PROBE))
    found: list[tuple[int, str]] = []

    def add(index: int, chars: str) -> None:
        if found and found[-1][0] == index:
            found[-1] = (index, found[-1][1] + chars)
        else:
            found.append((index, chars))

    for word in re.split(r"(\s+)", unicodedata.normalize("NFC", text)):
        whole = next((i for i in range(count) if all(_has(i, ch) for ch in word)), None)
        if whole is not None:
            add(whole, word)
            continue
        for char in word:
            index = next((i for i in range(count) if _has(i, char)), None)
            if index is None:
                add(min(1, count - 1), PLACEHOLDER)
            else:
                add(index, char)
    return found


def missing_scripts() -> list[tuple[str, str]]:
    """The scripts this machine cannot draw names in, each with the Debian package that would
    fix it: [] when every script of `SCRIPTS` is drawn."""
    missing = []
    for script, (sample, package) in SCRIPTS.items():
        if any(PLACEHOLDER in run for _, run in runs(sample)):
            missing.append((script, package))
    return missing


_PLAIN = frozenset(chr(c) for c in range(32, 127))
"""Characters Pillow's own font draws (the quick path: no fallback needed)."""


def _needs_fallback(text: str) -> bool:
    return any(ch not in _PLAIN for ch in text)


@lru_cache(maxsize=2048)
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """How wide `text` is drawn at `size` (bold adds the stroke)."""
    stroke = 1 if bold else 0
    if not _needs_fallback(text):
        left, _, right, _ = font(size).getbbox(text, stroke_width=stroke)
        return int(right - left)
    faces = fonts(size)
    return int(sum(faces[i].length(run) for i, run in runs(text))) + 2 * stroke


COLOUR_GLYPHS = "tileref-colour-glyphs"
"""Key of `Image.info` listing the colour glyphs drawn on an image (so its PNG palette can hold
their colours)."""


@dataclass(frozen=True)
class Lettering:
    """`text` rendered once: a coverage mask to paint in the text's colour, an RGBA layer for
    colour glyphs (emoji) or None, and the offset of their top left from the anchor point."""

    mask: Image.Image
    colours: Image.Image | None
    left: int
    top: int


@lru_cache(maxsize=1024)
def _lettering(text: str, size: int, bold: bool, anchor: str) -> Lettering:
    stroke = 1 if bold else 0
    if not _needs_fallback(text):
        left, top, right, bottom = (int(v) for v in font(size).getbbox(text, anchor=anchor, stroke_width=stroke))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size), anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255 if bold else None)
        return Lettering(mask, None, left, top)
    return _mixed(text, size, stroke, anchor)


def _mixed(text: str, size: int, stroke: int, anchor: str) -> Lettering:
    """`text` drawn run by run in the fonts that have its characters, on a shared baseline;
    the anchor is placed as Pillow would for the primary font's metrics."""
    faces = fonts(size)
    ascent, descent = font(size).getmetrics()
    pieces = runs(text)
    width = int(sum(faces[i].length(run) for i, run in pieces)) + 2 * stroke + 2
    above = int(max([ascent, *(faces[i].metrics()[0] for i, _ in pieces)])) + stroke + 1
    below = int(max([descent, *(faces[i].metrics()[1] for i, _ in pieces)])) + stroke + 1
    mask = Image.new("L", (max(1, width), above + below), 0)
    colours: Image.Image | None = None
    draw = ImageDraw.Draw(mask)
    x = float(stroke)
    for index, run in pieces:
        face = faces[index]
        if face.colour:
            colours = colours or Image.new("RGBA", mask.size, (0, 0, 0, 0))
            glyphs = _colour_run(face, run)
            top = round(above - face.metrics()[0])
            colours.alpha_composite(glyphs, (round(x), max(0, top)))
        else:
            draw.text((x, above), run, fill=255, font=face.font, anchor="ls", stroke_width=stroke,
                      stroke_fill=255 if stroke else None)
        x += face.length(run)
    horizontal = {"l": 0.0, "m": -x / 2, "r": -x}[anchor[0]]
    vertical = {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "b": -descent,
                "d": -descent}[anchor[1]]
    return Lettering(mask, colours, round(horizontal - stroke), round(vertical - above))


def _colour_run(face: Face, run: str) -> Image.Image:
    """A run of colour glyphs drawn at the font's strike and scaled to the text's size."""
    ascent, descent = face.font.getmetrics()
    big = Image.new("RGBA", (max(1, round(face.font.getlength(run))), ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, 0), run, font=face.font, embedded_color=True)
    width, height = max(1, round(big.width * face.scale)), max(1, round(big.height * face.scale))
    return big.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def digit_height(size: int) -> int:
    """How tall, in pixels, the digits of text drawn at `size` are."""
    _, top, _, bottom = font(size).getbbox("0123456789", anchor="ls")
    return round(bottom - top)


# ---------------------------------------------------------------------------------------------
# Where text went


@dataclass
class TextRecord:
    """Every piece of text drawn while recording: (the image, the text, its ink box)."""

    boxes: list[tuple[Image.Image, str, tuple[int, int, int, int]]] = field(default_factory=list)
    sizes: list[tuple[Image.Image, str, int]] = field(default_factory=list)
    """Every text drawn, with its size in pixels (the font size), in the order drawn."""
    page: Image.Image | None = None
    """The last picture encoded as a PNG while recording (`encode_png` sets it)."""

    def on(self, image: Image.Image) -> list[tuple[str, tuple[int, int, int, int]]]:
        """The (text, box) pairs drawn on `image`."""
        return [(text, box) for target, text, box in self.boxes if target is image]

    def sizes_on(self, image: Image.Image) -> list[tuple[str, int]]:
        """The (text, size in pixels) pairs drawn on `image`."""
        return [(text, size) for target, text, size in self.sizes if target is image]


_RECORD: ContextVar[TextRecord | None] = ContextVar("tileref_text_record", default=None)


@contextmanager
def recording() -> Iterator[TextRecord]:
    """Record the box (left, top, right, bottom: the ink's extent) of every text drawn inside the
    block, so a test can check that nothing crosses a picture's edge or another text."""
    record = TextRecord()
    token = _RECORD.set(record)
    try:
        yield record
    finally:
        _RECORD.reset(token)


def note_page(image: Image.Image) -> None:
    """Mark `image` as the finished picture, when recording."""
    record = _RECORD.get()
    if record is not None:
        record.page = image


def draw_text(image: Image.Image, xy: tuple[float, float], text: str, size: int, colour: RGB, *,
              anchor: str = "la", bold: bool = False) -> None:
    """Draw `text` on `image` with its `anchor` point at `xy` (Pillow anchors: "mm" centres it,
    "lm" puts the left end's middle there). Any script a font here has is drawn in it (names in
    Greek, Cyrillic, CJK, emoji in colour…); a character none has is drawn as a box. Rendered
    runs are cached."""
    if not text:
        return
    lettering = _lettering(text, size, bold, anchor)
    x, y = round(xy[0]) + lettering.left, round(xy[1]) + lettering.top
    mask = lettering.mask
    image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)
    if lettering.colours is not None:
        image.paste(lettering.colours, (x, y), lettering.colours)
        image.info.setdefault(COLOUR_GLYPHS, []).append(lettering.colours)
    record = _RECORD.get()
    if record is not None:
        record.sizes.append((image, text, size))
        boxes = [b for b in (mask.getbbox(), lettering.colours and lettering.colours.getbbox()) if b]
        if boxes:
            ink = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                   max(b[3] for b in boxes))
            record.boxes.append((image, text, (x + ink[0], y + ink[1], x + ink[2], y + ink[3])))


# ---------------------------------------------------------------------------------------------
# Fitting


def drawable(text: str, fallback: str = "?") -> str:
    """`text` ready to draw: spaces normalised, control characters dropped; `fallback` if nothing
    is left. Every other character is kept: `draw_text` finds a font for it or draws a box."""
    kept = "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))
    kept = " ".join(kept.split())
    return kept or fallback


def fit_text(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """`text`, cut with an ellipsis if needed so that it is at most `width` pixels wide."""
    if text_width(text, size, bold=bold) <= width:
        return text
    while text and text_width(text + "…", size, bold=bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_name(name: str, rest: str, size: int, width: int, *, bold: bool = False) -> str:
    """`name` followed by `rest` (a score, a tile count…) in at most `width` pixels: only the name
    is shortened, with an ellipsis, so `rest` always shows whole."""
    room = width - text_width(rest, size, bold=bold)
    return fit_text(name, size, max(room, text_width("…", size, bold=bold)), bold=bold) + rest


def wrap_items(items: list[str], size: int, width: int, *, bold: bool = False) -> list[str]:
    """`items` (names) joined by commas into lines of at most `width` pixels, never breaking an
    item across lines; an item wider than a line on its own is shortened with an ellipsis."""
    lines: list[str] = []
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if lines and text_width(lines[-1] + " " + piece, size, bold=bold) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(fit_name(item, piece[len(item):], size, width, bold=bold))
    return lines


def wrap_text(text: str, size: int, width: int, *, bold: bool = False, lines: int = 2) -> list[str]:
    """`text` broken at spaces into at most `lines` lines of at most `width` pixels (the last
    one cut with an ellipsis if the text is longer still); [] for empty text."""
    result: list[str] = []
    words = text.split()
    while words and len(result) < lines:
        line = words.pop(0)
        while words and text_width(line + " " + words[0], size, bold=bold) <= width:
            line += " " + words.pop(0)
        result.append(line)
    if words:
        result[-1] = fit_text(result[-1] + " " + " ".join(words), size, width, bold=bold)
    return [fit_text(line, size, width, bold=bold) for line in result]


def leading(size: int) -> int:
    """The distance between two lines of `size`-pixel text (room for accents and CJK)."""
    return round(size * 1.35)


def draw_lines(image: Image.Image, left: float, top: float, lines: list[str], size: int, colour: RGB, *,
               bold: bool = False) -> float:
    """Draw `lines` one under another, the first's top at `top`; returns the y below the last."""
    for line in lines:
        draw_text(image, (left, top + leading(size) / 2), line, size, colour, anchor="lm", bold=bold)
        top += leading(size)
    return top
