"""Nothing on a picture is cut off or drawn over: every game's board and hand pictures, drawn
through whole seeded games with long, wide, CJK and emoji names and a deadline long enough to
need two lines, keep every text box inside the image and apart from every other text box."""

from __future__ import annotations

import inspect
import itertools
import random
import sys
from collections.abc import Iterator

import pytest

from engine import GAMES
from engine.core import Game
from renderers import RENDERERS, render, render_hand
from renderers.text import recording
from tests.renderers.golden import FAILURES, decode

NAMES = {
    "long": ["Maximiliana Wolfeschlegelsteinhausen-Bergerdorff", "Bartholomew Featherstonehaugh-Cholmondeley",
             "Anastasiya Konstantinovna Rimsky-Korsakova", "Guadalupe de la Santísima Trinidad Ortega",
             "Christopher Alexander Montgomery III", "Wilhelmina Josephine Vanderbilt-Ashcombe"],
    "wide": ["WWWWWWWWWWWWWWWWWWWWWWWWWWWW", "MMMMMMMMMMMMMMMMMMMMMMMMMMMM", "ШШШШШЩЩЩЩЩЖЖЖЖЖШШШШШЩЩЩЩЩЖЖЖ",
             "ΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩ", "@@@@@@@@@@@@@@@@@@@@@@@@@", "%%%%%%%%%%%%%%%%%%%%%%%%%%%"],
    "cjk": ["大卫大卫大卫大卫大卫大卫大卫大卫", "🐉🐉🐉 龍の王様 🐉🐉🐉🐉🐉", "김민준김민준김민준김민준김민준",
            "たろうたろうたろうたろうたろう", "李雷 🐔 Ωμέγα Ёлка Zoë 李雷", "王小明王小明王小明王小明王小明"],
}
LONG_DEADLINE = "miércoles, 25 de noviembre de 2026, 14:05 (tiempo universal coordinado, hora de Greenwich)"
"""A deadline as long as a spelled-out date in another language can be: it takes two lines."""
SEATS = {"tronimoes": (6, 2), "tromino_go": (2,), "triominoes": (6, 2), "tronix": (8, 2), "tetromic": (8, 3)}
SHOTS = 7
"""Pictures drawn per game: spread over its moves, plus every round's end and the finish."""
STEP_LIMIT = 20_000


@pytest.fixture(autouse=True)
def long_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("renderers.") and hasattr(module, "deadline_text"):
            monkeypatch.setattr(module, "deadline_text", lambda _when: LONG_DEADLINE)


def moments(cls: type[Game], players: int, names: list[str], seed: int) -> Iterator[Game]:
    """A seeded random game: its start, a few moments spread through it, the moment after each
    round ends, and its end."""
    game = cls.new(players, seed=seed, names=list(itertools.islice(itertools.cycle(names), players)))
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while game.outcome() is None:
        seat = rng.choice(game.to_move())
        action = rng.choice(game.legal_actions(seat))
        log.append((seat, action))
        game.apply(seat, action)
        assert len(log) < STEP_LIMIT
    wanted = {len(log) * k // SHOTS for k in range(SHOTS)}
    replay = cls.new(players, seed=seed, names=list(itertools.islice(itertools.cycle(names), players)))
    between = False
    for step, (seat, action) in enumerate(log):
        now_between = replay.between_rounds()
        if step in wanted or (now_between and not between):
            yield replay
        between = now_between
        replay.apply(seat, action)
    yield replay


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def shortened_names_only(texts: list[str], names: list[str]) -> list[str]:
    """The texts cut with an ellipsis somewhere other than in a name (only names may be): the
    letters just before each ellipsis must be a name's (the start of a line may hold the end of
    a shortened name wrapped from the line before)."""
    wrong = []
    for text in texts:
        for cut, char in enumerate(text):
            before = text[max(0, cut - 4):cut]
            if char == "…" and not (before and any(before in name[:-1] for name in names)):
                wrong.append(text)
                break
    return wrong


def check(png: bytes, what: str, record_boxes: list[tuple[str, tuple[int, int, int, int]]],
          names: list[str], deadline: bool = False) -> None:
    image = decode(png)
    problems = [f"{text!r} is cut short" for text in shortened_names_only([t for t, _ in record_boxes], names)]
    words = " ".join(text for text, _ in record_boxes).split()
    if deadline and not all(word in words for word in LONG_DEADLINE.split()):
        problems.append("the deadline is not shown in full")
    for text, (left, top, right, bottom) in record_boxes:
        if left < 0 or top < 0 or right > image.width or bottom > image.height:
            problems.append(f"{text!r} at {(left, top, right, bottom)} crosses the edge of {image.size}")
    for (text_a, a), (text_b, b) in itertools.combinations(record_boxes, 2):
        if overlaps(a, b):
            problems.append(f"{text_a!r} {a} overlaps {text_b!r} {b}")
    if problems:
        FAILURES.mkdir(parents=True, exist_ok=True)
        (FAILURES / f"{what}.png").write_bytes(png)
    assert not problems, f"{what} (saved in {FAILURES}):\n" + "\n".join(problems[:12])


def drawn(draw) -> tuple[bytes, list[tuple[str, tuple[int, int, int, int]]]]:
    with recording() as record:
        png = draw()
    assert record.page is not None
    return png, record.on(record.page)


CASES = [(game, players, names) for game, counts in SEATS.items() for players in counts for names in NAMES]


@pytest.mark.system_fonts
@pytest.mark.parametrize(("game", "players", "names"), CASES, ids=[f"{g}-{p}-{n}" for g, p, n in CASES])
def test_no_text_crosses_the_edge_or_another_text(game, players, names):
    cls = GAMES[game]
    for shot, moment in enumerate(moments(cls, players, NAMES[names], seed=players * 7 + len(names))):
        what = f"{game}-{players}-{names}-{shot}"
        png, boxes = drawn(lambda m=moment: render(m, 0, deadline=1_800_000_000.0))
        shows_deadline = "deadline" in inspect.signature(RENDERERS[game].board).parameters
        check(png, what, boxes, NAMES[names],
              deadline=shows_deadline and moment.outcome() is None and not moment.between_rounds())
        for seat in range(players):
            png, boxes = drawn(lambda m=moment, s=seat: render_hand(m, s))
            check(png, f"{what}-hand{seat}", boxes, NAMES[names])


def words_on(draw) -> str:
    return " ".join(text for text, _ in drawn(draw)[1])


def test_the_tetromic_empty_hand_text_is_shown_whole():
    game = GAMES["tetromic"].new(2, seed=1)
    assert "You hold no pieces: `draw` once a phase" in words_on(lambda: render_hand(game, 0))


def test_a_long_name_in_the_triominoes_legend_keeps_its_score_and_tile_count():
    game = GAMES["triominoes"].new(2, seed=1, names=[NAMES["long"][0], "Bo"])
    seat = game.view(None)["seats"][0]
    words = words_on(lambda: render(game))
    assert f"…: {seat['score']} · {seat['hand_size']} tiles" in words and "Bo: 0" in words


@pytest.mark.system_fonts
def test_the_tromino_go_moving_header_and_round_banner_are_shown_whole():
    game = GAMES["tromino_go"].new(2, seed=4, names=["Pip (bot)", NAMES["cjk"][1]])
    rng = random.Random(4)
    seen = set()
    while game.outcome() is None and len(seen) < 2:
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        view = game.view(None)
        if view["phase"] == "moving":
            assert "dots: movable" in words_on(lambda: render(game, deadline=1_800_000_000.0))
            seen.add("moving")
        if not view["pieces"] and view.get("previous"):
            result = view["previous"]["result"].split()
            assert " ".join(result) in " ".join(words_on(lambda: render(game)).split())
            seen.add("banner")
    assert "banner" in seen
