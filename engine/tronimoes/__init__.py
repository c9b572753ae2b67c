"""Tronimoes: dominoes on a square grid, one line per player (shared/rules/tronimoes.md)."""

from engine.ai import HEURISTICS
from engine.tronimoes import ai
from engine.tronimoes.game import Tronimoes, TronimoesOptions

HEURISTICS[Tronimoes.name] = ai.TronimoesHeuristics()

__all__ = ["Tronimoes", "TronimoesOptions"]
