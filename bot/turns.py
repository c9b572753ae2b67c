"""One command's changes to a table, committed together.

A `Turn` applies actions to a table's game (the player's, then the forced ones, the AI seats'
and the clock's), keeps the events, notes when each seat's turn began (for its deadline), and
commits the new log entries, the table record, the table's timers and the announcements in one
transaction.

Every new turn gets a fresh deadline: the game's `turn_count` says when one begins (the same
seat's next turn included, and each new round). Within a turn (a draw before laying) the deadline
stands, so nobody can stall by acting without ending their turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

from bot.records import DEADLINE, FINISHED, PLAYING, ActionRecord, Notice, SeatRecord, TableRecord, Timer
from bot.standings import Write
from bot.store import PlaceTaken, StaleLog, StaleTable, Store
from bot.timers import plan_timers
from engine import Event, Game
from engine.ai import agent
from engine.core import CHANCE, RESIGN

AI_STEP_LIMIT = 20_000
WAITING = "waiting"
"""The table meta key listing the seats of people the game waits for (what /games reads)."""


class Unconfirmed(Exception):
    """The store did not confirm a commit (its answer was lost, or it failed after writing):
    `stored` True if the turn's actions are in the log all the same, None if that cannot be told."""

    def __init__(self, stored: bool | None) -> None:
        super().__init__("the commit was not confirmed" + (" but is in the log" if stored else ""))
        self.stored = stored


async def confirmed(write: Awaitable[None]) -> None:
    """Run a write of the store; StaleLog, StaleTable and PlaceTaken (nothing written) pass, and
    any other failure becomes `Unconfirmed(None)`: the write may have been made."""
    try:
        await write
    except (StaleLog, StaleTable, PlaceTaken):
        raise
    except Exception as error:
        raise Unconfirmed(None) from error


class Turn:
    def __init__(self, store: Store, table: TableRecord, game: Game, timers_before: list[Timer], now: float,
                 reminders: list[str], *, beginning: bool = False) -> None:
        """`beginning`: the game (re)starts here (a deal, a rollback), so every seat it waits for
        begins a turn now."""
        self.store = store
        self.table = table
        self.game = game
        self.now = now
        self.reminders = reminders
        self.start_length = len(game.log)
        self.actions: list[ActionRecord] = []
        self.events: list[Event] = []
        self.forced: list[tuple[int, str]] = []
        """Actions the rules made for a seat (a pass when nothing else is legal)."""
        self.timers_before = timers_before
        self.timers_after: list[Timer] | None = None
        turn = table.turn_seconds or 0
        self.waiting: dict[int, tuple[int, float]] = {
            t.seat: (t.ply, t.due - turn) for t in timers_before if t.kind == DEADLINE}
        self.fresh: set[int] = set()
        """Seats whose turn began during this command (they are the ones to ping)."""
        self.began_by: str | None = None
        """Who issued a command that acts for no seat (Start, a rollback): a turn it begins for
        them is one they began themselves."""
        self._turn_count = game.turn_count()
        self._observe()
        if not beginning:
            self.fresh.clear()

    # ---- acting -------------------------------------------------------------------------

    def apply(self, seat: int, action: str, actor: str) -> list[Event]:
        """Play an action (raises GameError, changing nothing, if it is refused)."""
        events = self.game.apply(seat, action)
        self._record(seat, self.game.log[-1][1], actor, events)
        return events

    def resign(self, seat: int, actor: str) -> list[Event]:
        events = self.game.resign(seat)
        self._record(seat, RESIGN, actor, events)
        return events

    def join(self, name: str, user_id: str) -> list[Event]:
        """Seat a new player in the running game (raises GameError, changing nothing, if the
        game does not let them)."""
        self.table.seats.append(SeatRecord(len(self.table.seats), name, user_id))
        try:
            events = self.game.join(name)
        except BaseException:
            self.table.seats.pop()
            raise
        self._record(len(self.table.seats) - 1, self.game.log[-1][1], user_id, events)
        return events

    def reshuffle(self, seed: int, actor: str) -> None:
        """Deal everything no seat has seen again (after a rollback)."""
        self.game.reshuffle(seed)
        self._record(-1, f"{CHANCE} {seed}", actor, [])

    def time_out(self, seat: int, actor: str) -> list[Event]:
        """Apply what a missed deadline does for `seat`. Its deadline is spent either way: if the
        game still waits for the seat, a fresh turn (and deadline) begins, so a timeout fires once."""
        events: list[Event] = []
        for action in self.game.timeout_actions(seat):
            events += self.apply(seat, action, actor)
        self.waiting.pop(seat, None)
        self._observe()
        return events

    async def play_automatic(self, budget: float) -> None:
        """Make the forced actions and let AI seats act (each at its level, `engine.ai.agent`:
        `normal` planning for at most `budget` seconds, `hard` longer; in a worker thread so the
        bot stays responsive), until the game waits for a person's choice or ends. Each AI action
        is logged with its level as the actor (`ai:hard`)."""
        for _ in range(AI_STEP_LIMIT):
            if self.game.outcome() is not None:
                return
            waiting = self.game.to_move()
            forced = next(((s, a) for s in waiting if (a := self.game.forced_action(s)) is not None), None)
            if forced is not None:
                seat, action = forced
                self.apply(seat, action, "rules")
                self.forced.append((seat, self.game.log[-1][1]))
                continue
            robots = [s for s in waiting if self.table.seats[s].is_ai]
            if not robots:
                return
            seat = robots[0]
            name = self.table.seats[seat].agent or "normal"
            choice = await asyncio.to_thread(agent(name, budget=budget).choose, self.game, seat)
            self.apply(seat, choice, f"ai:{name}")
        raise RuntimeError(f"table {self.table.id}: automatic moves went on for {AI_STEP_LIMIT} steps")

    def _record(self, seat: int, action: str, actor: str, events: list[Event]) -> None:
        self.actions.append(ActionRecord(len(self.game.log), seat, action, actor, self.now))
        self.events += events
        self._observe()

    def _observe(self) -> None:
        """Start a fresh clock for seats whose turn just began; stop it for those that stopped."""
        count = self.game.turn_count()
        if count != self._turn_count:
            self._turn_count = count
            self.waiting.clear()
        people = {s for s in self.game.to_move() if not self.table.seats[s].is_ai}
        self.waiting = {s: v for s, v in self.waiting.items() if s in people}
        for seat in sorted(people - self.waiting.keys()):
            self.waiting[seat] = (len(self.game.log), self.now)
            self.fresh.add(seat)
        self.fresh &= people

    # ---- finishing --------------------------------------------------------------------------

    @property
    def changed(self) -> bool:
        return bool(self.actions)

    def plan(self) -> list[Timer]:
        """The timers the table will have after this command (also `deadlines`)."""
        if self.game.outcome() is not None and self.table.status == PLAYING:
            self.table.status = FINISHED
        self.table.meta[WAITING] = sorted(self.waiting) if self.table.status == PLAYING else []
        if self.table.status != PLAYING or self.table.paused:
            self.timers_after = []
        else:
            self.timers_after = plan_timers(self.table.id, self.waiting, self.timers_before,
                                            self.table.turn_seconds, self.reminders, self.game.deadline)
        return self.timers_after

    @property
    def deadlines(self) -> dict[int, float]:
        """Each clocked seat's deadline after this command."""
        timers = self.timers_after if self.timers_after is not None else self.plan()
        return {t.seat: t.due for t in timers if t.kind == DEADLINE}

    async def commit(self, *, undo_after: int | None = None, expected: int | None = None,
                     notices: Sequence[Notice] = (), also: Write | None = None) -> list[Timer]:
        """Write everything (and what `also` writes, in the same transaction); the game must not
        have been changed by anyone else meanwhile.
        Raises StaleLog or StaleTable if it was (nothing written), the store's error if the
        turn is known not to be written, and `Unconfirmed` if it may have been (or was) written
        although the store failed to say so."""
        timers = self.timers_after if self.timers_after is not None else self.plan()
        try:
            await self.store.commit(self.table.id, expected=self.start_length if expected is None else expected,
                                    actions=self.actions, table=self.table, timers=timers, undo_after=undo_after,
                                    notices=notices, also=also)
        except (StaleLog, StaleTable, PlaceTaken):
            raise
        except Exception as error:
            stored = await self.stored()
            if stored is False:
                raise
            raise Unconfirmed(stored) from error
        return timers

    async def stored(self) -> bool | None:
        """Whether this turn's actions are in the store's log, as read now; None when that cannot
        be told (the turn has no actions, or the store cannot be read)."""
        if not self.actions:
            return None
        try:
            found = await self.store.actions(self.table.id, after=self.start_length)
        except Exception:
            return None
        mine = [(a.ply, a.seat, a.action, a.actor) for a in self.actions]
        return [(a.ply, a.seat, a.action, a.actor) for a in found[:len(mine)]] == mine
