"""Tetromic: a packing race on boards of your own (shared/rules/tetromic.md)."""

from engine.ai import HEURISTICS
from engine.tetromic import ai
from engine.tetromic.game import Tetromic, TetromicOptions

HEURISTICS[Tetromic.name] = ai.TetromicHeuristics()

__all__ = ["Tetromic", "TetromicOptions"]
