"""Who plays white on a Dutch-system board (C.04.3, 2025, Article 5, colour allocation)."""

from __future__ import annotations

from engine.pairing.dutch_history import BLACK, WHITE, History


def first_is_white(higher: History, lower: History, *, initial_white: bool) -> bool:
    """Whether `higher` (the higher ranked of the two, Article 1.2) gets white against `lower`.

    In order (Article 5.2): both preferences granted; the stronger preference granted (absolute
    over strong over mild; of two absolute ones, the wider colour difference); the colours
    alternated from the latest round in which they differed; the higher ranked player's
    preference; and with no preference at all, the initial colour to the higher ranked player
    when the lower ranked player's rank (0-based) is odd (`higher_rank`, `lower_rank`: places in
    the pairing-number order)."""
    colour = _neutral(higher, lower)
    if colour is None:
        if higher.preference is None and lower.preference is None:
            initial = WHITE if initial_white else BLACK
            colour = initial if higher.number % 2 else _other(initial)
        elif higher.preference is not None:
            colour = higher.preference
        else:
            colour = _other(lower.preference) if lower.preference else WHITE
    return colour == WHITE


def _neutral(player: History, opponent: History) -> str | None:
    pp, op = player.preference, opponent.preference
    if pp is None or op is None or pp != op:
        if pp is not None:
            return pp
        if op is not None:
            return _other(op)
        return None
    di, do = abs(player.colour_difference), abs(opponent.colour_difference)
    if player.absolute and (di > do or not opponent.absolute):
        return pp
    if opponent.absolute and (do > di or not player.absolute):
        return _other(op)
    if player.strong and not opponent.strong:
        return pp
    if opponent.strong and not player.strong:
        return _other(op)
    # Article 5.2.3: alternate from the latest round in which they had different colours.
    for mine, theirs in zip(reversed(player.colours), reversed(opponent.colours), strict=False):
        if mine != theirs:
            return theirs
    return None


def _other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE
