"""Tronimoes pictures and text: `board` (public), `hand` (one player's), `text` (the console's)."""

from renderers.tronimoes.pictures import board, hand
from renderers.tronimoes.spoken_moves import spoken_groups
from renderers.tronimoes.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "hand", "spoken_groups", "text"]
