"""Animated pictures from board pictures: an animated GIF of a whole game, each frame shown as
long as asked, within a size limit. Pillow only; bytes in, bytes out."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

GIF_LIMIT = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts, and the issue's ceiling: 8 MB."""
SCALES = (1.0, 0.75, 0.55, 0.4, 0.3, 0.2)
COLOURS = 96


def animated_gif(frames: Sequence[bytes], durations: Sequence[int], *, limit: int = GIF_LIMIT) -> bytes:
    """An endlessly looping GIF of `frames` (PNG bytes), frame `i` shown `durations[i]`
    milliseconds. Frames of different sizes are centred on a canvas of the largest; the whole
    is drawn smaller until it fits in `limit` bytes (ValueError if even the smallest does not)."""
    if not frames or len(frames) != len(durations):
        raise ValueError("an animation needs frames, each with its duration")
    pictures = [Image.open(io.BytesIO(data)).convert("RGB") for data in frames]
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    for scale in SCALES:
        data = _encode(pictures, durations, (width, height), scale)
        if len(data) <= limit:
            return data
    raise ValueError(f"the animation is larger than {limit} bytes even at {SCALES[-1]:.0%} size")


def _encode(pictures: Sequence[Image.Image], durations: Sequence[int], size: tuple[int, int], scale: float) -> bytes:
    target = (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))
    frames = []
    for picture in pictures:
        canvas = Image.new("RGB", size, picture.getpixel((0, 0)))
        canvas.paste(picture, ((size[0] - picture.width) // 2, (size[1] - picture.height) // 2))
        if scale != 1.0:
            canvas = canvas.resize(target, Image.Resampling.LANCZOS)
        frames.append(canvas.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE))
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=list(durations), loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()
