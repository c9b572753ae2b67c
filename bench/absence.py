"""Do games finish? Tables of every game and size played to the end on the real referee (an
SQLite file, the timer dispatcher, the stand-ins' AI worker, a manual clock) by simulated people
who move at human hours, go away for a day, a weekend or two weeks, or vanish: prints one JSON
line per game and time control, then a summary line and one about the run.

People (each table seeded apart, so a table plays the same in any shard): they answer a turn
after a delay (median two hours, at most twelve), only while awake (08:00 to 23:00 in their own
time zone), on the clock's five minutes; one in ten goes away for a day once, one in ten for a
weekend, one in twenty for two weeks, and one in twenty vanishes for good partway through. A
person plays a random legal move (the random agent: quick enough for a thousand games). Half of
those who go away for two weeks declare it ahead (`/vacation from: to:`). Someone a stand-in
replaced while they were away takes their turns back (`/back`) when they next look after it.

Time controls (`--controls`, each given an equal share of the tables): `1d` (a day a move) and
`bank` (`clock=3d+1d/7d`: three days, a day more a move, at most seven); tables of three or more
keep the default `absent=standin`. The tables are played until every game ends, or `--days`.

How it runs: the clock goes from one moment something happens to the next (a person answering
or coming back, or the clock's next wake: a deadline or reminder the dispatcher sleeps for), and
a table is looked at only then, or when something was announced there (a timeout, a stand-in's
moves). `--processes` referees play shares of the tables side by side, each with its own SQLite
file (`synchronous=NORMAL`: nothing crashes here); the outbox sweeps once a simulated day, since
everything is delivered as it happens (`undelivered` counts what it still held at the end).

Reported per game and time control:
- `finished`: the share of games that ended; `finished_three_or_more`: of those with three or
  more players (the issue's target: 98%);
- `finished_with_everyone`: the share that ended with every original player still playing
  their own turns (no turn played for them by the clock, a stand-in or a skip);
- `median_days`, `p90_days`: how long a finished game took;
- `pings_per_turn`: the messages that ping a player (`Reply.mentions`) as a turn of theirs
  begins (or, for a turn that began in their quiet hours, as those end), per turn of theirs;
  `reminder_pings_per_turn` the reminders' apart (a reminder pings only a turn nothing pinged);
  `turns_pinged_twice`: turns that pinged their player more than once, whatever sent the pings;
- `timeouts_within_allowance`: turns played for someone (by the clock, a stand-in or a skip)
  whose longest absence was shorter than what the table allows them: a move's time at `1d`, the
  starting bank plus the year's 21 vacation days at `bank` (a vanished player is never within it).
The run's line adds `unfinished` and `stalled` (unfinished tables that no person and no timer
would ever move again), and `unfinished_tables`: each unfinished table's game, size, time control
and the kind of each person at it ("steady", "a day away", ..., "vanishes").

    .venv/bin/python bench/absence.py [--tables 1000] [--days 365] [--controls 1d,bank] [--processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import heapq
import json
import logging
import math
import os
import pickle
import random
import statistics
import subprocess
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

from bot.core import absence
from bot.core.absence import made_for_absent
from bot.core.clock import ManualClock
from bot.core.meta import BEGAN
from bot.core.records import TableRecord, User
from bot.core.replies import Reply
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.loader import DEFAULT_GAME_CACHE
from bot.storage.sqlite import SQLiteStore
from engine import Game
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
TICK = 5 * 60
"""People look at their games on the clock's five minutes (an answer a few minutes later than
drawn): the tables' moves are played together, a few hundred moments a day at most."""

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
        return SLOWEST + TICK + max(NIGHT, away)

    def back_at(self, now: float) -> float | None:
        """When, from `now` on, they are back from their time away and looking (None: never)."""
        if self.gone_from is not None:
            return None
        moment = max(now, self.away[1]) if self.away else now
        moment += -moment % TICK
        while not self.present(moment):
            moment += 15 * 60
        return moment

    def comes_back(self, now: float) -> bool:
        """Whether, told that a stand-in plays their turns, they take them back now (`/back`)."""
        return self.back_at(now) == now

    def answers(self, since: float, rng: random.Random) -> float | None:
        """When they move on a turn that began at `since` (None: never)."""
        moment = since + min(SLOWEST, rng.lognormvariate(0.0, 1.0) * 2 * HOUR)
        moment += -moment % TICK
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
    rng: random.Random = field(default_factory=random.Random)
    """The table's own chance (its people's answers): a table plays the same in any shard."""
    turns: Counter[int] = field(default_factory=Counter)
    answers: dict[int, tuple[int, float | None]] = field(default_factory=dict)
    """Each waiting seat's turn (the game's turn count) and when its person answers."""
    standing_in: bool = False
    """Whether a stand-in plays for someone at the table (as last looked at)."""
    next_look: float = math.inf
    """When a person at the table next does something (answers, or comes back); inf: nobody will."""


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


async def simulate(path: Path, numbers: list[int], days: float, controls: list[str], seed: int
                   ) -> tuple[list[Table], Pings, dict[str, int]]:
    """Open the tables `numbers` (of the run's numbering: which game, size and time control each
    is, and its chance), play them until they end or `days` pass, and return them, the pings, and
    counts of what was left at the end (`unfinished`, `stalled`: unfinished tables that nobody
    and no timer would ever move again; `undelivered`: announcements the outbox still held)."""
    clock = ManualClock(START)
    pings = Pings()
    told: set[str] = set()

    async def notify(reply: Reply) -> None:
        """The transport: what the clock and the stand-ins did is announced here as it happens."""
        told.add(reply.place or "")
        await pings(reply)

    store = SQLiteStore(path, synchronous="NORMAL")  # no crash here: a commit need not reach the disk
    await store.open()
    seeds = iter(seed * 1_000_000 + number for number in numbers)  # each table's game, whatever the shard
    referee = Referee(store, clock=clock, render=False, notify=notify, seeds=lambda: next(seeds), ai_seconds=0.0,
                      confirms_delivery=False,  # a reply returned is delivered (no transport confirms it)
                      outbox_every=DAY,  # everything is delivered as it happens (counted as `undelivered`)
                      cache_size=max(DEFAULT_GAME_CACHE, len(numbers)))
    referee.timers.RECHECK_SECONDS = HOUR  # one process: every commit wakes the dispatcher itself
    await referee.open()
    agent = RandomAgent()
    kinds = [(game, size, control) for game, sizes in SIZES.items() for size in sizes for control in controls]
    tables: list[Table] = []
    places: dict[str, Table] = {}
    try:
        for number in numbers:
            game, size, control = kinds[number % len(kinds)]
            name, option, turn_time, allowance = CONTROLS[control]
            rng = random.Random(f"{seed}:{number}")
            table = Table(f"sim:{number}", game, size, name, allowance, people_for(rng, size, number, clock.now()),
                          rng=rng)
            await _open(referee, table, option, turn_time, pings)
            await _declare(referee, table, clock.now())
            table.started_at = clock.now()
            tables.append(table)
            places[table.place] = table
        await referee.ai.idle()
        await pings.settle(referee, places)
        told.clear()
        due: list[tuple[float, str]] = []
        for table in tables:
            await _look(referee, table, agent, pings, clock.now(), due)
        end = START + days * DAY
        playing = {t.place for t in tables if t.ended_at is None}
        while playing:
            while due and places[due[0][1]].next_look != due[0][0]:
                heapq.heappop(due)  # planned again since
            wakes = clock.next_wake()  # the timer dispatcher's next deadline or reminder, or the outbox's sweep
            moment = clock.now() if told else min(due[0][0] if due else math.inf, math.inf if wakes is None else wakes)
            if moment > end:
                break
            if moment > clock.now():
                await clock.advance(moment - clock.now())
            await referee.timers.idle()
            if told:  # a deadline fired: a stand-in may have a turn to play
                await referee.ai.idle()
            await pings.settle(referee, places)
            looks, now = set(told), clock.now()
            told.clear()
            while due and due[0][0] <= now:
                looks.add(heapq.heappop(due)[1])
            looked = [places[p] for p in sorted(looks) if p in places and places[p].ended_at is None]
            for table in looked:
                await _look(referee, table, agent, pings, now, due)
                if table.ended_at is not None:
                    playing.discard(table.place)
            if any(t.standing_in for t in looked):
                await referee.ai.idle()
            await pings.settle(referee, places)
        left = await _left(referee, tables)
    finally:
        await referee.close()
        await store.close()
    for table in tables:
        for seat in range(table.size):
            table.turns[seat] = max(table.turns[seat], 1)
    return tables, pings, left


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


async def _look(referee: Referee, table: Table, agent: RandomAgent, pings: Pings, now: float,
                due: list[tuple[float, str]]) -> None:
    """Look at a table now: each person whose answer is due plays their turn (all its steps), a
    person back from their time away whom a stand-in replaced takes their turns back (`/back`),
    then each waiting seat's person is given a moment to answer; the table's next look goes on
    `due`. Marks the table ended if it is."""
    view = await referee.view(table.place)
    assert view is not None
    record, game = view
    for seat, (turn, when) in sorted(table.answers.items()):
        for _step in range(6):  # a turn of several steps (a draw, then a lay) is answered at once
            if when is None or when > now or game.outcome() is not None:
                break
            if seat not in game.to_move() or game.turn_count() != turn:
                break
            reply = await referee.act(table.place, table.people[seat].user, agent.choose(game, seat),
                                      seen=len(game.log))  # what they saw, as a button or /move says
            pings.read(reply)
            view = await referee.view(table.place)
            assert view is not None
            record, game = view
            if not reply.ok:
                break
    for seat in absence.away(record):
        person = table.people[seat]
        if person.comes_back(now):
            reply = await referee.back(table.place, person.user)
            pings.read(reply)
            view = await referee.view(table.place)
            assert view is not None
            record, game = view
    _plan(table, record, game, now)
    if table.ended_at is None and table.next_look < math.inf:
        heapq.heappush(due, (table.next_look, table.place))


def _plan(table: Table, record: TableRecord, game: Game, now: float) -> None:
    """Note when each waiting seat's person answers its turn, and when the table is next looked
    at (a person answering, or one whom a stand-in replaced coming back); mark it ended if it is."""
    if game.outcome() is not None:
        table.ended_at = now
        return
    turn = game.turn_count()
    for seat in game.to_move():
        if table.answers.get(seat, (None,))[0] != turn:
            table.turns[seat] += 1
            table.answers[seat] = (turn, table.people[seat].answers(now, table.rng))
    for seat in list(table.answers):
        if seat not in game.to_move():
            del table.answers[seat]
    times = [when for _, when in table.answers.values() if when is not None]
    away = absence.away(record)
    table.standing_in = absence.STANDIN in away.values()
    times += [back for seat in away if (back := table.people[seat].back_at(now)) is not None]
    table.next_look = max(now + 60, min(times)) if times else math.inf


async def _left(referee: Referee, tables: list[Table]) -> dict[str, int]:
    """What the run left: unfinished tables, those of them stalled (no person would answer and no
    timer would fire), and announcements never delivered."""
    unfinished = [t for t in tables if t.ended_at is None]
    stalled = 0
    for table in unfinished:
        record = await referee.store.table_at(table.place)
        assert record is not None
        if table.next_look == math.inf and not await referee.store.timers(record.id):
            stalled += 1
    undelivered = 0
    for table in tables:
        record = await referee.store.table_at(table.place)
        assert record is not None
        undelivered += len(await referee.store.pending_notices(record.id))
    return {"unfinished": len(unfinished), "stalled": stalled, "undelivered": undelivered}


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
    rows.append({"case": "absence_summary"} | _figures(tables, clock_turns, pings))
    return rows


def _per_turn(counted: dict[tuple[str, int, int, int | None, str], int]) -> Counter[tuple[str, int, int, int | None]]:
    """The pings of each player's turn, whatever sent them (its beginning, a reminder)."""
    turns: Counter[tuple[str, int, int, int | None]] = Counter()
    for (place, seat, turn, clock_start, _kind), n in counted.items():
        turns[(place, seat, turn, clock_start)] += n
    return turns


def _figures(tables: list[Table], clock_turns: dict[str, Counter[int]], pings: Pings) -> dict[str, object]:
    finished = [t for t in tables if t.ended_at is not None]
    crowded = [t for t in tables if t.size >= 3]
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
        "finished_three_or_more": _share(crowded, lambda t: t.ended_at is not None) if crowded else None,
        "median_days": _days(finished, 0.5),
        "p90_days": _days(finished, 0.9),
        "pings_per_turn": round(at_turns / turns, 2) if turns else None,
        "reminder_pings_per_turn": round(reminders / turns, 2) if turns else None,
        "turns_pinged_twice": sum(1 for n in _per_turn(counted).values() if n > 1),
        "timeouts_within_allowance": within,
    }


def _days(finished: list[Table], share: float) -> float | None:
    """How many days the finished games took, at most, for `share` of them (0.5: the median)."""
    if not finished:
        return None
    lengths = sorted((t.ended_at or 0.0) - t.started_at for t in finished)
    if share == 0.5:
        return round(statistics.median(lengths) / DAY, 1)
    return round(lengths[max(0, math.ceil(share * len(lengths)) - 1)] / DAY, 1)


def _share(tables: list[Table], test: Callable[[Table], bool]) -> float:
    return round(sum(1 for t in tables if test(t)) / len(tables), 3) if tables else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--days", type=float, default=365, help="the longest the tables are played, in days")
    parser.add_argument("--controls", default="1d,bank", help="time controls, of: " + ", ".join(CONTROLS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                        help="referees run side by side, each with its own share of the tables and its own SQLite file")
    parser.add_argument("--shard", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.shard is not None:  # one referee's share, handed back to the process that started it
        with open(args.out, "wb") as out:
            pickle.dump(_shard(args, args.shard), out)
        return
    began, busy = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        shares = [Path(folder) / f"share{k}.pickle" for k in range(max(1, args.processes))]
        workers = [subprocess.Popen([sys.executable, __file__, *sys.argv[1:], "--shard", str(k), "--out", str(share)])
                   for k, share in enumerate(shares)]
        if any(worker.wait() != 0 for worker in workers):
            raise SystemExit("a share of the tables failed")
        results = [pickle.loads(share.read_bytes()) for share in shares]
    tables = sorted((t for result in results for t in result[0]), key=lambda t: int(t.place.split(":")[1]))
    pings = Pings()
    clock_turns: dict[str, Counter[int]] = {}
    left: Counter[str] = Counter()
    for _tables, counted, turned, remaining, _cpu in results:
        pings.count.update(counted)
        clock_turns.update(turned)
        left.update(remaining)
    for row in report(tables, clock_turns, pings):
        print(json.dumps(row), flush=True)
    seconds = time.perf_counter() - began
    last = max((t.ended_at for t in tables if t.ended_at is not None), default=START)
    print(json.dumps({"case": "absence_run", "tables": len(tables), "processes": len(results),
                      "seconds": round(seconds, 1), "seconds_per_table": round(seconds / len(tables), 3),
                      "cpu_seconds": round(sum(r[4] for r in results) + time.process_time() - busy, 1),
                      "simulated_days": round((last - START) / DAY, 1),
                      "load": [round(x, 2) for x in os.getloadavg()]} | dict(left)
                     | {"unfinished_tables": [_who_sat(t) for t in tables if t.ended_at is None]}))


def _who_sat(table: Table) -> str:
    """A table in a line: its game, size and time control, and the kind of each person at it."""
    return f"{table.game} of {table.size}, {table.control}: {', '.join(p.kind for p in table.people)}"


def _shard(args: argparse.Namespace, shard: int) -> tuple[list[Table], Counter[tuple[str, int, int, int | None, str]],
                                                         dict[str, Counter[int]], dict[str, int], float]:
    """Play one share of the tables (every `processes`-th) on a referee of its own: the tables,
    the pings counted, the moves made for absent players, what was left, and the CPU seconds."""
    busy = time.process_time()
    numbers = list(range(shard, args.tables, max(1, args.processes)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "absence.sqlite3"
        tables, pings, left = asyncio.run(simulate(path, numbers, args.days, args.controls.split(","), args.seed))
        clock_turns = asyncio.run(_clock_turns(path, tables))
    for table in tables:
        table.rng = random.Random()  # not needed any more
    return tables, pings.count, clock_turns, left, time.process_time() - busy


if __name__ == "__main__":
    main()
