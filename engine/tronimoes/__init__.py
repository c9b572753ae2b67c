"""Tronimoes: dominoes on a square grid, one line per player (shared/rules/tronimoes.md)."""

from engine.tronimoes.game import Tronimoes, TronimoesOptions

__all__ = ["Tronimoes", "TronimoesOptions"]
