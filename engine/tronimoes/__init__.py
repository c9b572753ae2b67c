"""Tronimoes: dominoes on a square grid, one line per player (shared/rules/tronimoes.md)."""

from engine.ai import LEAF_VALUES, ROLLOUT_POLICIES, TIE_BREAKS
from engine.tronimoes import ai
from engine.tronimoes.game import Tronimoes, TronimoesOptions

TIE_BREAKS[Tronimoes.name] = ai.tie_break
ROLLOUT_POLICIES[Tronimoes.name] = ai.rollout_policy
LEAF_VALUES[Tronimoes.name] = ai.leaf_value

__all__ = ["Tronimoes", "TronimoesOptions"]
