"""Tetromic pictures and text: `board` (every board, public), `hand` (one player's pieces), `text`."""

from renderers.tetromic.description import describe_parts
from renderers.tetromic.pictures import board, board_parts, hand
from renderers.tetromic.spoken_moves import spoken_groups
from renderers.tetromic.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "board_parts", "describe_parts", "hand", "spoken_groups", "text"]
