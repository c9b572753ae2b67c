'''The Tronix position format, for `tileref rules tronix --positions` (rules §5, extended).'''

FORMAT = """\
Tronix positions: one moment of a game as JSON (`to_position()` / `from_position()`), for
puzzles, tests and a replay's download at each move. Loading a position and writing it again gives
the same JSON, and the loaded game plays on exactly as the game did.

```json
{
  "game": "tronix",
  "options": {},
  "seats": [
    {"name": "ana", "team": "green", "hand": ["cx", "cx"]},
    {"name": "ben", "team": "pink", "hand": ["cx"]}
  ],
  "turn": 0,
  "actions_left": 2,
  "phase": "placement",
  "table": [
    {"at": [0, 0], "kind": "cx", "pattern": "SE"},
    {"at": [1, 0], "kind": "cx", "pattern": "SW"}
  ],
  "locked": null,
  "piles": {"green": 4, "pink": 0},
  "discarded": 0,
  "quiet": 0,
  "seen": {},
  "result": null
}
```

- `options`: the table's options that differ from the defaults.
- `seats`, in seat order: `name`, `team` (green or pink), `hand` (card kinds: cx, cc, xx);
  `resigned: true` only for a seat that left (its cards are discarded).
- `turn`: the seat to act. `actions_left`: actions left in this turn (1, or 2 with two players).
- `phase`: "placement", "god" (every hand is empty) or "over".
- `table`: the cards in the order they reached their cells, each with its cell, kind and pattern.
  A card moved to another cell in God Mode goes to the end of this order; a card turned in place
  did not move to a cell, so it keeps its place.
- `locked`: the cell of the card moved last (it may not move next), or null.
- `piles`: cards won per team. `discarded`: singularities, shared TRONIX cards, cap leftovers and
  the cards of players who left.
- `quiet`: God Mode actions in a row that scored nothing (the `quiet_limit` option ends the game).
  `seen`: how often each God Mode position has come up (the `repetitions` option ends the game).
- `result`: null while the game is played; at its end what the outcome says: `{"scores": [cards
  per seat's team], "winners": [seats], "reason": "a TRONIX", "teams": [[green seats], [pink seats]]}`.

A position that contradicts itself is refused with the reason: a closed circuit left on the table
(it would have been won), God Mode with cards in hand or placement with none, a cap already
reached, a finished game with cards on the table, a whole team gone from a game still played, a
result the position does not give."""
