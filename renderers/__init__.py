"""Pictures of games: state -> PNG bytes (Pillow only, no I/O).

`render(game, viewer=None, feet=None)` draws any registered game's public board and
`render_hand(game, seat)` a player's private hand; `RENDERERS` maps game names to the modules
that draw them (each has `board` and `hand`).
"""

from renderers import tronimoes
from renderers.common import RENDERERS, NoRenderer, render, render_hand

RENDERERS["tronimoes"] = tronimoes

__all__ = ["RENDERERS", "NoRenderer", "render", "render_hand"]
