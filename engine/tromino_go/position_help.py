'''The Tromino Go position format, for `tileref rules tromino_go --positions` (rules §1.12, extended).'''

FORMAT = """\
Tromino Go positions: one moment of a game as JSON (`to_position()` / `from_position()`), for
puzzles, rulings, tests and a replay's download at each move. Loading a position and writing it
again gives the same JSON, and the loaded game plays on exactly as the game did.

```json
{
  "game": "tromino_go",
  "options": {"max_moving_turns": 60},
  "seats": [{"name": "ana", "score": 2}, {"name": "ben", "score": 0}],
  "first": 1,
  "round": 2,
  "t": 2,
  "placed": 2,
  "phase": "placing",
  "moving_turns": 0,
  "pieces": [
    {"id": 1, "owner": 0, "letter": "A", "cells": [[0, 0], [1, 0], [0, 1]]},
    {"id": 2, "owner": 1, "letter": "b", "cells": [[2, 0], [2, 1], [1, 1]]}
  ],
  "passes": 0,
  "concessions": [{"seat": 1, "points": 1}],
  "result": null
}
```

- `options`: the table's options that differ from the defaults (`group_mode`, `opening_rule_i`,
  `max_moving_turns`).
- `seats`: both players' `name` and `score` (TGpoints; 7 wins).
- `first`: the seat playing capitals this round (the round's first player). `round`: from 1.
- `t`: the turn index, counting every play, move and pass of the round: the next is letter
  `"ABC"[t % 3]`, by seat `first` when `t` is even, else by the other seat.
- `placed`: trominoes on the grid (30 or fewer). `phase`: "placing", or "moving" once 30 are down
  (a puzzle may set up the moving phase with fewer trominoes; a placing phase with 30 is refused).
- `moving_turns`: moves made in this round's moving phase (0 while placing); the round is a tie
  when it reaches the `max_moving_turns` option.
- `pieces`, in the order played: `id` (play number, from 1), `owner` the role, not the seat: 0 for
  the round's first player (capitals), 1 for the other (lower case); `letter`; `cells` as [x, y].
  Above, ben (seat 1) is first this round and plays the capital A.
- `passes`: passes in a row (6 tie the round). `concessions`: open offers of this round.
- `result`: null while the game is played; at its end what the outcome says: `{"scores": [7, 3],
  "winners": [0], "reason": "ana reached 7 TGpoints", "teams": []}`. A winner below 7 TGpoints won
  because the other player forfeited or left.

A position that contradicts itself is refused with the reason: a letter whose case disagrees with
its owner, overlapping or misshapen trominoes, a surrounded group in a round still played, 6
passes or the move cap reached, a player at 7 TGpoints with no result, a result the position does
not give."""
