"""Pictures of games: state -> PNG bytes (Pillow only, no I/O).

`render(game, viewer=None, feet=None)` draws any registered game's public board and
`render_hand(game, seat)` a player's private hand, `text_board(game)` the board as text for a
terminal; `RENDERERS` maps game names to the packages that draw them (each has `board`, `hand`,
`text` and `LEGEND`). Registering a game is one import and one line below.
"""

from renderers import tetromic, triominoes, tromino_go, tronimoes, tronix
from renderers.common import RENDERERS, NoRenderer, board_parts, render, render_hand, text_board

RENDERERS["tronimoes"] = tronimoes
RENDERERS["tetromic"] = tetromic
RENDERERS["tromino_go"] = tromino_go
RENDERERS["triominoes"] = triominoes
RENDERERS["tronix"] = tronix

__all__ = ["RENDERERS", "NoRenderer", "board_parts", "render", "render_hand", "text_board"]
