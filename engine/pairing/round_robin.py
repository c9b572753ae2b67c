"""Round robins by FIDE's Berger tables (Handbook C.05, Annex 1).

Round 1 pairs 1 with n, 2 with n−1, and so on; each later round moves every number but n on by
n/2 (counting round 1 … n−1), and n alternates between second seat (odd rounds) and first seat
(even rounds) at board 1. With an odd number of players the highest number, n, is nobody: whoever
meets it has the round off. A double round robin plays the cycle again with the seats reversed,
and, as FIDE recommends, swaps the first cycle's last two rounds so nobody gets the same seat
three times running at the turn of the cycles.
"""

from __future__ import annotations

from engine.pairing.records import Board, Round, SatOut

MAX_PLAYERS = 16
"""The largest round robin tileref runs (15 rounds a cycle)."""


def berger_rounds(players: int) -> list[list[tuple[int, int]]]:
    """Berger's table for `players` (2 or more): each round's boards as (first, second) in
    board order, the bye shown as a board against `players + 1` when `players` is odd."""
    if players < 2:
        raise ValueError("a round robin needs two players or more")
    n = players + players % 2
    half = n // 2
    boards = [(i + 1, n - i) for i in range(half)]
    table = []
    for number in range(1, n):
        if number > 1:
            boards = [(_moved(a, n, half), _moved(b, n, half)) for a, b in boards]
        first, second = boards[0]
        fixed, other = (second, first) if second == n else (first, second)
        board_one = (other, fixed) if number % 2 else (fixed, other)
        table.append([board_one, *boards[1:]])
    return table


def _moved(number: int, n: int, half: int) -> int:
    return number if number == n else (number - 1 + half) % (n - 1) + 1


def schedule(players: int, *, double: bool = False) -> list[Round]:
    """Every round of a round robin of `players` (2 to MAX_PLAYERS), with byes for the odd one
    out; `double` plays it twice, seats reversed, the first cycle's last two rounds swapped."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"a round robin takes 2 to {MAX_PLAYERS} players")
    cycle = berger_rounds(players)
    rounds = [_round(boards, players) for boards in cycle]
    if not double:
        return rounds
    if len(cycle) >= 2:
        cycle = [*cycle[:-2], cycle[-1], cycle[-2]]
    first = [_round(boards, players) for boards in cycle]
    second = [_round([(b, a) for a, b in boards], players) for boards in berger_rounds(players)]
    return first + second


def _round(boards: list[tuple[int, int]], players: int) -> Round:
    playing = tuple(Board(a, b) for a, b in boards if a <= players and b <= players)
    resting = tuple(SatOut(min(a, b)) for a, b in boards if max(a, b) > players)
    return Round(playing, resting)
