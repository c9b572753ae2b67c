"""Small pictures drawn on boards: numbered badges, a star, a chicken foot, a framed picture.

Each function returns an RGBA sprite (smooth edges, transparent around it) to paste with its
own alpha; the ones that depend only on their arguments are cached.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.common import INK, RGB, WHITE, ink_on
from renderers.text import font

SCALE = 4


@lru_cache(maxsize=256)
def badge(text: str, colour: RGB, size: int, *, ring: RGB = WHITE) -> Image.Image:
    """A `size`-pixel disc in `colour` with a `ring` edge and `text` in black or white,
    whichever reads better on the colour."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    edge = max(SCALE * 2, size * SCALE // 9)
    draw.ellipse((0, 0, size * SCALE - 1, size * SCALE - 1), fill=ring)
    draw.ellipse((edge, edge, size * SCALE - 1 - edge, size * SCALE - 1 - edge), fill=colour)
    small = big.reduce(SCALE)
    text_size = int(size * (0.7 if len(text) == 1 else 0.5))  # a Tronimoes open end's digit: 9 px in the preview
    ImageDraw.Draw(small).text((size / 2, size / 2 + 0.5), text, fill=ink_on(colour), font=font(text_size),
                               anchor="mm", stroke_width=1, stroke_fill=ink_on(colour))
    return small


@lru_cache(maxsize=32)
def star(size: int, colour: RGB, points: RGB, *, ring: RGB = WHITE) -> Image.Image:
    """A five-pointed star in `points` colour on a `colour` disc: the mark of a leader."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    full = size * SCALE
    edge = max(SCALE * 2, full // 10)
    draw.ellipse((0, 0, full - 1, full - 1), fill=ring)
    draw.ellipse((edge, edge, full - 1 - edge, full - 1 - edge), fill=colour)
    centre = full / 2
    outer, inner = full * 0.34, full * 0.14
    corners = []
    for k in range(10):
        angle = -math.pi / 2 + k * math.pi / 5
        r = outer if k % 2 == 0 else inner
        corners.append((centre + r * math.cos(angle), centre + r * math.sin(angle) + full * 0.02))
    draw.polygon(corners, fill=points)
    return big.reduce(SCALE)


@lru_cache(maxsize=64)
def chicken_foot(size: int, colour: RGB, outline: RGB = INK) -> Image.Image:
    """A bird's footprint, three toes forward and one back, in `colour` edged with `outline`."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    full = size * SCALE
    heel = (0.5 * full, 0.62 * full)
    toes = [(0.5 * full, 0.08 * full), (0.13 * full, 0.3 * full), (0.87 * full, 0.3 * full),
            (0.5 * full, 0.93 * full)]
    thick = full * 0.13
    for width, fill in ((thick + full * 0.09, outline), (thick, colour)):
        for toe in toes:
            draw.line((heel, toe), fill=fill, width=int(width))
        for x, y in [heel, *toes]:
            r = width / 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    return big.reduce(SCALE)


@lru_cache(maxsize=64)
def _disc_mask(size: int) -> Image.Image:
    big = Image.new("L", (size * SCALE, size * SCALE), 0)
    ImageDraw.Draw(big).ellipse((0, 0, size * SCALE - 1, size * SCALE - 1), fill=255)
    return big.reduce(SCALE)


def framed_picture(picture: Image.Image | None, size: int, colour: RGB) -> Image.Image:
    """A `size`-pixel round medallion ringed in `colour`: the player's `picture` fitted inside,
    or the drawn chicken foot when there is none."""
    if picture is None:
        return _framed_foot(size, colour)
    ring = max(3, size // 10)
    inner = size - 2 * ring
    medallion = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    medallion.paste(Image.new("RGBA", (size, size), (*colour, 255)), (0, 0), _disc_mask(size))
    background = Image.new("RGBA", (inner, inner), (*WHITE, 255))
    fitted = picture.convert("RGBA")
    fitted.thumbnail((inner, inner), Image.Resampling.LANCZOS)
    background.alpha_composite(fitted, ((inner - fitted.width) // 2, (inner - fitted.height) // 2))
    medallion.paste(background, (ring, ring), _disc_mask(inner))
    return medallion


@lru_cache(maxsize=64)
def _framed_foot(size: int, colour: RGB) -> Image.Image:
    ring = max(3, size // 10)
    inner = size - 2 * ring
    medallion = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    medallion.paste(Image.new("RGBA", (size, size), (*colour, 255)), (0, 0), _disc_mask(size))
    medallion.paste(Image.new("RGBA", (inner, inner), (*WHITE, 255)), (ring, ring), _disc_mask(inner))
    foot = chicken_foot(inner * 3 // 4, colour)
    offset = ring + (inner - foot.width) // 2
    medallion.alpha_composite(foot, (offset, offset))
    return medallion


SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "cross")
"""The shape of each seat's mark, by seat (Triominoes): told apart without colour."""


@lru_cache(maxsize=64)
def seat_shape(seat: int, colour: RGB, size: int, *, outline: RGB = INK) -> Image.Image:
    """A `size`-pixel mark in `colour` edged with `outline`, shaped by `seat` (SHAPES, in turn):
    a seat's sign where its number would not fit."""
    full = size * SCALE
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    edge = max(SCALE * 2, full // 7)
    shape = SHAPES[seat % len(SHAPES)]
    m = edge / 2
    if shape == "circle":
        draw.ellipse((m, m, full - 1 - m, full - 1 - m), fill=colour, outline=outline, width=edge)
        return big.reduce(SCALE)
    if shape == "square":
        inset = full * 0.1
        draw.rectangle((inset, inset, full - 1 - inset, full - 1 - inset), fill=colour, outline=outline, width=edge)
        return big.reduce(SCALE)
    if shape == "cross":
        arm = full * 0.2
        points = [(full / 2 - arm, m), (full / 2 + arm, m), (full / 2 + arm, full / 2 - arm),
                  (full - m, full / 2 - arm), (full - m, full / 2 + arm), (full / 2 + arm, full / 2 + arm),
                  (full / 2 + arm, full - m), (full / 2 - arm, full - m), (full / 2 - arm, full / 2 + arm),
                  (m, full / 2 + arm), (m, full / 2 - arm), (full / 2 - arm, full / 2 - arm)]
    else:
        sides, turn = {"triangle": 3, "diamond": 4, "pentagon": 5}[shape], -math.pi / 2
        radius = full / 2 - m
        centre_y = full / 2 + (full * 0.08 if sides == 3 else 0)
        points = [(full / 2 + radius * math.cos(turn + 2 * math.pi * k / sides),
                   centre_y + radius * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides)]
    draw.polygon(points, fill=colour, outline=outline, width=edge)
    return big.reduce(SCALE)
