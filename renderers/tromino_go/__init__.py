"""Tromino Go pictures and text: `board`, `hand` (the player's side), `text` (the console's),
`describe_parts` (the board in words)."""

from renderers.tromino_go.description import describe_parts
from renderers.tromino_go.pictures import board, hand
from renderers.tromino_go.spoken_moves import spoken_groups
from renderers.tromino_go.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "describe_parts", "hand", "spoken_groups", "text"]
