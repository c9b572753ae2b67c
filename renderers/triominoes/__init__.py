"""Triominoes pictures and text: `board` (public), `hand` (one player's), `text` (the console's),
`describe_parts` (the board in words)."""

from renderers.triominoes.description import describe_parts
from renderers.triominoes.pictures import board, hand
from renderers.triominoes.spoken_moves import spoken_groups
from renderers.triominoes.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "describe_parts", "hand", "spoken_groups", "text"]
