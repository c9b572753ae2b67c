"""The Triominoes board in words states what a player needs: every numbered open spot (numbered
as on the picture) and the numbers its corners need, and the hexagons one tile from closing;
it never says a hand (but the viewer's own) or the well."""

from __future__ import annotations

from typing import Any

from engine.triominoes import Triominoes
from renderers import describe
from renderers.triominoes.pictures import shown

BOARD = [{"at": "r0c0", "corners": [5, 5, 5]}, {"at": "r0c-1", "corners": [0, 5, 5]},
         {"at": "r-1c-1", "corners": [1, 5, 0]}, {"at": "r-1c0", "corners": [1, 4, 5]},
         {"at": "r-2c0", "corners": [2, 4, 1]}, {"at": "r-2c-1", "corners": [2, 2, 1]},
         {"at": "r-3c-1", "corners": [5, 2, 2]}, {"at": "r-2c-2", "corners": [2, 1, 1]}]
"""Eight tiles round the point where r-1c-1, r-2c-1, r-2c-2 and their neighbours meet on a 1: only
r-1c-2 is missing from its hexagon."""


def position(**changes: Any) -> dict[str, Any]:
    return {"game": "triominoes", "turn": 0, "round": 1, "passes": 0, "board": BOARD, "pool": ["4-4-4", "0-2-2"],
            "seats": [{"name": "ana", "score": 4, "hand": ["0-1-1", "3-3-5"], "drawn": 0},
                      {"name": "ben", "score": 37, "hand": ["0-0-1", "0-3-3"], "drawn": 0}], **changes}


def test_an_open_spot_says_the_numbers_its_corners_need():
    g = Triominoes.from_position(position())
    said = describe(g)
    spots = shown(g.view(None))[1]
    assert spots.index("r-1c-2") == 3  # the picture numbers it 4
    assert "spot 4 r-1c-2 down, needs 1-1-0" in said
    assert "spot 5 r-1c1 up, needs 4-?-5" in said  # one corner touches no tile: any number
    assert f"spot {len(spots)} " in said and f"spot {len(spots) + 1} " not in said


def test_a_hexagon_one_tile_from_closing_names_the_spot_that_closes_it():
    said = describe(Triominoes.from_position(position()))
    assert "Hexagons one tile from closing: around a 1: a tile at spot 4 closes it." in said


def test_the_last_tile_says_what_it_scored_and_the_hexagon_it_closed():
    g = Triominoes.from_position(position())
    g.apply(0, "0-1-1 at 4")
    said = describe(g)
    assert "Last move: ana (seat 1) played 1-1-0 r-1c-2." in said
    points = g.view(None)["last"]["points"]
    assert f"the last tile, 0-1-1, lies at r-1c-2 and scored {points}, closing a hexagon" in said
    assert "Hexagons one tile from closing" not in said


def test_no_hand_and_no_well_is_said_but_the_viewers_own_hand():
    g = Triominoes.from_position(position())
    public = describe(g)
    for hidden in ("0-1-1", "3-3-5", "0-0-1", "0-3-3", "4-4-4", "0-2-2", "Your hand"):
        assert hidden not in public
    ana = describe(g, 0)
    assert "Your hand: 0-1-1; 3-3-5." in ana and "0-0-1" not in ana and "4-4-4" not in ana
    assert "Tiles in hand: ana 2; ben 2; the well 2." in public
