"""Tromino Go: surround the other player's L-trominoes (shared/rules/tromino_go.md)."""

from engine.ai import ROLLOUT_POLICIES, TIE_BREAKS
from engine.tromino_go import ai
from engine.tromino_go.game import TrominoGo, TrominoGoOptions

TIE_BREAKS[TrominoGo.name] = ai.tie_break
ROLLOUT_POLICIES[TrominoGo.name] = ai.rollout_policy

__all__ = ["TrominoGo", "TrominoGoOptions"]
