'''The Tetromic position format, for `tileref rules tetromic --positions` (rules §2.8, extended).'''

FORMAT = """\
Tetromic positions: one moment of a game as JSON (`to_position()` / `from_position()`), for
puzzles, tests and a replay's download at each move. Loading a position and writing it again gives
the same JSON. Everything that decides what happens next is in it except chance: after the
`queue`, a loaded game draws from its own seed.

```json
{
  "game": "tetromic",
  "options": {},
  "seats": [
    {"name": "ana", "level": 2, "points": 1, "hand": ["I", "T"], "drew": false, "out": false,
     "resigned": false,
     "board": ["......", "......", "......", "......", "......",
               "......", "......", "T.....", "TT..OO", "T...OO"]},
    {"name": "ben", "level": 1, "points": 0, "hand": [], "drew": false, "out": true, "resigned": true,
     "board": ["O.O.O.", ".O.O.O", "O.O.O.", ".O.O.O", "O.O.O.",
               ".O.O.O", "O.O.O.", ".O.O.O", "O.O.O.", ".O.O.O"]}
  ],
  "phase": 3,
  "done": [false, true],
  "queue": ["S", "O"],
  "winner": null,
  "result": null
}
```

- `options`: the table's options that differ from the defaults; the board size comes from the boards.
- `seats`: `name`, `level`, `points` (toward the next level); `hand`, the kinds held in the order
  drawn; `drew` (drawn this phase); `out`: no piece of any kind fits the board any more, so the seat
  is out of the race (the rules give no remedy for a stuck board) and keeps its level; `resigned`:
  out of the game, by leaving or by being out; `board`: rows of `.` (off) and the kind that covered
  each on cell, top row first.
- `phase`: from 1. `done`: per seat, whether it has drawn or skipped this phase (a seat that is out
  or has left is done). In round phases drawing makes a seat done; in calendar phases it does not.
- `queue`: the next kinds the draw gives, first first (secret).
- `winner`: the seat that reached the target level (it stops there with 0 points), or null.
- `result`: null while the game is played; at its end what the outcome says: `{"scores": [levels],
  "winners": [seats], "reason": "ana reached level 10", "teams": []}`. When every board is out
  before anyone reaches the target, the highest level (then points) among them wins.

A position that contradicts itself is refused with the reason: a seat out whose board still takes
a piece (or in while none fits), a seat past the target that is not the winner, a full row, every
seat done in a phase that did not end, a result the position does not give."""
