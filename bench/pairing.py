"""How long the FIDE Dutch system (`engine.pairing.dutch.pair_dutch`) takes to pair one Swiss
round of many players: `--players` (1,000) paired for rounds 1 to `--round` − 1 (4) of
`--rounds` (9), each game's result drawn at random (seeded: a third each of wins, draws and
losses), then round `--round` timed. Prints one JSON line: the players, the round, the seconds it
took and the boards made. Target: a few seconds for 1,000 players.

    python bench/pairing.py [--players 1000] [--round 5] [--rounds 9] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import benchpath  # noqa: F401  (first: takes bench/ off the import path)

from engine.pairing.dutch import pair_dutch
from engine.pairing.records import Board, Result, Round


def played(round_: Round, rng: random.Random) -> Round:
    """`round_` with a random result on every board."""
    results = [Result.FIRST_WON, Result.DRAWN, Result.SECOND_WON]
    return Round(tuple(Board(b.first, b.second, rng.choice(results)) for b in round_.boards),
                 round_.sat_out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    field = list(range(1, args.players + 1))
    history: list[Round] = []
    earlier = []
    for _ in range(args.round - 1):
        started = time.perf_counter()
        history.append(played(pair_dutch(field, history, total_rounds=args.rounds), rng))
        earlier.append(round(time.perf_counter() - started, 3))
    started = time.perf_counter()
    paired = pair_dutch(field, history, total_rounds=args.rounds)
    seconds = time.perf_counter() - started
    print(json.dumps({"bench": "pairing_dutch", "players": args.players, "round": args.round,
                      "rounds": args.rounds, "seconds": round(seconds, 3),
                      "earlier_rounds_seconds": earlier, "boards": len(paired.boards),
                      "byes": len(paired.sat_out), "target_seconds": 5}), flush=True)


if __name__ == "__main__":
    main()
