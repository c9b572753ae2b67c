'''The Triominoes position format, for `tileref rules triominoes --positions` (rules §5, extended).'''

FORMAT = """\
Triominoes positions: one moment of a game as JSON (`to_position()` / `from_position()`), for
puzzles, tests and a replay's download at each move. Loading a position and writing it again gives
the same JSON. Everything that decides what happens next is in it except chance: the well's order
is in it, but the deals of later rounds come from the loading game's seed.

```json
{
  "game": "triominoes",
  "options": {"target": 200},
  "seats": [
    {"name": "ana", "score": 40, "hand": ["0-1-2", "2-4-5"], "drawn": 0},
    {"name": "ben", "score": 12, "hand": ["1-1-3"], "drawn": 2}
  ],
  "turn": 1,
  "pool": ["3-3-3", "1-2-5"],
  "board": [
    {"at": "r0c0", "corners": [0, 0, 0], "seat": 0},
    {"at": "r0c1", "corners": [0, 4, 0], "seat": 1}
  ],
  "round": 1,
  "passes": 0,
  "round_winners": [],
  "result": null
}
```

- `options`: the table's options that differ from the defaults.
- `seats`: `name`, `score`; `hand`, tiles written as named (`0-1-2`, ascending clockwise);
  `drawn`: tiles drawn this turn (the draw limit counts them); `resigned: true` only for a seat that
  left (its hand is empty).
- `turn`: the seat to play (on an empty board, the one who opens the round: with the Pressman
  opening, the holder of the highest triple or, with none out, of the highest tile).
- `pool`: the well in draw order, first drawn first (secret).
- `board`: tiles in the order laid, each with its cell (`r0c1`), its corner values in the
  clockwise order of the cell's corners and, where known, the `seat` that laid it (the picture
  colours each tile as its player's; a tile without one is drawn as nobody's).
- `round`: from 1. `passes`: passes in a row with the well empty (everyone passing blocks the round).
- `round_winners`: the seats that won the last finished round (the `winner` opening rule and the
  `first_to_target` tie-break use them).
- `result`: null while the game is played; at its end what the outcome says: `{"scores": [...],
  "winners": [seats], "reason": "someone reached 400 points", "teams": []}`.

A position that contradicts itself is refused with the reason: a tile in two places (a hand, the
well, the board), a tile that does not fit where it lies, a player still in the round with no
tile (they went out), a blocked round still played, the wrong opener, a finished game nobody
finished (no one at the target, rounds left), a result the position does not give."""
