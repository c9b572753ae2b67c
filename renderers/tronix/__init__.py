"""Tronix pictures and text: `board` (public), `hand` (one player's), `text` (the console's),
`describe_parts` (the board in words)."""

from renderers.tronix.description import describe_parts
from renderers.tronix.pictures import board, hand
from renderers.tronix.spoken_moves import spoken_groups
from renderers.tronix.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "describe_parts", "hand", "spoken_groups", "text"]
