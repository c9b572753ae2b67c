"""Tromino Go pictures and text: `board`, `hand` (the player's side), `text` (the console's)."""

from renderers.tromino_go.pictures import board, hand
from renderers.tromino_go.spoken_moves import spoken_groups
from renderers.tromino_go.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "hand", "spoken_groups", "text"]
