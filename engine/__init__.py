"""Pure game rules: no I/O, no asyncio, no Pillow, no Discord.

`GAMES` maps each game's name to its class; every class implements `engine.core.Game`.
"""

from engine.core import (
    GAMES,
    AmbiguousMove,
    Event,
    Game,
    GameError,
    IllegalMove,
    NotationError,
    NotYourTurn,
    OptionError,
    Outcome,
    PositionError,
    Term,
)
from engine.tetromic import Tetromic
from engine.triominoes import Triominoes
from engine.tromino_go import TrominoGo
from engine.tronimoes import Tronimoes
from engine.tronix import Tronix

__all__ = [
    "GAMES",
    "AmbiguousMove",
    "Event",
    "Game",
    "GameError",
    "IllegalMove",
    "NotYourTurn",
    "NotationError",
    "OptionError",
    "Outcome",
    "PositionError",
    "Term",
    "Tetromic",
    "Triominoes",
    "TrominoGo",
    "Tronimoes",
    "Tronix",
]
