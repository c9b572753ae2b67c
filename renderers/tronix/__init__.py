"""Tronix pictures and text: `board` (public), `hand` (one player's), `text` (the console's)."""

from renderers.tronix.pictures import board, hand
from renderers.tronix.spoken_moves import spoken_groups
from renderers.tronix.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "hand", "spoken_groups", "text"]
