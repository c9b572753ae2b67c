"""The start and the end of a round, as pure functions of the hands (rules §2.1, §2.5, §2.6):
hand sizes, who opens with which tile and for how much, and what a blocked round pays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core import N_, Term
from engine.triominoes.tiles import Tile, is_triple, value

PLAYING = "playing"
OVER = "over"
"""A game's phases: a round is being played, or the game is over (rounds follow one another at once)."""

ZERO_TRIPLE: Tile = (0, 0, 0)
TRIPLE_BONUS = 10
ZERO_TRIPLE_BONUS = 30
GOING_OUT_BONUS = 25


def hand_size(players: int) -> int:
    """9 tiles each for two players, 7 for three or four, 6 for five or six."""
    return 9 if players <= 2 else 7 if players <= 4 else 6


@dataclass(frozen=True)
class Opening:
    """Who lays the round's first tile, which tiles they may choose from, and why."""

    seat: int
    tiles: tuple[Tile, ...]
    reason: Term
    shown: Tile | None = None
    """The higher triple a player opening with 0-0-0 must show."""


def opening_points(tile: Tile, *, with_bonus: bool) -> int:
    """A triple opens for its sum + 10 (0-0-0 for 40); any other opening tile for its sum."""
    if not with_bonus or not is_triple(tile):
        return value(tile)
    return value(tile) + TRIPLE_BONUS + (ZERO_TRIPLE_BONUS if tile == ZERO_TRIPLE else 0)


def find_opening(hands: Mapping[int, Sequence[Tile]], order: Sequence[int]) -> Opening:
    """The Pressman opening: the holder of the highest triple lays it (or 0-0-0, if they hold
    that too); with no triple out, the holder of the highest-sum tile lays it, ties broken by
    each tied player's next-highest tile and so on, and a full tie by `order` (the seats from
    the one after the dealer)."""
    triples = [(tile, seat) for seat in order for tile in hands[seat] if is_triple(tile)]
    if triples:
        best, seat = max(triples, key=lambda pair: pair[0])
        held = set(hands[seat])
        if best != ZERO_TRIPLE and ZERO_TRIPLE in held:
            return Opening(seat, (best, ZERO_TRIPLE), Term(N_("holds the highest triple and 0-0-0")), shown=best)
        return Opening(seat, (best,), Term(N_("holds the highest triple")))
    ranked = sorted(order, key=lambda s: sorted((value(t) for t in hands[s]), reverse=True), reverse=True)
    # sorted() is stable: among seats with identical hands the earlier in `order` stays first.
    seat = ranked[0]
    best = max(hands[seat], key=lambda t: (value(t), t))
    return Opening(seat, (best,), Term(N_("holds the highest tile (nobody has a triple)")))


def blocked_winners(hands: Mapping[int, Sequence[Tile]], rule: str) -> list[int]:
    """The seats that win a blocked round: the lowest hand total (`lowest_total`) or the fewest
    tiles (`fewest_tiles`); everyone tied wins."""
    def measure(seat: int) -> int:
        return sum(map(value, hands[seat])) if rule == "lowest_total" else len(hands[seat])
    best = min(measure(s) for s in hands)
    return [s for s in hands if measure(s) == best]


def blocked_payout(hands: Mapping[int, Sequence[Tile]], winner: int, rule: str) -> int:
    """What a blocked round's winner scores: every other hand's points minus their own
    (`others_minus_own`, Pressman) or the sum of each other hand minus their own
    (`differences`)."""
    own = sum(map(value, hands[winner]))
    others = [sum(map(value, hand)) for seat, hand in hands.items() if seat != winner]
    if rule == "differences":
        return sum(other - own for other in others)
    return sum(others) - own
