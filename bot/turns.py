"""One command's changes to a table, committed together.

A `Turn` applies actions to a table's game (the player's, then any AI seats' and the clock's),
keeps the events, notes when each seat started waiting (for its deadline), and commits the new
log entries, the table record and the table's timers in one transaction.
"""

from __future__ import annotations

from bot.records import DEADLINE, FINISHED, PLAYING, ActionRecord, TableRecord, Timer
from bot.store import Store
from bot.timers import plan_timers
from engine import Event, Game
from engine.ai import agent
from engine.core import RESIGN

AI_STEP_LIMIT = 20_000


class Turn:
    def __init__(self, store: Store, table: TableRecord, game: Game, timers_before: list[Timer], now: float,
                 reminders: list[str]) -> None:
        self.store = store
        self.table = table
        self.game = game
        self.now = now
        self.reminders = reminders
        self.start_length = len(game.log)
        self.actions: list[ActionRecord] = []
        self.events: list[Event] = []
        self.timers_before = timers_before
        self.timers_after: list[Timer] = []
        turn = table.turn_seconds or 0
        self.waiting: dict[int, tuple[int, float]] = {
            t.seat: (t.ply, t.due - turn) for t in timers_before if t.kind == DEADLINE}
        self._observe()

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

    def time_out(self, seat: int, actor: str) -> list[Event]:
        """Apply what a missed deadline does for `seat`."""
        events: list[Event] = []
        for action in self.game.timeout_actions(seat):
            events += self.apply(seat, action, actor)
        return events

    def play_ai(self) -> None:
        """Let AI seats act until the game waits for a person or ends."""
        for _ in range(AI_STEP_LIMIT):
            if self.game.outcome() is not None:
                return
            robots = [s for s in self.game.to_move() if self.table.seats[s].is_ai]
            if not robots:
                return
            seat = robots[0]
            name = self.table.seats[seat].agent or "greedy"
            self.apply(seat, agent(name).choose(self.game, seat), f"ai:{name}")
        raise RuntimeError(f"table {self.table.id}: AI seats made {AI_STEP_LIMIT} moves without stopping")

    def _record(self, seat: int, action: str, actor: str, events: list[Event]) -> None:
        self.actions.append(ActionRecord(len(self.game.log), seat, action, actor, self.now))
        self.events += events
        self._observe()

    def _observe(self) -> None:
        """Start the clock for seats that just began waiting; stop it for those that stopped."""
        people = {s for s in self.game.to_move() if not self.table.seats[s].is_ai}
        self.waiting = {s: v for s, v in self.waiting.items() if s in people}
        for seat in people - self.waiting.keys():
            self.waiting[seat] = (len(self.game.log), self.now)

    # ---- finishing --------------------------------------------------------------------------

    @property
    def changed(self) -> bool:
        return bool(self.actions)

    @property
    def deadlines(self) -> dict[int, float]:
        """Each clocked seat's deadline, as committed."""
        return {t.seat: t.due for t in self.timers_after if t.kind == DEADLINE}

    def planned_timers(self) -> list[Timer]:
        if self.table.status != PLAYING or self.table.paused:
            return []
        return plan_timers(self.table.id, self.waiting, self.timers_before, self.table.turn_seconds,
                           self.reminders)

    async def commit(self, *, undo_after: int | None = None, expected: int | None = None) -> list[Timer]:
        """Write everything; the game must not have been changed by anyone else meanwhile."""
        if self.game.outcome() is not None and self.table.status == PLAYING:
            self.table.status = FINISHED
        timers = self.planned_timers()
        await self.store.commit(self.table.id, expected=self.start_length if expected is None else expected,
                                actions=self.actions, table=self.table, timers=timers, undo_after=undo_after)
        self.timers_after = timers
        return timers
