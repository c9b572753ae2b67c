"""Positions load back as the same game: the contract test's check (`check_positions` in
tests/engine/test_contract.py) over many more random games than CI plays. For each game, one
JSON line: games played, steps checked (the loaded game then matched the game after the next
step), steps that drew on chance (only the loaded game before them is compared), what the
positions met (results, round ends, the moving phase, God Mode, seats out or gone), failures
with the first one's message, and the time taken.

    python bench/positions.py [--games 100] [--game tromino_go]

Target: no failure in any game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import benchpath  # noqa: F401  (must come before the project's imports)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the check lives with the tests

from engine import GAMES
from tests.engine.test_contract import check_positions


def sweep(name: str, games: int) -> dict[str, object]:
    cls = GAMES[name]
    tally: Counter[str] = Counter()
    failures: list[str] = []
    started = time.perf_counter()
    for number in range(1000, 1000 + games):  # CI's games are 0 to 9
        try:
            tally += check_positions(cls, number)
        except AssertionError as error:
            failures.append(f"game {number}: {str(error).splitlines()[0] if str(error) else 'assertion'}")
    return {"game": name, "games": games, "steps_checked": tally.pop("steps", 0),
            "chance_steps": tally.pop("chance", 0), "positions_with": dict(sorted(tally.items())),
            "failures": len(failures), "first_failure": failures[0] if failures else None,
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--game", choices=sorted(GAMES))
    args = parser.parse_args()
    for name in [args.game] if args.game else sorted(GAMES):
        print(json.dumps(sweep(name, args.games)), flush=True)


if __name__ == "__main__":
    main()
