'''The Tronimoes position format, for `tileref rules tronimoes --positions` (rules §12, extended).'''

FORMAT = """\
Tronimoes positions: one moment of a game as JSON (`to_position()` / `from_position()`), for
puzzles, bug reports, tests and a replay's download at each move. Loading a position and writing it
again gives the same JSON. A position carries everything that decides what happens next, except
chance: the bag's order is in it, but the deals of later rounds come from the loading game's seed.

```json
{
  "game": "tronimoes",
  "options": {},
  "width": 8, "height": 9, "max_pips": 7,
  "seats": [
    {"name": "red", "score": 1, "round_score": 1, "hand": ["0:7", "4:7"], "dead": false, "footed": false,
     "foot": null, "drew": false},
    {"name": "blue", "score": 0, "round_score": 0, "hand": ["5:5"], "dead": false, "footed": true,
     "foot": "d4", "drew": true}
  ],
  "turn": 0,
  "bag": ["1:2", "3:6"],
  "leaders": [7],
  "highest_leader": 7,
  "board": [
    {"tile": "7:7", "at": ["d5", "e5"], "line": "leader"},
    {"tile": "7:2", "at": ["f5", "f6"], "line": 0, "by": 0},
    {"tile": "6:6", "at": ["b2", "c2"], "line": "free1", "by": 1},
    {"tile": "6:1", "at": ["c3", "c4"], "line": "free1", "by": 0, "dead": true}
  ],
  "spacer": null,
  "passes": 0,
  "round_end": null,
  "result": null
}
```

- `options`: the table's options that differ from the defaults (`{"ouroboros": false}`).
- `width`, `height`, `max_pips`: the grid and the highest pip of the set.
- `seats`, in turn order: `name`; `score` (the game's total); `round_score` (what this round has
  added to it, for the round's summary); `hand`, tiles written low pip first; `dead` (the line is
  dead); `footed` (chicken-footed); `foot`, the foot square of a footed player whose line is still
  only the leader, else null; `drew` (has drawn this turn); `resigned: true` only for a seat that
  left the game (its hand is empty and its line dead).
- `turn`: the seat to move. `bag`: the draw order, first drawn first (secret).
- `leaders`: the round leaders' pips so far, this round's last (the 0:0 round is the last round).
  `highest_leader`: the highest leader laid this round, free lines included.
- `board`: every tile in the order laid. `at`: its squares in the order of the pips in `tile`; on a
  line the first square matched the previous head. `line`: "leader", a seat, or "freeN" (free
  lines numbered from 1 as started). `by`: who laid it (absent for the leader). `dead: true` marks
  tiles of a dead line.
- `spacer`: null, or the spacer's two end squares, the first next to the line head it starts from.
- `passes`: passes in a row with the bag empty (everyone passing ends the round).
- `round_end`: null while a round is played. Once it has ended (between rounds, while players type
  `ready`, and at the game's end): `{"winner": seat or null, "how": "red went out", "ready": [true or
  false per seat]}`. A round's end kills every line but the winner's.
- `result`: null while the game is played; at its end what the outcome says: `{"scores": [...],
  "winners": [seats], "reason": "the 0:0 round is over", "teams": []}`.

A position that contradicts itself is refused with the reason: a tile twice (in a hand and on the
board), a round the rules would have ended (a living player with no tile, fewer than two living
lines, everyone passed), a round end with a living loser, a result the position does not give
(other winners or scores, a game that is not over, a finished game with a null result)."""
