"""Triominoes: Pressman Tri-Ominos (shared/rules/triominoes.md)."""

from engine.ai import TIE_BREAKS
from engine.triominoes import ai
from engine.triominoes.game import Triominoes
from engine.triominoes.options import TriominoesOptions

TIE_BREAKS[Triominoes.name] = ai.tie_break

__all__ = ["Triominoes", "TriominoesOptions"]
