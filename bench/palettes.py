"""How far apart every game's colours stay for colour-blind players, before and after issue 40.

For each game's palette (`renderers.palettes.PALETTES`: the colours that tell its seats, teams
or kinds of piece apart, and the backgrounds and marks they are drawn on or beside), one JSON
line per palette and vision: the smallest distance between two of its colours and the smallest
between a colour and a background, in CAM02-UCS (ΔE', about 1 a just-noticeable difference),
for normal vision and for protanopia, deuteranopia and tritanopia as colorspacious simulates them
(Machado et al. 2009, severity 100). "before" is main's palettes as they were before issue 40,
"after" the ones the renderers draw now. The test (tests/renderers/test_palettes.py) asks for at
least PAIR_MIN between any two colours and BACKGROUND_MIN between a colour and a background.

`--search K` shows how the colours were chosen: a local search over the sRGB cube (steps of
17) for K colours as far apart as possible under all four visions at once, each at least
BACKGROUND_MIN from the Tronimoes and Triominoes backgrounds (`--backgrounds`), with a small
reward for colourfulness (`--chroma`) once the pairs are `--target` apart.

    python bench/palettes.py               # the distances, before and after
    python bench/palettes.py --search 6    # the search behind the seat colours (about a minute)
"""

from __future__ import annotations

if __package__ in (None, ""):
    import benchpath  # noqa: F401  (must come before the project's imports)

import argparse
import itertools
import json
import random
from collections.abc import Sequence

import numpy as np
from colorspacious import cspace_convert

import renderers  # noqa: F401  (registers every game's palette)
from renderers.palettes import PALETTES, RGB, Palette

VISIONS: dict[str, str | None] = {"normal": None, "protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
                                  "tritanopia": "tritanomaly"}
"""Each vision and colorspacious's name for its simulation (at severity 100: the "-anomaly" at
full severity is the "-anopia")."""
DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
PAIR_MIN = 20.0
"""The smallest distance any two of a palette's colours may have, under every vision."""
BACKGROUND_MIN = 20.0
"""The smallest distance a palette's colour may have from any of its backgrounds."""


def _hex(text: str) -> RGB:
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _named(pairs: str) -> tuple[tuple[str, RGB], ...]:
    return tuple((name, _hex(code)) for name, code in (item.split("=") for item in pairs.split()))


BEFORE: dict[str, Palette] = {
    "tronimoes": Palette("tronimoes", "seats", _named(
        "blue=0072B2 vermillion=D55E00 sky_blue=56B4E9 reddish_purple=CC79A7 orange=E69F00 bluish_green=009E73"),
        _named("board=E2DAC6 paper=F6F3EC white=FFFFFF ink=1E1E1E neutral=333333 dead=C0C0C0 highlight=FFD81F "
               "spacer=F7EED6")),
    "triominoes": Palette("triominoes", "seats", _named(
        "blue=0072B2 vermillion=D55E00 sky_blue=56B4E9 reddish_purple=CC79A7 orange=E69F00 bluish_green=009E73"),
        _named("tile=FFFCF2 empty_cell=E4DDCC paper=F6F3EC ink=1E1E1E highlight=FFD81F")),
    "tromino_go": Palette("tromino_go", "seats", _named("blue=0072B2 orange=E69F00"),
                          _named("empty_cell=ECE7DC paper=F6F3EC ink=1E1E1E no_mans_land=9A9386 surrounded=B0003C")),
    "tronix": Palette("tronix", "teams (line colours)", _named("green=009E73 pink=CC5FA0"),
                      _named("card=FFFCF2 empty_cell=E8E2D3 paper=F6F3EC ink=1E1E1E highlight=FFD81F")),
    "tetromic": Palette("tetromic", "kinds of piece", _named("I=56B4E9 O=E69F00 L=D55E00 S=009E73 T=CC79A7"),
                        _named("empty_cell=E9E4D8 paper=F6F3EC ink=1E1E1E grid=CFC6B2")),
}
"""The palettes on main before issue 40 (commit 8ce1ab6), with the same backgrounds."""


def seen(colours: Sequence[RGB], vision: str) -> np.ndarray:
    """`colours` as someone with `vision` sees them, in CAM02-UCS (one row each)."""
    rgb = np.asarray(colours, dtype=float).reshape(-1, 3) / 255
    kind = VISIONS[vision]
    if kind is not None:
        rgb = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, "sRGB1"), 0, 1)
    return np.asarray(cspace_convert(rgb, "sRGB1", "CAM02-UCS"))


def closest_pair(palette: Palette, vision: str) -> tuple[float, str, str]:
    """The smallest distance between two of the palette's colours for `vision`, and their names."""
    points = seen([colour for _, colour in palette.colours], vision)
    names = [name for name, _ in palette.colours]
    return min((float(np.linalg.norm(points[i] - points[j])), names[i], names[j])
               for i, j in itertools.combinations(range(len(names)), 2))


def closest_background(palette: Palette, vision: str) -> tuple[float, str, str]:
    """The smallest distance between a colour and a background for `vision`, and their names."""
    points = seen([colour for _, colour in palette.colours], vision)
    behind = seen([colour for _, colour in palette.backgrounds], vision)
    return min((float(np.linalg.norm(points[i] - behind[j])), palette.colours[i][0], palette.backgrounds[j][0])
               for i in range(len(points)) for j in range(len(behind)))


def report(name: str, palette: Palette, when: str) -> list[dict[str, object]]:
    lines: list[dict[str, object]] = []
    for vision in VISIONS:
        pair, a, b = closest_pair(palette, vision)
        background, colour, behind = closest_background(palette, vision)
        lines.append({"game": name, "palette": when, "what": palette.what, "colours": len(palette.colours),
                      "vision": vision, "closest_pair": round(pair, 1), "pair": [a, b],
                      "closest_background": round(background, 1), "against": [colour, behind]})
    return lines


def search(count: int, backgrounds: Sequence[RGB], *, target: float, chroma: float, restarts: int,
           seed: int = 1) -> tuple[list[RGB], float]:
    """`count` colours whose closest pair, under every vision, is as far apart as the search
    finds (up to `target`, then the more colourful the better), each at least BACKGROUND_MIN
    from every one of `backgrounds`; and that closest distance."""
    levels = np.arange(0, 256, 17)
    grid = np.array(list(itertools.product(levels, levels, levels)), dtype=float)
    points = np.stack([seen(grid, vision) for vision in VISIONS])
    behind = np.stack([seen(list(backgrounds), vision) for vision in VISIONS])
    apart = np.linalg.norm(points[:, :, None, :] - behind[:, None, :, :], axis=3).min(axis=(0, 2))
    allowed = np.where(apart >= BACKGROUND_MIN)[0]
    points = points[:, allowed, :]
    colourful = np.hypot(points[0, :, 1], points[0, :, 2])

    def closest(chosen: list[int]) -> float:
        if len(chosen) < 2:
            return 1e9
        p = points[:, chosen, :]
        d = np.linalg.norm(p[:, :, None, :] - p[:, None, :, :], axis=3)
        upper = np.triu_indices(len(chosen), 1)
        return float(d[:, upper[0], upper[1]].min())

    rng = random.Random(seed)
    best: tuple[float, list[int]] = (-1.0, [])
    for _ in range(restarts):
        chosen = [rng.randrange(len(allowed)) for _ in range(count)]
        score = min(closest(chosen), target) + chroma * float(colourful[chosen].mean())
        better = True
        while better:
            better = False
            for slot in range(count):
                others = chosen[:slot] + chosen[slot + 1:]
                to_others = np.linalg.norm(points[:, :, None, :] - points[:, None, others, :], axis=3).min(axis=(0, 2))
                scores = (np.minimum(np.minimum(to_others, closest(others)), target)
                          + chroma * (colourful + colourful[others].sum()) / count)
                pick = int(np.argmax(scores))
                if scores[pick] > score + 1e-9:
                    chosen[slot], score, better = pick, float(scores[pick]), True
        if score > best[0]:
            best = (score, list(chosen))
    colours = [(int(r), int(g), int(b)) for r, g, b in grid[allowed[best[1]]]]
    return colours, closest(best[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--search", type=int, metavar="K", help="search for K colours instead of reporting")
    parser.add_argument("--backgrounds", default="E2DAC6 F6F3EC FFFFFF 1E1E1E 333333 C0C0C0 FFD81F",
                        help="the backgrounds the searched colours keep away from (hex)")
    parser.add_argument("--target", type=float, default=24.0)
    parser.add_argument("--chroma", type=float, default=0.05)
    parser.add_argument("--restarts", type=int, default=20)
    args = parser.parse_args()
    if args.search:
        colours, closest = search(args.search, [_hex(code) for code in args.backgrounds.split()], target=args.target,
                                  chroma=args.chroma, restarts=args.restarts)
        print(json.dumps({"colours": ["#" + "".join(f"{channel:02X}" for channel in colour) for colour in colours],
                          "closest_pair_all_visions": round(closest, 1)}))
        return
    for name in sorted(PALETTES):
        for when, palette in (("before", BEFORE.get(name)), ("after", PALETTES[name])):
            for line in report(name, palette, when) if palette is not None else ():
                print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
