"""Tronix options: the choices of rules §3.7, with ours as the defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import N_, GameOptions


@dataclass(frozen=True)
class TronixOptions(GameOptions):
    deck: str = field(default="cx", metadata={
        "choices": ("cx", "mixed"),
        "help": N_("CX cards only, or two thirds CX with a sixth CC (curves both sides) and a sixth XX (crosses "
                "both sides)")})
    deck_size: int = field(default=48, metadata={"min": 4, "max": 96, "help": N_("how many cards are dealt out")})
    lock_at_god_start: bool = field(default=False, metadata={
        "help": N_("God Mode begins with the last card placed locked")})
    new_islands: bool = field(default=False, metadata={
        "help": N_("a God Mode move may cut the table into more islands")})
    quiet_limit: int = field(default=40, metadata={
        "min": 0, "max": 1000,
        "help": N_("God Mode ends after this many actions in a row with no card scored (0: never)")})
    repetitions: int = field(default=3, metadata={
        "min": 0, "max": 20, "help": N_("God Mode ends when a position comes up this many times (0: never)")})
