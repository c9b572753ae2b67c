"""Golden-image comparison for renderer tests.

`assert_golden(name, png)` decodes both images and compares them pixel by pixel with a small
tolerance (so a Pillow or zlib upgrade that shifts a few anti-aliased edges does not fail, but a
moved tile, a missing label or a colour change does). A missing golden file fails the test.
Set UPDATE_GOLDEN=1 to (re)write the golden files from the current renderer, then look at them.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent / "golden"
FAILURES = Path(tempfile.gettempdir()) / "tileref-golden-failures"

CHANNEL_TOLERANCE = 48
"""A pixel counts as different when one of its channels differs by more than this (softened
edges may drift a little between Pillow or FreeType versions)."""
MAX_DIFFERENT = 40
"""...and at most this many pixels may differ: fewer than one pip (about 90 pixels)."""
MAX_MEAN = 1.0
"""The mean absolute difference over all channels must stay below this."""


def decode(png: bytes) -> Image.Image:
    """The PNG as an RGB image; fails unless the bytes really are a PNG."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG", f"expected a PNG, got {image.format}"
    return image.convert("RGB")


def difference(actual: Image.Image, expected: Image.Image) -> tuple[int, float]:
    """(pixels off by more than the tolerance, mean absolute channel difference)."""
    diff = ImageChops.difference(actual, expected)
    worst = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(worst[0], worst[1]), worst[2])
    histogram = peak.histogram()
    pixels = actual.width * actual.height
    different = sum(histogram[CHANNEL_TOLERANCE + 1:])
    channels = diff.histogram()
    mean = sum((i % 256) * count for i, count in enumerate(channels)) / (3 * pixels)
    return different, mean


def assert_golden(name: str, png: bytes) -> None:
    """`png` looks like tests/renderers/golden/<name>.png (see the module docstring)."""
    path = GOLDEN / f"{name}.png"
    actual = decode(png)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    assert path.exists(), f"no golden image {path.name}: run the tests with UPDATE_GOLDEN=1, then look at it"
    expected = decode(path.read_bytes())
    problem = None
    if actual.size != expected.size:
        problem = f"size {actual.size} differs from the golden {expected.size}"
    else:
        different, mean = difference(actual, expected)
        if different > MAX_DIFFERENT or mean > MAX_MEAN:
            problem = f"{different} pixels differ (mean difference {mean:.2f})"
    if problem:
        FAILURES.mkdir(parents=True, exist_ok=True)
        (FAILURES / f"{name}.png").write_bytes(png)
        raise AssertionError(f"{name}: {problem}; the new image is in {FAILURES / name}.png "
                             f"(UPDATE_GOLDEN=1 accepts it)")
