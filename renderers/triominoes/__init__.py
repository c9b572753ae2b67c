"""Triominoes pictures and text: `board` (public), `hand` (one player's), `text` (the console's)."""

from renderers.triominoes.pictures import board, hand
from renderers.triominoes.spoken_moves import spoken_groups
from renderers.triominoes.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "hand", "spoken_groups", "text"]
