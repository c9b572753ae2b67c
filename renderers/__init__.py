"""Pictures of games: state -> PNG bytes (Pillow only, no I/O).

`render(game, viewer=None, feet=None)` draws any registered game's public board and
`render_hand(game, seat)` a player's private hand, `text_board(game)` the board as text for a
terminal; `RENDERERS` maps game names to the packages that draw them (each has `board`, `hand`,
`text` and `LEGEND`, `describe_parts`, the board in words, and `spoken_groups`, a player's moves
in words). `describe(game, viewer=None)` says the whole board in words and
`describe_within(game, limit=1024, viewer=None)` at most `limit` characters of it (see
`renderers.description`); `spoken_moves(game, seat)` says a player's legal moves grouped to be
read aloud and `typed_moves(line)` reads a group back (see `renderers.spoken`). Registering a
game is one import and one line below.
"""

from renderers import tetromic, triominoes, tromino_go, tronimoes, tronix
from renderers.common import RENDERERS, NoRenderer, board_parts, render, render_hand, text_board
from renderers.description import describe, describe_within
from renderers.spoken import spoken_moves, typed_moves

RENDERERS["tronimoes"] = tronimoes
RENDERERS["tetromic"] = tetromic
RENDERERS["tromino_go"] = tromino_go
RENDERERS["triominoes"] = triominoes
RENDERERS["tronix"] = tronix

__all__ = ["RENDERERS", "NoRenderer", "board_parts", "describe", "describe_within", "render", "render_hand",
           "spoken_moves", "text_board", "typed_moves"]
