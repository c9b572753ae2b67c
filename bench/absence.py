"""Do games finish? Tables of every game and size played to the end on the real referee (an
SQLite file, the timer dispatcher, a manual clock) by simulated people who move at human hours,
go away for a day, a weekend or two weeks, or vanish: prints one JSON line per game and time
control, then a summary line.

People (each seeded): they answer a turn after a delay (median two hours, at most twelve), only
while awake (08:00 to 23:00 in their own time zone); one in ten goes away for a day once, one in
ten for a weekend, one in twenty for two weeks, and one in twenty vanishes for good partway
through. A person plays a random legal move (the random agent: quick enough for a thousand games).

Half of those who go away for two weeks declare it ahead (`/vacation from: to:`).

Time controls (`--controls`, each given an equal share of the tables): `1d` (a day a move) and
`bank` (`clock=3d+1d/7d`: three days, a day more a move, at most seven); tables of three or more
keep the default `absent=standin`.

Reported per game and time control:
- `finished`: the share of games that ended within `--days`;
- `finished_with_everyone`: the share that ended with every original player still playing
  their own turns (no turn played for them by the clock, a stand-in or a skip);
- `median_days`: how long a finished game took;
- `pings_per_turn`: the messages that ping a player (`Reply.mentions`) as a turn of theirs
  begins (or, for a turn that began in their quiet hours, as those end), per turn of theirs;
  `reminder_pings_per_turn` the reminders' apart (a reminder pings only a turn nothing pinged);
  `turns_pinged_twice`: turns that pinged their player more than once, whatever sent the pings;
- `timeouts_within_allowance`: turns played for someone (by the clock, a stand-in or a skip)
  whose longest absence was shorter than what the table allows them: a move's time at `1d`, the
  starting bank plus the year's 21 vacation days at `bank` (a vanished player is never within it).

    .venv/bin/python bench/absence.py [--tables 1000] [--days 120] [--controls 1d,bank] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import heapq
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

with contextlib.suppress(ModuleNotFoundError):  # in a worker process the referee started, the path is right
    import benchpath  # noqa: F401  (must come before the project's imports)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.absence import made_for_absent
from bot.core.clock import ManualClock
from bot.core.meta import BEGAN
from bot.core.records import User
from bot.core.replies import Reply
from bot.service.referee import Referee
from bot.storage.address import store_for
from engine.ai import RandomAgent

HOUR = 3600.0
DAY = 24 * HOUR
START = 1_800_000_000.0 - 1_800_000_000.0 % DAY  # a midnight, UTC

SIZES = {"tronimoes": (2, 3, 4, 6), "tromino_go": (2,), "triominoes": (2, 3, 4), "tronix": (2, 4),
         "tetromic": (2, 3, 4)}
OPTIONS = {"triominoes": "rounds=1", "tronix": "deck_size=24", "tetromic": "preset=quick"}
"""Options that keep a game short enough to play a thousand of (one round, a small deck)."""
CONTROLS = {"1d": ("1d a move", None, "1d", DAY), "bank": ("bank 3d+1d/7d", "clock=3d+1d/7d", None, 24 * DAY)}
"""Each time control: its name, the table option that chooses it, the turn time, and what it
allows an absent player (a move's time; the starting bank and the year's 21 vacation days)."""
GUILD = "sim"
SLOWEST = 12 * HOUR
"""The longest a person present takes to answer a turn (the median is two hours)."""
NIGHT = 9 * HOUR

@dataclass
class Person:
    """A simulated player: when they are awake, away, or gone."""

    user: User
    zone: float
    """Hours from UTC."""
    kind: str
    away: tuple[float, float] | None = None
    gone_from: float | None = None
    declares: bool = False
    """Whether they declare their time away ahead as a vacation."""

    def present(self, moment: float) -> bool:
        """Whether they would look at the game at `moment` (awake, not away, not gone)."""
        if self.gone_from is not None and moment >= self.gone_from:
            return False
        if self.away and self.away[0] <= moment < self.away[1]:
            return False
        local_hour = ((moment / HOUR) + self.zone) % 24
        return 8 <= local_hour < 23

    def longest_absence(self) -> float:
        """The longest they can take to answer a turn: their slowest answer after a night, or a
        time away (with the slowest answer after it)."""
        if self.gone_from is not None:
            return float("inf")
        away = self.away[1] - self.away[0] + NIGHT if self.away else 0.0
        return SLOWEST + max(NIGHT, away)

    def answers(self, since: float, rng: random.Random) -> float | None:
        """When they move on a turn that began at `since` (None: never)."""
        moment = since + min(SLOWEST, rng.lognormvariate(0.0, 1.0) * 2 * HOUR)
        for _ in range(24 * 4 * 30):
            if self.present(moment):
                return moment
            if self.gone_from is not None and moment >= self.gone_from:
                return None
            moment += 15 * 60
        return None


def people_for(rng: random.Random, count: int, table: int, started: float) -> list[Person]:
    """`count` people for a table, each of a kind drawn from the mix above."""
    people = []
    for index in range(count):
        user = User(f"sim:{table}:{index}", f"p{table}_{index}")
        roll = rng.random()
        zone = rng.choice((-8, -5, -3, 0, 1, 2, 5.5, 8, 9))
        when = started + rng.uniform(0, 10) * DAY
        if roll < 0.10:
            people.append(Person(user, zone, "a day away", (when, when + DAY)))
        elif roll < 0.20:
            friday = when + ((4 - ((when - START) // DAY) % 7) % 7) * DAY
            people.append(Person(user, zone, "a weekend away", (friday + 18 * HOUR, friday + 3 * DAY + 8 * HOUR)))
        elif roll < 0.25:
            people.append(Person(user, zone, "two weeks away", (when, when + 14 * DAY), declares=roll < 0.225))
        elif roll < 0.30:
            people.append(Person(user, zone, "vanishes", gone_from=when))
        else:
            people.append(Person(user, zone, "steady"))
    return people


@dataclass
class Table:
    place: str
    game: str
    size: int
    control: str
    allowance: float
    people: list[Person]
    started_at: float = 0.0
    ended_at: float | None = None
    turns: Counter[int] = field(default_factory=Counter)
    answers: dict[int, tuple[int, float | None]] = field(default_factory=dict)
    """Each waiting seat's turn (the game's turn count) and when its person answers."""
    next_deadline: float | None = None


class Pings:
    """Who each reply pinged, counted against the turn of theirs it came in and by what sent it (a
    turn's beginning, or a reminder). A turn is the game's turn number and the move at which the
    seat's clock started, as the referee counts them: a timeout that leaves the same player to
    move (Tronix) begins a new one, with its own deadline."""

    def __init__(self) -> None:
        self.pending: list[tuple[Reply, str]] = []
        self.count: Counter[tuple[str, int, int, int | None, str]] = Counter()

    async def __call__(self, reply: Reply) -> None:
        self.pending.append((reply, "clock"))

    def read(self, reply: Reply) -> None:
        self.pending.append((reply, "move"))

    async def settle(self, referee: Referee, places: dict[str, Table]) -> None:
        """Count the pings read since the last call, each against its player's turn now."""
        pending, self.pending = self.pending, []
        for reply, source in pending:
            table = places.get(reply.place or "")
            if table is None or not reply.mentions:
                continue
            view = await referee.view(table.place)
            assert view is not None
            record, game = view
            began = record.meta.get(BEGAN) or {}
            for seat, person in enumerate(table.people):
                if person.user.id in reply.mentions:
                    reminded = source == "clock" and "your turn ends" in _said(reply)
                    kind = "reminder" if reminded else "turn"
                    clock_start = began.get(str(seat), [None])[0] if isinstance(began, dict) else None
                    self.count[(table.place, seat, game.turn_count(), clock_start, kind)] += 1


def _said(reply: Reply) -> str:
    return " ".join(m.text.lower() for m in (reply.public, reply.caller) if m is not None)


async def simulate(path: Path, tables_wanted: int, days: float, controls: list[str], seed: int
                   ) -> tuple[list[Table], Pings]:
    """Open the tables, play them until they end or `days` pass, and return them."""
    rng = random.Random(seed)
    clock = ManualClock(START)
    pings = Pings()
    store = store_for(str(path))
    await store.open()
    seeds = iter(range(seed * 1_000_000, seed * 1_000_000 + 1_000_000))
    referee = Referee(store, clock=clock, render=False, notify=pings, seeds=lambda: next(seeds), ai_seconds=0.0,
                      confirms_delivery=False)  # a reply returned is delivered (no transport confirms it)
    await referee.open()
    agent = RandomAgent()
    kinds = [(game, size, control) for game, sizes in SIZES.items() for size in sizes for control in controls]
    tables: list[Table] = []
    places: dict[str, Table] = {}
    try:
        for number in range(tables_wanted):
            game, size, control = kinds[number % len(kinds)]
            name, option, turn_time, allowance = CONTROLS[control]
            table = Table(f"sim:{number}", game, size, name, allowance, people_for(rng, size, number, clock.now()))
            await _open(referee, table, option, turn_time, pings)
            await _declare(referee, table, clock.now())
            table.started_at = clock.now()
            tables.append(table)
            places[table.place] = table
        await pings.settle(referee, places)
        due: list[tuple[float, int]] = []
        for index, table in enumerate(tables):
            await _plan(referee, table, rng, clock.now())
            heapq.heappush(due, (_next(table, clock.now()), index))
        end = START + days * DAY
        while due and clock.now() < end:
            moment, index = heapq.heappop(due)
            if moment > end:
                break
            if moment > clock.now():
                await clock.advance(moment - clock.now())
                await referee.timers.idle()
                await referee.ai.idle()
                await pings.settle(referee, places)
            table = tables[index]
            if table.ended_at is not None:
                continue
            await _play_due(referee, table, agent, pings, clock.now())
            await referee.ai.idle()
            await pings.settle(referee, places)
            await _plan(referee, table, rng, clock.now())
            if table.ended_at is None:
                heapq.heappush(due, (max(clock.now() + 60, _next(table, clock.now())), index))
    finally:
        await referee.close()
        await store.close()
    for table in tables:
        for seat in range(table.size):
            table.turns[seat] = max(table.turns[seat], 1)
    return tables, pings


async def _open(referee: Referee, table: Table, option: str | None, turn_time: str | None, pings: Pings) -> None:
    host, *rest = table.people
    options = " ".join(o for o in (OPTIONS.get(table.game), option) if o)
    reply = await referee.create(table.place, host.user, table.game, options=options or None,
                                 turn_time=turn_time, guild=GUILD)
    assert reply.ok, reply
    for person in rest:
        assert (await referee.join(table.place, person.user)).ok
    reply = await referee.start(table.place, host.user)
    assert reply.ok, reply
    pings.read(reply)


async def _declare(referee: Referee, table: Table, now: float) -> None:
    """Those who declare their time away do so as the game starts (whole UTC days)."""
    for person in table.people:
        if person.declares and person.away is not None:
            first, last = (datetime.datetime.fromtimestamp(t, datetime.UTC).date().isoformat()
                           for t in (person.away[0], person.away[1] - 1))
            reply = await referee.vacation(GUILD, person.user, first, last)
            assert reply.ok, reply


async def _plan(referee: Referee, table: Table, rng: random.Random, now: float) -> None:
    """Note when each waiting seat's person answers its turn; mark the table ended if it is."""
    view = await referee.view(table.place)
    assert view is not None
    record, game = view
    if game.outcome() is not None:
        table.ended_at = now
        return
    turn = game.turn_count()
    timers = await referee.store.timers(record.id)
    table.next_deadline = min((t.due for t in timers), default=None)
    for seat in game.to_move():
        if table.answers.get(seat, (None,))[0] != turn:
            table.turns[seat] += 1
            table.answers[seat] = (turn, table.people[seat].answers(now, rng))
    for seat in list(table.answers):
        if seat not in game.to_move():
            del table.answers[seat]


def _next(table: Table, now: float) -> float:
    """When the table next needs looking at: a person answering, or just after its next timer
    fires (to see the turn that begins then), or a day on."""
    times = [when for _, when in table.answers.values() if when is not None]
    if table.next_deadline is not None:
        times.append(table.next_deadline + 1)
    return min(times, default=now + DAY)


async def _play_due(referee: Referee, table: Table, agent: RandomAgent, pings: Pings, now: float) -> None:
    for seat, (turn, when) in sorted(table.answers.items()):
        if when is None or when > now:
            continue
        for _ in range(6):  # a turn of several steps (a draw, then a lay) is answered at once
            view = await referee.view(table.place)
            assert view is not None
            _, game = view
            if game.outcome() is not None or seat not in game.to_move() or game.turn_count() != turn:
                break
            reply = await referee.act(table.place, table.people[seat].user, agent.choose(game, seat))
            pings.read(reply)
            if not reply.ok:
                break


async def _clock_turns(path: Path, tables: list[Table]) -> dict[str, Counter[int]]:
    """Per table, how many moves of each seat were made for its player: by the clock, a
    stand-in or a skip."""
    store = store_for(str(path))
    await store.open()
    try:
        played: dict[str, Counter[int]] = {}
        for table in tables:
            record = await store.table_at(table.place)
            assert record is not None
            played[table.place] = Counter(a.seat for a in await store.actions(record.id)
                                          if a.actor == "clock" or made_for_absent(a.actor))
        return played
    finally:
        await store.close()


def report(tables: list[Table], clock_turns: dict[str, Counter[int]], pings: Pings) -> list[dict[str, object]]:
    """One row per game and time control, and a last row over every table."""
    groups: dict[tuple[str, str], list[Table]] = defaultdict(list)
    for table in tables:
        groups[(table.game, table.control)].append(table)
    rows = []
    for (game, control), members in sorted(groups.items()):
        figures = _figures(members, clock_turns, pings)
        rows.append({"case": "absence", "game": game, "time_control": control} | figures)
    everyone: dict[str, object] = {"case": "absence_summary"} | _figures(tables, clock_turns, pings)
    everyone["finished_three_or_more"] = _share([t for t in tables if t.size >= 3], lambda t: t.ended_at is not None)
    rows.append(everyone)
    return rows


def _per_turn(counted: dict[tuple[str, int, int, int | None, str], int]) -> Counter[tuple[str, int, int, int | None]]:
    """The pings of each player's turn, whatever sent them (its beginning, a reminder)."""
    turns: Counter[tuple[str, int, int, int | None]] = Counter()
    for (place, seat, turn, clock_start, _kind), n in counted.items():
        turns[(place, seat, turn, clock_start)] += n
    return turns


def _figures(tables: list[Table], clock_turns: dict[str, Counter[int]], pings: Pings) -> dict[str, object]:
    finished = [t for t in tables if t.ended_at is not None]
    turns = sum(sum(t.turns.values()) for t in tables)
    places = {t.place for t in tables}
    counted = {key: n for key, n in pings.count.items() if key[0] in places}
    at_turns = sum(n for key, n in counted.items() if key[4] == "turn")
    reminders = sum(n for key, n in counted.items() if key[4] == "reminder")
    within = sum(clock_turns[t.place][seat] for t in tables for seat, person in enumerate(t.people)
                 if person.longest_absence() < t.allowance)
    return {
        "tables": len(tables),
        "finished": _share(tables, lambda t: t.ended_at is not None),
        "finished_with_everyone": _share(tables, lambda t: t.ended_at is not None and not clock_turns[t.place]),
        "median_days": round(statistics.median([(t.ended_at or 0.0) - t.started_at for t in finished]) / DAY, 2)
        if finished else None,
        "pings_per_turn": round(at_turns / turns, 2) if turns else None,
        "reminder_pings_per_turn": round(reminders / turns, 2) if turns else None,
        "turns_pinged_twice": sum(1 for n in _per_turn(counted).values() if n > 1),
        "timeouts_within_allowance": within,
    }


def _share(tables: list[Table], test: Callable[[Table], bool]) -> float:
    return round(sum(1 for t in tables if test(t)) / len(tables), 3) if tables else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--days", type=float, default=120)
    parser.add_argument("--controls", default="1d,bank", help="time controls, of: " + ", ".join(CONTROLS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "absence.sqlite3"
        tables, pings = asyncio.run(simulate(path, args.tables, args.days, args.controls.split(","), args.seed))
        clock_turns = asyncio.run(_clock_turns(path, tables))
    for row in report(tables, clock_turns, pings):
        print(json.dumps(row), flush=True)
    print(json.dumps({"case": "absence_run", "seconds": round(time.perf_counter() - began, 1)}))


if __name__ == "__main__":
    main()
