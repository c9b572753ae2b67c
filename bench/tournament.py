"""Tournaments played out unattended: a 64-player, 7-round Swiss of Tromino Go and a 12-player
Swiss of 4-seat Tetromic pods, run by the real tournament runner on the real referee (an SQLite
file, a manual clock), with AI players, 5% of the field withdrawing partway, byes wherever the
field is odd, and one late entry during round 3. Prints one JSON line per tournament.

The players are AI: each turn, the seat to move plays the random agent's move (`engine.ai`),
typed through the referee as that player would. Tetromic games are played to their end; a Tromino
Go game gets `--moves-swiss` moves (the random agent needs seconds a move there, so 224 whole
games would take most of an hour); whatever is still on then waits for the round's deadline,
where the tournament's stated adjudication rule (`score`) decides it, as it would for players who
stopped moving.

Reported per tournament:
- `rounds_completed` of `rounds_planned`; `stuck_rounds`: rounds left open after every game in
  them had finished and the runner had looked (target 0);
- `repeated_pairings`: pairs of players who met twice (two-player Swiss; target 0), or at pods
  pairs of players who shared a table more than once, against `repeats_unavoidable` (how many a
  perfect seating could not avoid, by counting: 0 while the rounds fit without repeats);
- `pair_seconds`: the time the runner's step took that paired each round and opened its tables
  (median, max); `pairing_only_seconds`: the pairing alone (`bot.tournaments.pairing.pair_round`
  on the tournament as it stood before each round);
- `adjudicated`: games the deadline decided; `withdrawn`, `late_entries`, `byes`;
- `standings`: the top five as the standings table ranks them (rank, name, points).

    .venv/bin/python bench/tournament.py [--moves-swiss 30] [--moves-pods 2000] [--seed 1] [--only swiss|pods]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

with contextlib.suppress(ModuleNotFoundError):
    import benchpath  # noqa: F401  (must come before the project's imports)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.clock import ManualClock
from bot.core.records import User
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.tournaments import RUNNING, TournamentView
from bot.tournaments.desk import TournamentDesk
from bot.tournaments.pairing import pair_round
from bot.tournaments.presentation import tables
from bot.tournaments.runner import TournamentRunner
from engine.ai import RandomAgent

HOUR = 3600.0
MOD = User("bench:mod", "mod", moderator=True)
CHANNEL = "bench:lobby"


def person(index: int) -> User:
    return User(f"bench:p{index}", f"Player {index}")


async def _play(referee: Referee, place: str, moves: int, agent: RandomAgent) -> bool:
    """Up to `moves` moves of the game at `place`, each by the seat to move; True if it ended."""
    for _ in range(moves):
        seen = await referee.view(place)
        if seen is None:
            return True
        table, game = seen
        if game.outcome() is not None or table.status != "playing":
            return True
        seat = game.to_move()[0]
        who = table.seats[seat]
        reply = await referee.act(place, User(who.user_id or "", who.name), agent.choose(game, seat))
        if not reply.ok:
            return False
    seen = await referee.view(place)
    return seen is None or seen[1].outcome() is not None


def _met(view: TournamentView) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for stored in view.rounds:
        for board in stored.boards:
            met.update(frozenset(pair) for pair in itertools.combinations(board.players, 2))
    return met


async def run(game: str, format: str, players: int, rounds: int, seats: int, moves: int, seed: int,
              folder: Path) -> dict[str, object]:
    rng = random.Random(seed)
    clock = ManualClock(1_800_000_000.0)
    store = store_for(str(folder / f"{format}.sqlite3"))
    await store.open()
    seeds = iter(range(seed, seed + 1_000_000))
    referee = Referee(store, clock=clock, render=False, seeds=lambda: next(seeds))
    await referee.open()
    agent = RandomAgent()
    try:
        runner = TournamentRunner(referee)
        desk = TournamentDesk(referee, runner)
        options = {"seats": seats} if format == "pods" else {}
        made = await desk.new(MOD, CHANNEL, "bench", game, format, rounds=rounds, start="1h", late="30d",
                              round_time="3d", adjudication="score", **options)
        assert made.ok, made.caller
        tid = (await store.tournaments.listed("bench"))[0].id
        for index in range(1, players + 1):
            assert (await desk.sign_up(tid, person(index))).ok
        leaving = rng.sample(range(1, players + 1), max(1, round(players * 0.05)))
        leave_in = {player: rng.randint(2, rounds - 1) for player in leaving}
        pair_seconds: list[float] = []
        stuck = adjudicated_before = 0
        late = 0

        async def step(seconds: float = 0.0) -> None:
            if seconds:
                await clock.advance(seconds)
            before = len((await store.tournaments.view(tid)).rounds)  # type: ignore[union-attr]
            started = time.perf_counter()
            await runner.run_due()
            view = await store.tournaments.view(tid)
            assert view is not None
            if len(view.rounds) > before:
                pair_seconds.append(time.perf_counter() - started)

        await step(HOUR)
        while True:
            view = await store.tournaments.view(tid)
            assert view is not None
            if view.tournament.status != RUNNING:
                break
            number = view.tournament.current_round
            if number == 3 and not late:
                late += bool((await desk.sign_up(tid, person(players + 1))).ok)
            for player, when in leave_in.items():
                if when == number:
                    await desk.withdraw(person(player), tid)
            current = view.round(number)
            assert current is not None
            ended = [await _play(referee, b.place, moves, agent) for b in current.boards if b.place and not b.result]
            await step()
            view = await store.tournaments.view(tid)
            assert view is not None
            again = view.round(number)
            if again is not None and again.closed_at is None and all(ended) and all(b.result for b in again.boards):
                stuck += 1
            if again is not None and again.closed_at is None:
                await step(3 * 24 * HOUR + 60)
        view = await store.tournaments.view(tid)
        assert view is not None
        met = _met(view)
        repeats = sum(count - 1 for count in met.values() if count > 1)
        meetings = sum(met.values())
        unavoidable = max(0, meetings - len(view.entrants) * (len(view.entrants) - 1) // 2)
        table = tables(view)[0]
        pairing_only = []
        for number in range(1, len(view.rounds) + 1):
            before = TournamentView(view.tournament, view.entrants, view.rounds[:number - 1])
            started = time.perf_counter()
            pair_round(before, number, clock.now())
            pairing_only.append(time.perf_counter() - started)
        names = {e.number: e.name for e in view.entrants}
        adjudicated = sum(1 for r in view.rounds for b in r.boards if b.adjudicated) - adjudicated_before
        return {
            "bench": "tournament", "game": game, "format": format, "players": players, "seats": seats,
            "moves_per_game": moves, "rounds_planned": rounds,
            "rounds_completed": sum(1 for r in view.rounds if r.closed_at is not None),
            "status": view.tournament.status, "stuck_rounds": stuck,
            "repeated_pairings": repeats, "repeats_unavoidable": unavoidable,
            "games": sum(len(r.boards) for r in view.rounds), "adjudicated": adjudicated,
            "withdrawn": sum(1 for e in view.entrants if e.withdrawn_after is not None), "late_entries": late,
            "byes": sum(len(r.sat_out) for r in view.rounds),
            "pair_seconds_median": round(statistics.median(pair_seconds), 3) if pair_seconds else None,
            "pair_seconds_max": round(max(pair_seconds), 3) if pair_seconds else None,
            "pairing_only_seconds_median": round(statistics.median(pairing_only), 3),
            "pairing_only_seconds_max": round(max(pairing_only), 3),
            "standings": [[row.rank, names.get(row.player, str(row.player)), row.points] for row in table.rows[:5]],
        }
    finally:
        await referee.close()
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves-swiss", type=int, default=30,
                        help="moves the AI players make in each Tromino Go game (a whole game is about 270)")
    parser.add_argument("--moves-pods", type=int, default=2000,
                        help="moves the AI players make in each Tetromic game (default: to its end)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["swiss", "pods"], default=None)
    args = parser.parse_args()
    events = [("tromino_go", "swiss", 64, 7, 2), ("tetromic", "pods", 12, 5, 4)]
    with tempfile.TemporaryDirectory() as folder:
        for game, format, players, rounds, seats in events:
            if args.only and args.only != format:
                continue
            started = time.perf_counter()
            moves = args.moves_swiss if format == "swiss" else args.moves_pods
            line = asyncio.run(run(game, format, players, rounds, seats, moves, args.seed, Path(folder)))
            line["seconds"] = round(time.perf_counter() - started, 1)
            print(json.dumps(line, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
