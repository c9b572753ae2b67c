"""Who plays for which team (rules §3.5): seats in pairs, green, green, pink, pink…; when each
team has an odd number of players the last two seats are green, pink (two players: green, pink)."""

from __future__ import annotations

from engine.tronix.cards import GREEN, PINK


def seating(players: int) -> list[str]:
    """The team of each seat."""
    per_team = players // 2
    pattern = [GREEN, GREEN, PINK, PINK] * (players // 4)
    if per_team % 2:
        pattern += [GREEN, PINK]
    return pattern
