"""A seat and a card on the Tronix table."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Seat:
    name: str
    team: str
    hand: list[str] = field(default_factory=list)
    """The kinds of the cards held (`cx`, `cc`, `xx`)."""
    resigned: bool = False

    def copy(self) -> Seat:
        return Seat(self.name, self.team, list(self.hand), self.resigned)


@dataclass(frozen=True)
class Card:
    kind: str
    pattern: str
