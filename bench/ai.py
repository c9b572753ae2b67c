"""AI tournament: one agent or level (`--seat`, the planning agent `normal` by default) against
others (`--against`, greedy and random by default; any of `engine.levels.AGENTS`), in every game.

For each game and player count (2, and 4 where the game allows), plays `--games` games per
pairing with the seats rotated, and prints one JSON line: the strong agent's wins (a win its
team shares counts whole, a draw between sides is split among them), the win rate with its 95%
Wilson interval, with more than two sides how often it finished above each opponent (every
pairing of the strong seat with another side, a tie counting half; chance is 50%
where an outright win's is 25%; its interval counts games, not pairings, as a game's pairings
are not independent), the mean score margin (strong minus the best opponent outside its team), and
the strong agent's move times (median, p95) against its budget. Also prints how many copies of a
mid-game position each game makes per second, by replaying its log (the contract's default) and
by its own structural copy.

    python bench/ai.py [--games 20] [--budget 0.25 | --simulations 200] [--opening 4]
                       [--game tronimoes] [--players 2,4] [--seat hard --against normal]
                       [--first 12] [--sees-all | --sees-hands]

`--first` numbers the games from there (game n is dealt from seed 1000 + n), so two processes can
play halves of one tournament on the same deals; `--sees-all` lets the measured seat plan on the
real game (a cheat, to measure what hidden information costs it), and `--sees-hands` on every
real hand but a re-ordered well, bag or deck (what the others' hands alone are worth). Each
game's result goes to stderr as it ends, with the simulations each planned move made.

Targets: normal beats greedy in >= 65% of 2-player games in every game, and at 4 players wins
outright >= 50% against three greedy players (Tronix: teams of two >= 75%); on the ladder of
levels each beats the one below in >= 65% of 2-player games, and random wins about a third of
2-player games against easy; p95 move time within the budget (`hard`: HARD_BUDGET times it).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine import GAMES, Game
from engine.ai import Agent
from engine.core import Outcome
from engine.levels import agent

STEP_LIMIT = 20_000


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 0.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return round(centre - half, 3), round(centre + half, 3)


class SeesAll:
    """An agent given the real game to plan on, every hand and the order of chance included: a
    cheat, never at a table, that measures how much hidden information holds the agent back.
    With `chance` hidden it sees every hand but plans on re-orderings of the piles no one has
    seen (the well, the bag, the deck: `Game._reshuffle`), which separates what the others'
    hands are worth to it from what knowing its next draws is."""

    def __init__(self, inner: Agent, *, chance: bool = True) -> None:
        self.inner = inner
        self.chance = chance
        self.name = f"{inner.name} seeing {'all' if chance else 'every hand'}"

    @property
    def made(self) -> int:
        return getattr(self.inner, "made", 0)

    @made.setter
    def made(self, value: int) -> None:
        if hasattr(self.inner, "made"):
            self.inner.made = value

    def choose(self, game: Game, seat: int) -> str:
        seen = game.clone()
        if self.chance:
            seen.determinize = lambda _seat, _rng: seen.clone()  # type: ignore[method-assign]
        else:
            seen.determinize = lambda _seat, rng: reshuffled(seen, rng)  # type: ignore[method-assign]
        return self.inner.choose(seen, seat)


def reshuffled(game: Game, rng: random.Random) -> Game:
    """A copy of `game` with its unseen piles put in a new order by `rng`, every hand as it is."""
    copy = game.clone()
    copy._reshuffle(rng)
    return copy


def play(cls: type[Game], players: int, seed: int, strong_seat: int, opponent: str,
         budget: float, simulations: int | None = None, opening: int = 0, level: str = "normal",
         sees_all: bool = False, sees_hands: bool = False) -> tuple[float, float, list[float], list[float], list[int]]:
    """One game, begun with `opening` random legal moves (so games of a game without hidden
    chance, where both agents are deterministic, differ); (the strong seat's share of the win,
    its margin, its move times, its result against each opponent: 1 above, 0.5 level, 0 below,
    the simulations each of its planned moves made)."""
    game = cls.new(players, seed=seed)
    chance = random.Random(seed)
    for _ in range(opening):
        if game.outcome() is not None:
            break
        mover = game.to_move()[0]
        game.apply(mover, chance.choice(game.legal_actions(mover)))
    strong = agent(level, budget=budget, simulations=simulations)
    if sees_all or sees_hands:
        strong = SeesAll(strong, chance=sees_all)
    other = agent(opponent, budget=budget, simulations=simulations)
    times: list[float] = []
    made: list[int] = []
    for _ in range(STEP_LIMIT):
        if game.outcome() is not None:
            break
        waiting = game.to_move()
        seat = waiting[0] if len(waiting) == 1 else random.Random(len(game.log)).choice(waiting)
        started = time.perf_counter()
        action = (strong if seat == strong_seat else other).choose(game, seat)
        if seat == strong_seat:
            times.append(time.perf_counter() - started)
            if getattr(strong, "made", 0):
                made.append(strong.made)
                strong.made = 0
        game.apply(seat, action)
    outcome = game.outcome()
    if outcome is None:
        print(json.dumps({"game": cls.name, "seed": seed, "unfinished_after_steps": STEP_LIMIT,
                          "last_actions": game.log[-16:]}), file=sys.stderr, flush=True)
        return 0.0, 0.0, times, [], made
    return (share_of_win(outcome, strong_seat), margin_of(outcome, strong_seat), times,
            against_each(outcome, strong_seat), made)


def side_of(outcome: Outcome, seat: int) -> tuple[int, ...]:
    """The seats that win or lose with `seat`: its team, or the seat alone."""
    return next((team for team in outcome.teams if seat in team), (seat,))


def share_of_win(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win: 1 when its side (team or seat) wins alone, split evenly
    among the sides that share a win (a draw), 0 when it lost. Team-mates do not split a
    team's win."""
    if seat not in outcome.winners:
        return 0.0
    sides = {side_of(outcome, winner) for winner in outcome.winners}
    return 1 / len(sides)


def margin_of(outcome: Outcome, seat: int) -> float:
    """The seat's score minus the best score of a seat not on its side (team-mates share it)."""
    mine = side_of(outcome, seat)
    others = [s for i, s in enumerate(outcome.scores) if i not in mine]
    return outcome.scores[seat] - max(others) if others else 0.0


def against_each(outcome: Outcome, seat: int) -> list[float]:
    """The seat's result against each other side (a team, or a seat alone), by its best score:
    1 if the seat scored more, 0.5 level, 0 less."""
    mine = side_of(outcome, seat)
    rivals = {side_of(outcome, index) for index in range(len(outcome.scores)) if index not in mine}
    best = [max(outcome.scores[index] for index in side) for side in sorted(rivals)]
    return [1.0 if outcome.scores[seat] > score else 0.5 if outcome.scores[seat] == score else 0.0 for score in best]


def copies_per_second(cls: type[Game]) -> dict[str, float]:
    game = cls.new(min(max(cls.min_players, 2), cls.max_players), seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    rates = {}
    for label, copy in (("replay", lambda g: Game.clone(g)), ("structural", lambda g: g.clone())):
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < 0.5:
            copy(game)
            count += 1
        rates[label] = round(count / (time.perf_counter() - started))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget", type=float, default=0.25)
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    parser.add_argument("--simulations", type=int,
                        help="plan with exactly this many simulations a move instead of a time budget "
                             "(results that do not depend on how busy the machine is)")
    parser.add_argument("--opening", type=int, default=0,
                        help="random legal moves that begin each game, so games without hidden chance differ")
    parser.add_argument("--players", default="2,4")
    cheats = parser.add_mutually_exclusive_group()
    cheats.add_argument("--sees-all", action="store_true",
                        help="the measured seat plans on the real game, hands and chance included (a cheat: "
                             "the ceiling that hidden information sets)")
    cheats.add_argument("--sees-hands", action="store_true",
                        help="the measured seat plans on every real hand but on re-orderings of the well, bag or "
                             "deck (a cheat: what the others' hands alone are worth)")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number (seeds 1000+number), to split one tournament across processes")
    parser.add_argument("--seat", default="normal", help="the agent measured (a level, greedy or random)")
    parser.add_argument("--against", "--opponents", dest="opponents", default="greedy,random",
                        help="the agents it plays against, one pairing each")
    args = parser.parse_args()
    for name in args.game or sorted(GAMES):
        cls = GAMES[name]
        print(json.dumps({"game": name, "copies_per_second": copies_per_second(cls)}), flush=True)
        for players in (int(p) for p in args.players.split(",")):
            if not cls.min_players <= players <= cls.max_players:
                continue
            for opponent in args.opponents.split(","):
                wins, margins, times, pairings, made = 0.0, [], [], [], []
                for number in range(args.first, args.first + args.games):
                    share, lead, moves, against, simulated = play(
                        cls, players, 1000 + number, number % players, opponent,
                        args.budget, args.simulations, args.opening, args.seat, args.sees_all, args.sees_hands)
                    wins += share
                    margins.append(lead)
                    times += moves
                    made += simulated
                    if len(against) > 1:
                        pairings.append(sum(against) / len(against))
                    print(json.dumps({"game": name, "players": players, "opponent": opponent, "number": number,
                                      "share": share, "margin": lead, "against_each": against,
                                      "strong_moves": len(moves)}),
                          file=sys.stderr, flush=True)
                times.sort()
                print(json.dumps({
                    "game": name, "players": players, "seat": args.seat, "opponent": opponent, "games": args.games,
                    "strong_wins": wins, "win_rate": round(wins / args.games, 3),
                    "ci95": wilson(wins, args.games),
                    **({"above_each_opponent": round(sum(pairings) / len(pairings), 3),
                        "above_each_ci95": wilson(sum(pairings), len(pairings))} if pairings else {}),
                    "mean_margin": round(statistics.mean(margins), 2),
                    "budget": args.budget, "simulations": args.simulations, "opening": args.opening,
                    "sees_all": args.sees_all, "sees_hands": args.sees_hands,
                    "move_seconds": {"median": round(statistics.median(times), 3) if times else None,
                                     "p95": round(times[int(len(times) * 0.95)], 3) if times else None},
                    "simulations_a_planned_move": {"median": statistics.median(made) if made else None,
                                                   "min": min(made, default=None)},
                }), flush=True)


if __name__ == "__main__":
    main()
