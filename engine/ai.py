"""Agents that choose an action from `legal_actions`: a random one and a greedy one.

Agents are deterministic: the same game state gives the same choice, so a replayed table plays
out the same way. Neither looks at anything its seat could not see at the table (the greedy
agent tries actions on a copy and only compares scores, which are public).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine.core import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> str:
        """A legal action for `seat`, which must have at least one."""
        ...


class RandomAgent:
    """Any legal action, uniformly, from a generator fixed by the game's seed and move number."""

    name = "random"

    def choose(self, game: Game, seat: int) -> str:
        actions = game.legal_actions(seat)
        rng = random.Random(f"{game.seed}:{len(game.log)}:{seat}")
        return rng.choice(actions)


TieBreak = Callable[[Game, int, str, Game], tuple[float, ...]]
"""(game before, seat, action, game after) -> a key; higher is better among equal score gains."""


class GreedyAgent:
    """The action with the best immediate change of its own score; ties are broken by a per-game
    heuristic (see `TIE_BREAKS`), then by the action's text so the choice is stable."""

    name = "greedy"

    def choose(self, game: Game, seat: int) -> str:
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        before = game.scores()[seat]
        tie_break = TIE_BREAKS.get(game.name, _no_tie_break)
        best: tuple[tuple[float, ...], str] | None = None
        for action in actions:
            after = game.clone()
            after.apply(seat, action)
            key = (after.scores()[seat] - before, *tie_break(game, seat, action, after))
            if best is None or key > best[0] or (key == best[0] and action < best[1]):
                best = (key, action)
        assert best is not None
        return best[1]


def _no_tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    return ()


def _tronimoes_tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    """Prefer laying to spacers to drawing to passing; keep your own line alive with room around
    its open end; play doubles (another turn) and heavy tiles early."""
    from engine.tronimoes import Tronimoes

    assert isinstance(after, Tronimoes)
    word = action.split()[0]
    kind = {"draw": 1, "pass": 0, "spacer": 2, "ready": 3}.get(word, 3)
    alive = 0.0 if after.seats[seat].dead else 1.0
    room = 0.0
    if alive and seat < len(after.lines):
        for end in after.head(after.lines[seat]).open_squares:
            room += sum(1 for n in after.grid.neighbours[end] if not after.occupied[n])
    pips = 0.0
    double = 0.0
    if kind == 3 and ":" in word:
        low, high = (int(p) for p in word.split(":"))
        pips = low + high
        double = 1.0 if low == high else 0.0
    if word == "pass" and len(action.split()) == 2:
        foot = after.grid.parse_square(action.split()[1])
        room = sum(1 for n in after.grid.neighbours[foot] if not after.occupied[n])
    return (alive, kind, double, room, pips)


TIE_BREAKS: dict[str, TieBreak] = {"tronimoes": _tronimoes_tie_break}

AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {"random": RandomAgent, "greedy": GreedyAgent}
"""Agents by name; "bot" in a player list means the greedy agent."""


def agent(name: str) -> Agent:
    """The agent called `name` ("random", "greedy"; "bot" is greedy)."""
    key = "greedy" if name in ("bot", "ai") else name
    if key not in AGENTS:
        raise ValueError(f"there is no AI called '{name}'; choose one of {', '.join(AGENTS)}")
    return AGENTS[key]()
