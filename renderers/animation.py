"""Animated pictures from board pictures: an animated GIF of a whole game, each frame shown as
long as asked, within a size limit. Pillow only; bytes in, bytes out."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image

GIF_LIMIT = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts, and the issue's ceiling: 8 MB."""
LARGEST = 800
"""The widest or tallest an animation is drawn, in pixels (chat shows it smaller anyway)."""
SMALLEST_SCALE = 0.2
COLOURS = 128


def animated_gif(frames: Sequence[bytes], durations: Sequence[int], *, limit: int = GIF_LIMIT) -> bytes:
    """An endlessly looping GIF of `frames` (PNG bytes), frame `i` shown `durations[i]`
    milliseconds. Frames of different sizes are centred on a canvas of the largest, drawn at
    most `LARGEST` pixels across, and smaller again until the whole fits in `limit` bytes
    (ValueError if it does not at a fifth of that size). All frames share one palette, taken
    from the last (the fullest board), so each frame stores only what changed."""
    if not frames or len(frames) != len(durations):
        raise ValueError("an animation needs frames, each with its duration")
    pictures = [Image.open(io.BytesIO(data)).convert("RGB") for data in frames]
    size = (max(p.width for p in pictures), max(p.height for p in pictures))
    scale = min(1.0, LARGEST / max(size))
    while True:
        data = _encode(pictures, durations, size, scale)
        if len(data) <= limit:
            return data
        if scale <= SMALLEST_SCALE:
            raise ValueError(f"the animation is larger than {limit} bytes even at {SMALLEST_SCALE:.0%} size")
        scale = max(SMALLEST_SCALE, scale * min(0.9, math.sqrt(limit / len(data)) * 0.95))


def _encode(pictures: Sequence[Image.Image], durations: Sequence[int], size: tuple[int, int], scale: float) -> bytes:
    target = (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))
    canvases = []
    for picture in pictures:
        canvas = picture
        if picture.size != size:
            canvas = Image.new("RGB", size, picture.getpixel((0, 0)))
            canvas.paste(picture, ((size[0] - picture.width) // 2, (size[1] - picture.height) // 2))
        canvases.append(canvas.resize(target, Image.Resampling.BILINEAR) if target != size else canvas)
    palette = canvases[-1].quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
    frames = [c.quantize(palette=palette, dither=Image.Dither.NONE) for c in canvases]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=list(durations), loop=0,
                   disposal=1)
    return out.getvalue()
