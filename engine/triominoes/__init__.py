"""Triominoes: Pressman Tri-Ominos (shared/rules/triominoes.md)."""

from engine.ai import HEURISTICS
from engine.triominoes import ai
from engine.triominoes.game import Triominoes
from engine.triominoes.options import TriominoesOptions

HEURISTICS[Triominoes.name] = ai.TriominoesHeuristics()

__all__ = ["Triominoes", "TriominoesOptions"]
