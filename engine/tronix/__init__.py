"""Tronix: two teams close circuits of green and pink lines (shared/rules/tronix.md)."""

from engine.ai import HEURISTICS
from engine.tronix import ai
from engine.tronix.game import Tronix
from engine.tronix.options import TronixOptions

HEURISTICS[Tronix.name] = ai.TronixHeuristics()

__all__ = ["Tronix", "TronixOptions"]
