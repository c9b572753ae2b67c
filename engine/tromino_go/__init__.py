"""Tromino Go: surround the other player's L-trominoes (shared/rules/tromino_go.md)."""

from engine.ai import HEURISTICS
from engine.tromino_go import ai
from engine.tromino_go.game import TrominoGo, TrominoGoOptions

HEURISTICS[TrominoGo.name] = ai.TrominoGoHeuristics()

__all__ = ["TrominoGo", "TrominoGoOptions"]
