"""Tronix: two teams close circuits of green and pink lines (shared/rules/tronix.md)."""

from engine.ai import GAINS, RANKERS, TIE_BREAKS
from engine.tronix import ai
from engine.tronix.game import Tronix
from engine.tronix.options import TronixOptions

TIE_BREAKS[Tronix.name] = ai.tie_break
GAINS[Tronix.name] = ai.gain
RANKERS[Tronix.name] = ai.ranked

__all__ = ["Tronix", "TronixOptions"]
