"""Tronix's phases and the ways a game ends (rules §3.5), shared by the game and its positions."""

from __future__ import annotations

from engine.core import N_

PLACEMENT, GOD, OVER = "placement", "god", "over"

ENDINGS = {
    "tronix": N_("a TRONIX"),
    "empty": N_("no cards are left"),
    "singularity": N_("a singularity"),
    "stalemate": N_("a stalemate"),
    "team": N_("a whole team left"),
}
"""Why a game ended (an outcome's reason), by key."""
