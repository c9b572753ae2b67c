"""Tetromic: a packing race on boards of your own (shared/rules/tetromic.md)."""

from engine.ai import LEAF_VALUES, ROLLOUT_POLICIES, TIE_BREAKS
from engine.tetromic import ai
from engine.tetromic.game import Tetromic, TetromicOptions

TIE_BREAKS[Tetromic.name] = ai.tie_break
ROLLOUT_POLICIES[Tetromic.name] = ai.rollout_policy
LEAF_VALUES[Tetromic.name] = ai.leaf_value

__all__ = ["Tetromic", "TetromicOptions"]
