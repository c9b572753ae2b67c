"""The offline pack: small pictures of our own making, drawn with Pillow when first asked for,
each tagged with words and found by them. It needs no key and no network, so reactions and the
vision quest always work."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.media.picture import Picture

SIZE = 96
INK = (34, 34, 34, 255)
ATTRIBUTION = "tileref's own pictures"


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    tags: tuple[str, ...]
    draw: Callable[[ImageDraw.ImageDraw], None]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _badge(text: str, fill: tuple[int, int, int]) -> Callable[[ImageDraw.ImageDraw], None]:
    def draw(d: ImageDraw.ImageDraw) -> None:
        d.rounded_rectangle((4, 24, SIZE - 4, SIZE - 24), radius=14, fill=(*fill, 255), outline=INK, width=3)
        size = 30 if len(text) <= 4 else 20 if len(text) <= 7 else 15
        d.text((SIZE / 2, SIZE / 2), text, fill=(255, 255, 255, 255), font=_font(size), anchor="mm",
               stroke_width=2, stroke_fill=INK)
    return draw


def _face(mouth: str, colour: tuple[int, int, int] = (255, 205, 60)) -> Callable[[ImageDraw.ImageDraw], None]:
    def draw(d: ImageDraw.ImageDraw) -> None:
        d.ellipse((8, 8, SIZE - 8, SIZE - 8), fill=(*colour, 255), outline=INK, width=3)
        if mouth == "cool":
            d.rectangle((22, 34, 74, 44), fill=INK)
        elif mouth == "sleep":
            d.line((28, 40, 40, 40), fill=INK, width=3)
            d.line((56, 40, 68, 40), fill=INK, width=3)
        else:
            d.ellipse((30, 32, 38, 42), fill=INK)
            d.ellipse((58, 32, 66, 42), fill=INK)
        if mouth in ("smile", "cool"):
            d.arc((28, 40, 68, 72), 20, 160, fill=INK, width=4)
        elif mouth == "sad":
            d.arc((28, 58, 68, 86), 200, 340, fill=INK, width=4)
            d.ellipse((62, 44, 70, 56), fill=(80, 160, 255, 255))
        elif mouth == "angry":
            d.line((26, 26, 40, 32), fill=INK, width=4)
            d.line((70, 26, 56, 32), fill=INK, width=4)
            d.line((34, 66, 62, 66), fill=INK, width=4)
        elif mouth == "wow":
            d.ellipse((40, 54, 56, 74), fill=INK)
        elif mouth == "think":
            d.line((36, 66, 60, 62), fill=INK, width=4)
        elif mouth == "sleep":
            d.line((38, 64, 58, 64), fill=INK, width=3)
            d.text((70, 14), "z", fill=INK, font=_font(20))
    return draw


def _chicken_foot(d: ImageDraw.ImageDraw) -> None:
    orange = (240, 140, 30, 255)
    heel = (48, 30)
    for angle in (-40, 0, 40):
        rad = math.radians(90 + angle)
        tip = (heel[0] + 40 * math.cos(rad), heel[1] + 56 * math.sin(rad))
        d.line((heel, tip), fill=orange, width=9)
        d.ellipse((tip[0] - 5, tip[1] - 5, tip[0] + 5, tip[1] + 5), fill=INK)
    d.line((heel, (48, 6)), fill=orange, width=9)


def _skull(d: ImageDraw.ImageDraw) -> None:
    d.ellipse((16, 10, 80, 70), fill=(240, 240, 235, 255), outline=INK, width=3)
    d.rectangle((32, 60, 64, 84), fill=(240, 240, 235, 255), outline=INK, width=3)
    d.ellipse((28, 32, 44, 48), fill=INK)
    d.ellipse((52, 32, 68, 48), fill=INK)
    for x in (40, 48, 56):
        d.line((x, 70, x, 84), fill=INK, width=2)


def _trophy(d: ImageDraw.ImageDraw) -> None:
    gold = (240, 190, 40, 255)
    d.pieslice((22, -10, 74, 56), 0, 180, fill=gold, outline=INK, width=3)
    d.arc((8, 10, 32, 36), 90, 270, fill=INK, width=4)
    d.arc((64, 10, 88, 36), 270, 90, fill=INK, width=4)
    d.rectangle((44, 56, 52, 72), fill=gold, outline=INK, width=2)
    d.rectangle((30, 72, 66, 84), fill=gold, outline=INK, width=3)


def _crown(d: ImageDraw.ImageDraw) -> None:
    d.polygon([(12, 72), (12, 28), (30, 50), (48, 18), (66, 50), (84, 28), (84, 72)], fill=(240, 190, 40, 255),
              outline=INK, width=3)
    for x in (30, 48, 66):
        d.ellipse((x - 5, 58, x + 5, 68), fill=(200, 40, 60, 255))


def _star(d: ImageDraw.ImageDraw) -> None:
    points = []
    for i in range(10):
        radius = 42 if i % 2 == 0 else 18
        angle = math.radians(-90 + 36 * i)
        points.append((48 + radius * math.cos(angle), 50 + radius * math.sin(angle)))
    d.polygon(points, fill=(255, 210, 40, 255), outline=INK, width=3)


def _heart(d: ImageDraw.ImageDraw) -> None:
    red = (220, 40, 70, 255)
    d.ellipse((10, 16, 50, 56), fill=red)
    d.ellipse((46, 16, 86, 56), fill=red)
    d.polygon([(12, 44), (84, 44), (48, 86)], fill=red)


def _fire(d: ImageDraw.ImageDraw) -> None:
    d.polygon([(48, 6), (78, 56), (66, 88), (30, 88), (18, 56), (34, 40), (40, 56)], fill=(240, 90, 30, 255),
              outline=INK, width=3)
    d.polygon([(48, 44), (62, 70), (56, 86), (40, 86), (34, 70)], fill=(255, 210, 60, 255))


def _lightning(d: ImageDraw.ImageDraw) -> None:
    d.polygon([(56, 4), (20, 54), (44, 54), (34, 92), (78, 36), (52, 36), (66, 4)], fill=(255, 220, 40, 255),
              outline=INK, width=3)


def _hexagon(d: ImageDraw.ImageDraw) -> None:
    points = [(48 + 42 * math.cos(math.radians(60 * i)), 48 + 42 * math.sin(math.radians(60 * i))) for i in range(6)]
    d.polygon(points, fill=(90, 170, 230, 255), outline=INK, width=4)
    d.text((48, 48), "+50", fill=(255, 255, 255, 255), font=_font(24), anchor="mm", stroke_width=2, stroke_fill=INK)


def _bow(d: ImageDraw.ImageDraw) -> None:
    d.ellipse((34, 8, 62, 36), fill=(255, 205, 60, 255), outline=INK, width=3)
    d.line((48, 36, 48, 58), fill=INK, width=6)
    d.line((48, 44, 24, 70), fill=INK, width=6)
    d.line((48, 58, 72, 84), fill=INK, width=6)
    d.line((48, 58, 30, 86), fill=INK, width=6)


def _dice(d: ImageDraw.ImageDraw) -> None:
    d.rounded_rectangle((14, 14, 82, 82), radius=12, fill=(250, 250, 250, 255), outline=INK, width=3)
    for x, y in ((32, 32), (48, 48), (64, 64), (32, 64), (64, 32)):
        d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=INK)


def _domino(d: ImageDraw.ImageDraw) -> None:
    d.rounded_rectangle((26, 6, 70, 90), radius=8, fill=(250, 250, 250, 255), outline=INK, width=3)
    d.line((30, 48, 66, 48), fill=INK, width=3)
    for x, y in ((38, 20), (58, 34), (48, 70)):
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=INK)


def _thumbs(up: bool) -> Callable[[ImageDraw.ImageDraw], None]:
    def draw(d: ImageDraw.ImageDraw) -> None:
        skin = (255, 200, 140, 255)
        top, bottom = (10, 44) if up else (52, 86)
        d.rounded_rectangle((24, 40, 70, 78) if up else (24, 18, 70, 56), radius=10, fill=skin, outline=INK, width=3)
        d.rounded_rectangle((32, top, 50, bottom), radius=8, fill=skin, outline=INK, width=3)
        d.rectangle((70, 40, 84, 78) if up else (70, 18, 84, 56), fill=(60, 110, 200, 255), outline=INK, width=3)
    return draw


ENTRIES: tuple[Entry, ...] = (
    Entry("chicken-foot", "A chicken foot", ("chicken", "foot", "footed", "bird", "claw", "vision", "quest"),
          _chicken_foot),
    Entry("skull", "A skull", ("skull", "dead", "death", "kill", "killed", "murder", "rip", "boxed"), _skull),
    Entry("trophy", "A trophy", ("victory", "win", "winner", "won", "trophy", "champion", "gg", "round"), _trophy),
    Entry("crown", "A crown", ("king", "queen", "crown", "win", "victory", "best", "royal"), _crown),
    Entry("star", "A star", ("star", "great", "nice", "wow", "bonus", "shine"), _star),
    Entry("heart", "A heart", ("love", "heart", "nice", "thanks", "cute", "like"), _heart),
    Entry("fire", "Fire", ("fire", "hot", "lit", "streak", "burn", "on fire"), _fire),
    Entry("lightning", "Lightning", ("electric", "circuit", "zap", "lightning", "power", "tronix", "shock"),
          _lightning),
    Entry("hexagon", "A hexagon", ("hexagon", "bonus", "wow", "shape", "fifty"), _hexagon),
    Entry("happy", "A happy face", ("happy", "smile", "yay", "joy", "glad", "good"), _face("smile")),
    Entry("sad", "A sad face", ("sad", "cry", "frustration", "sob", "unlucky", "bad"), _face("sad", (120, 170, 240))),
    Entry("angry", "An angry face", ("angry", "mad", "rage", "frustration", "grr", "annoyed"),
          _face("angry", (240, 110, 90))),
    Entry("surprised", "A surprised face", ("wow", "surprised", "shock", "omg", "what"), _face("wow")),
    Entry("cool", "A cool face", ("cool", "sunglasses", "chill", "easy", "smooth"), _face("cool")),
    Entry("thinking", "A thinking face", ("think", "thinking", "hmm", "puzzled", "maybe"), _face("think")),
    Entry("sleepy", "A sleepy face", ("sleep", "slow", "zzz", "waiting", "bored", "tired"), _face("sleep")),
    Entry("bow", "A bow", ("bow", "thanks", "respect", "bravo", "honour"), _bow),
    Entry("dice", "A die", ("dice", "luck", "lucky", "random", "roll", "chance"), _dice),
    Entry("domino", "A domino", ("domino", "tile", "tronimoes", "game", "play"), _domino),
    Entry("thumbs-up", "Thumbs up", ("yes", "ok", "good", "thumbs", "up", "agree", "like"), _thumbs(True)),
    Entry("thumbs-down", "Thumbs down", ("no", "bad", "thumbs", "down", "disagree", "boo"), _thumbs(False)),
    Entry("gg", "GG", ("gg", "good game", "victory", "win", "end"), _badge("GG", (60, 160, 90))),
    Entry("nice", "NICE", ("nice", "good", "great", "well played"), _badge("NICE", (60, 130, 220))),
    Entry("oof", "OOF", ("oof", "ouch", "pain", "frustration", "sad"), _badge("OOF", (200, 80, 60))),
    Entry("wow", "WOW", ("wow", "amazing", "omg", "hexagon"), _badge("WOW", (150, 80, 200))),
    Entry("rip", "RIP", ("rip", "dead", "kill", "skull", "gone"), _badge("RIP", (90, 90, 90))),
    Entry("yes", "YES!", ("yes", "victory", "happy", "win"), _badge("YES!", (60, 160, 90))),
    Entry("no", "NO!", ("no", "frustration", "angry", "sad"), _badge("NO!", (200, 60, 60))),
    Entry("lol", "LOL", ("lol", "funny", "laugh", "haha"), _badge("LOL", (240, 160, 40))),
    Entry("boom", "BOOM", ("boom", "explosion", "tronix", "bang"), _badge("BOOM", (230, 90, 30))),
    Entry("level-up", "LEVEL UP", ("level", "up", "level up", "tetromic", "rows"), _badge("LEVEL UP", (60, 170, 170))),
    Entry("tronix", "TRONIX!", ("tronix", "circuit", "god mode", "explosion"), _badge("TRONIX!", (200, 50, 150))),
    Entry("clutch", "CLUTCH", ("clutch", "close", "saved", "phew"), _badge("CLUTCH", (80, 120, 200))),
    Entry("hmm", "HMM", ("hmm", "think", "thinking", "maybe"), _badge("HMM", (120, 120, 160))),
    Entry("brb", "BRB", ("brb", "later", "back", "waiting"), _badge("BRB", (110, 110, 110))),
)


@lru_cache(maxsize=len(ENTRIES))
def png(entry_id: str) -> bytes:
    """The pack's picture `entry_id`, as PNG bytes (transparent background)."""
    entry = next(e for e in ENTRIES if e.id == entry_id)
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    entry.draw(ImageDraw.Draw(image))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def search(query: str, limit: int = 9) -> list[Picture]:
    """Pictures whose tags or title match words of `query`, best first; the first `limit` of the
    whole pack for an empty query."""
    words = [w for w in query.lower().replace(",", " ").split() if w]
    scored = []
    for order, entry in enumerate(ENTRIES):
        haystack = " ".join((entry.id, entry.title.lower(), *entry.tags))
        score = sum(3 if word in entry.tags else 1 if word in haystack else 0 for word in words)
        if score or not words:
            scored.append((-score, order, entry))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [Picture("offline", entry.id, entry.title, attribution=ATTRIBUTION, data=png(entry.id))
            for _, _, entry in scored[:limit]]
