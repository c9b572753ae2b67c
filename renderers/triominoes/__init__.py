"""Triominoes pictures and text: `board` (public), `hand` (one player's), `text` (the console's)."""

from renderers.triominoes.pictures import board, hand
from renderers.triominoes.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "hand", "text"]
