"""Swiss pairing by the FIDE Dutch system (C.04.3, the rules in force from 1 July 2025), with the
basic rules of C.04.1 and the general handling rules of C.04.2.

The round is paired bracket by bracket from the top score down (Article 2): each bracket is its
scoregroup's players plus the players moved down from the brackets above; `dutch_bracket` picks
its pairing by the criteria of Article 2.2–2.4, accepting only pairings that leave the lower
brackets pairable (C4, checked with a maximum matching). With an odd number of players the last
player left receives the pairing-allocated bye (C.04.1 Article 3): someone who has not had it, nor
won a game without playing, of the lowest score for which the rest can be paired (C8), and of
them preferably one who has played the most games (C9).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.pairing.dutch_bracket import pair_bracket
from engine.pairing.dutch_colours import first_is_white
from engine.pairing.dutch_criteria import Standing, compatible
from engine.pairing.dutch_history import History, histories
from engine.pairing.matching import matching_size, maximum_matching
from engine.pairing.records import Board, Bye, Round, SatOut


def pair_dutch(field: Sequence[int], rounds: Sequence[Round], *, total_rounds: int,
               first_colour_to_top: bool = True, bye_points: float = 1.0) -> Round:
    """The next round's boards (first seat = white) in board order, and the pairing-allocated bye
    if `field` is odd. `field`: the pairing numbers of the players to pair; `rounds`: the rounds
    played so far. `first_colour_to_top`: whether the initial colour (round 1's top board) is
    white. Raises ValueError, saying why, when no pairing satisfies the absolute criteria."""
    if len(set(field)) != len(field):
        raise ValueError("a player appears twice in the field")
    if not field:
        return Round(())
    known = histories(rounds, list(field), bye_points=bye_points)
    standing = Standing(last_round=len(rounds) + 1 >= total_rounds, topscore=len(rounds) / 2)
    players = sorted((known[p] for p in field), key=lambda h: (-h.score, h.number))
    graph = _Graph(players, standing)

    bye_allowed: frozenset[int] = frozenset()
    bye_score = -1.0
    if len(players) % 2:
        eligible = [p for p in players if p.bye_eligible]
        for score in sorted({p.score for p in eligible}):
            allowed = frozenset(p.number for p in eligible if p.score <= score)
            if graph.pairable(frozenset(p.number for p in players), allowed):
                bye_allowed, bye_score = allowed, score
                break
        else:
            raise ValueError("no pairing exists: the players cannot all be paired with the bye "
                             "going to someone who may still receive it")
    elif not graph.pairable(frozenset(p.number for p in players), frozenset()):
        raise ValueError("no pairing exists: some players have met, or cannot meet for colour, "
                         "everyone they could be paired with")

    groups: list[list[History]] = []
    for player in players:
        if groups and groups[-1][0].score == player.score:
            groups[-1].append(player)
        else:
            groups.append([player])

    pairs: list[tuple[int, int]] = []
    carried: list[History] = []
    rounds_so_far = len(rounds)
    for index, group in enumerate(groups):
        lower = frozenset(p.number for g in groups[index + 1:] for p in g)
        bracket = carried + group
        last = index == len(groups) - 1
        cache: dict[frozenset[int], bool] = {}

        def completes(floaters: frozenset[int], lower: frozenset[int] = lower,
                      cache: dict[frozenset[int], bool] = cache) -> bool:
            known_answer = cache.get(floaters)
            if known_answer is None:
                known_answer = cache[floaters] = graph.pairable(floaters | lower, bye_allowed)
            return known_answer

        next_group = groups[index + 1] if not last else []

        def next_pairs(floaters: frozenset[int], next_group: list[History] = next_group) -> tuple[int, ...]:
            members = frozenset(p.number for p in next_group) | floaters
            return (len(members) // 2 - graph.pairs_within(members),)

        outcome = pair_bracket(
            bracket, group[0].score, standing, completes,
            bye_unplayed=lambda h: (rounds_so_far - h.played
                                    if h.score == bye_score and h.number in bye_allowed else 0),
            next_pairs=next_pairs if next_group else None)
        if outcome is None:
            raise ValueError("no pairing exists for the players on "
                             f"{group[0].score:g} points and those moved down to them")
        pairs.extend(outcome.pairs)
        carried = [known[n] for n in outcome.floaters]
    if len(carried) > 1 or (carried and carried[0].number not in bye_allowed):
        raise ValueError("no pairing exists")
    return Round(_boards(pairs, known, first_colour_to_top),
                 tuple(SatOut(p.number, Bye.ALLOCATED) for p in carried))


def _boards(pairs: list[tuple[int, int]], known: dict[int, History], initial_white: bool) -> tuple[Board, ...]:
    """The boards in order (C.04.2): by the higher player's score, then the lower's, then the
    higher player's rank; the colours by Article 5."""
    def key(pair: tuple[int, int]) -> tuple[float, float, int]:
        higher, lower = _ordered(known[pair[0]], known[pair[1]])
        return (-higher.score, -lower.score, higher.number)

    boards = []
    for pair in sorted(pairs, key=key):
        higher, lower = _ordered(known[pair[0]], known[pair[1]])
        if first_is_white(higher, lower, initial_white=initial_white):
            boards.append(Board(higher.number, lower.number))
        else:
            boards.append(Board(lower.number, higher.number))
    return tuple(boards)


def _ordered(a: History, b: History) -> tuple[History, History]:
    return (a, b) if (-a.score, a.number) <= (-b.score, b.number) else (b, a)


class _Graph:
    """Who may meet whom this round, and whether a set of players can all be paired."""

    def __init__(self, players: list[History], standing: Standing) -> None:
        self.players = players
        self.neighbours: dict[int, list[int]] = {p.number: [] for p in players}
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                if compatible(a, b, standing):
                    self.neighbours[a.number].append(b.number)
                    self.neighbours[b.number].append(a.number)

    def _mate(self, members: frozenset[int], bye_allowed: frozenset[int]) -> tuple[list[int], int]:
        order = sorted(members)
        index = {n: i for i, n in enumerate(order)}
        adjacency: list[list[int]] = [[index[m] for m in self.neighbours[n] if m in index] for n in order]
        if len(order) % 2:
            dummy = len(order)
            adjacency.append([index[n] for n in order if n in bye_allowed])
            for i in adjacency[dummy]:
                adjacency[i].append(dummy)
        mate = maximum_matching(adjacency)
        return mate, len(adjacency)

    def pairable(self, members: frozenset[int], bye_allowed: frozenset[int]) -> bool:
        """Whether `members` can all be paired, one of `bye_allowed` left over if they are odd."""
        mate, size = self._mate(members, bye_allowed)
        return matching_size(mate) * 2 == size

    def pairs_within(self, members: frozenset[int]) -> int:
        """The most pairs `members` can form among themselves."""
        order = sorted(members)
        index = {n: i for i, n in enumerate(order)}
        adjacency = [[index[m] for m in self.neighbours[n] if m in index] for n in order]
        return matching_size(maximum_matching(adjacency))
