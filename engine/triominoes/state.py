"""One seat's part of a Triominoes game."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.triominoes.tiles import Tile


@dataclass
class Seat:
    name: str
    score: int = 0
    hand: list[Tile] = field(default_factory=list)
    drawn: int = 0
    """Tiles drawn this turn (the draw limit counts them)."""
    resigned: bool = False

    def copy(self) -> Seat:
        return Seat(self.name, self.score, list(self.hand), self.drawn, self.resigned)
