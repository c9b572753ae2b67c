"""Triominoes options: the defaults are rules §4 (Pressman); every ambiguity §2 lists is one."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import N_, GameOptions


@dataclass(frozen=True)
class TriominoesOptions(GameOptions):
    target: int = field(default=400, metadata={
        "min": 50, "max": 5000, "help": N_("the game ends after the round in which someone reaches this score")})
    rounds: int = field(default=0, metadata={
        "min": 0, "max": 100, "help": N_("end after this many rounds instead (0: play to the target)")})
    winner: str = field(default="highest", metadata={
        "choices": ("highest", "first_to_target"),
        "help": N_("the highest total wins, or the first past the target (the round's winner if several)")})
    hexagons: str = field(default="pressman", metadata={
        "choices": ("pressman", "goliath"),
        "help": N_("50 per hexagon, or 50/60/70 for one, two or three at once")})
    bridge_extensions: bool = field(default=False, metadata={
        "help": N_("a tile that adds to a bridge (two sides and a point beyond) also scores 40")})
    hexagon_and_bridge: bool = field(default=False, metadata={
        "help": N_("a tile closing a hexagon and forming a bridge scores both (off: the hexagon only)")})
    max_draws: int = field(default=3, metadata={
        "min": 0, "max": 56, "help": N_("tiles you may draw in a turn (0: until one fits or the well is empty)")})
    allow_voluntary_draw: bool = field(default=False, metadata={
        "help": N_("you may draw even when a tile fits; the referee then never draws for you")})
    must_play_drawn: bool = field(default=True, metadata={
        "help": N_("a drawn tile that fits must be played at once")})
    draw_penalty: int = field(default=5, metadata={"min": 0, "max": 100, "help": N_("points lost per tile drawn")})
    pass_penalty: int = field(default=10, metadata={
        "min": 0, "max": 100, "help": N_("points lost when you pass after drawing all you may")})
    empty_well_penalty: int = field(default=10, metadata={
        "min": 0, "max": 100, "help": N_("points lost when you pass because the well is empty")})
    blocked_payout: str = field(default="others_minus_own", metadata={
        "choices": ("others_minus_own", "differences"),
        "help": N_("a blocked round pays its winner the others' hands minus their own, or the sum of the differences")})
    blocked_winner: str = field(default="lowest_total", metadata={
        "choices": ("lowest_total", "fewest_tiles"),
        "help": N_("who wins a blocked round: the lowest hand total or the fewest tiles")})
    blocked_when: str = field(default="passes", metadata={
        "choices": ("passes", "exact"),
        "help": N_("a round is blocked after everyone passes in a row, or as soon as no tile anywhere fits")})
    opening: str = field(default="pressman", metadata={
        "choices": ("pressman", "winner", "random"),
        "help": N_("who opens each round: the highest triple; the last round's winner; a seat drawn by lot "
                "(the last two open with any tile, for its face value)")})
