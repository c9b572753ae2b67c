"""Tetromic pictures and text: `board` (every board, public), `hand` (one player's pieces), `text`."""

from renderers.tetromic.pictures import board, board_parts, hand
from renderers.tetromic.text_board import LEGEND, text

__all__ = ["LEGEND", "board", "board_parts", "hand", "text"]
