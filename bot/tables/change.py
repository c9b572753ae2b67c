"""One command's changes to a table, committed together.

A `Change` applies actions to a table's game (the player's or one AI seat's, then the forced
ones, or the clock's), keeps the events, notes when each seat's turn began (for its deadline),
and commits the new log entries, the table record, the table's timers and the announcements in
one transaction. When the game then waits for an AI seat, the timers include an AI turn (kind
`AI_TURN`): due work that `bot.durable.ai_turns` plays later, never within the command.

Every new turn gets a fresh deadline: the game's `turn_count` says when one begins (the same
seat's next turn included, and each new round). Within a turn (a draw before laying) the deadline
stands, so nobody can stall by acting without ending their turn.

With a bank (`bot.core.time_controls.Bank`), each seat's turn may last what is left in its bank;
when the turn ends, the time its clock ran is taken from the bank and the increment added (up to
the cap). A seat's clock never runs while its player is unavailable (`off`: vacations, and any
other source `Tables` is given). The banks and when each turn began are kept in the table's meta,
so they are committed with the table and every process computes the same deadlines; so is each
move's effect on the banks (`BANK_LOG`, by the log's length), so a rollback to a move restores
the banks exactly as they were then (`banks_at`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from contextvars import ContextVar

from bot.community.vacations import vacationing
from bot.core import absence
from bot.core.meta import BANK_LOG, BANKS, BEGAN, CLOCK, PINGED, WAITING
from bot.core.records import (
    AI_TURN,
    DEADLINE,
    FINISHED,
    LATE_PING,
    PLAYING,
    ActionRecord,
    Notice,
    SeatRecord,
    TableRecord,
    Timer,
)
from bot.core.running_time import Interval, deadline_at, running_seconds
from bot.core.time_controls import Bank
from bot.storage.standings import PlayerChoices, Write
from bot.storage.store import PlaceTaken, StaleLog, StaleTable, Store
from bot.storage.vacations import VacationTaken
from bot.tables.deadlines import bank_points, plan_clock, plan_timers
from engine import Event, Game
from engine.core import CHANCE, RESIGN

FORCED_STEP_LIMIT = 20_000
class Unconfirmed(Exception):
    """The store did not confirm a commit (its answer was lost, or it failed after writing):
    `stored` True if the turn's actions are in the log all the same, None if that cannot be told."""

    def __init__(self, stored: bool | None) -> None:
        super().__init__("the commit was not confirmed" + (" but is in the log" if stored else ""))
        self.stored = stored


COMMITTED: ContextVar[bool] = ContextVar("tileref_committed", default=False)
"""Whether the command being served has committed a change (`Tables.guarded` reads it: a
failure after a commit must never be reported as "nothing was changed")."""


async def confirmed(write: Awaitable[None]) -> None:
    """Run a write of the store; StaleLog, StaleTable and PlaceTaken (nothing written) pass, and
    any other failure becomes `Unconfirmed(None)`: the write may have been made."""
    try:
        await write
    except (StaleLog, StaleTable, PlaceTaken):
        raise
    except Exception as error:
        raise Unconfirmed(None) from error
    COMMITTED.set(True)


class Change:
    """One command's change to a table: its actions, events and new timers until it is committed
    (a player's turn, an AI seat's turn and a timer are other things)."""

    def __init__(self, store: Store, table: TableRecord, game: Game, timers_before: list[Timer], now: float,
                 reminders: list[str], *, beginning: bool = False,
                 off: dict[int, list[Interval]] | None = None,
                 vacations: dict[int, list[Interval]] | None = None,
                 choices: Mapping[str, PlayerChoices] | None = None) -> None:
        """`beginning`: the game (re)starts here (a deal, a rollback), so every seat it waits for
        begins a turn now. `off`: each seat's intervals when its player is unavailable (its
        clock does not run then: vacations, quiet hours); `vacations`: those that are vacations.
        `choices`: the players' choices that hold everywhere (quiet hours, the standing list),
        read once for the change and read from here by every step of it."""
        self.store = store
        self.table = table
        self.game = game
        self.now = now
        self.reminders = reminders
        self.start_length = len(game.log)
        self.actions: list[ActionRecord] = []
        self.events: list[Event] = []
        self.forced: list[tuple[int, str, int]] = []
        """Actions the rules made for a seat (a pass when nothing else is legal), each with the
        number of events told before it (where it goes in the story of the turn)."""
        self.timers_before = timers_before
        self.timers_after: list[Timer] | None = None
        self.off = off or {}
        """Each seat's intervals when its player's clock does not run (vacations, quiet hours)."""
        self.vacations = vacations or {}
        """Each seat's vacations alone (what the board says)."""
        self.choices: Mapping[str, PlayerChoices] = choices or {}
        """The players' choices that hold everywhere, by user id (read once for the change)."""
        self.late_pings: dict[int, float] = {}
        """Seats whose turn began in their player's quiet hours, and when those end (`ping_later`)."""
        self.bank = Bank.from_data(table.meta.get(CLOCK)) if table.turn_seconds else None
        self.banks: dict[int, float] = {int(s): float(v) for s, v in dict(table.meta.get(BANKS) or {}).items()}
        """Each seat's bank when its current (or last) turn began (bank tables)."""
        turn = table.turn_seconds or 0
        began = table.meta.get(BEGAN)
        self.waiting: dict[int, tuple[int, float]]
        if beginning:
            self.waiting = {}
        elif isinstance(began, dict):
            self.waiting = {int(s): (int(v[0]), float(v[1])) for s, v in began.items()}
        else:  # a table from before turns were noted in its meta
            self.waiting = {t.seat: (t.ply, t.due - turn) for t in timers_before if t.kind == DEADLINE}
        self.waited_before: set[int] = {int(s) for s in table.meta.get(WAITING) or []}
        """The seats of people the game waited for before this command."""
        self.fresh: set[int] = set()
        """Seats whose turn began during this command (they are the ones to ping)."""
        self.went_away: list[int] = []
        """Seats whose players were marked absent by this change (their time ran out)."""
        self.returned: list[int] = []
        """Seats whose absent players came back with this change (a move of theirs, or /back)."""
        self.began_by: str | None = None
        """Who issued a command that acts for no seat (Start, a rollback): a turn it begins for
        them is one they began themselves."""
        self._turn_count = game.turn_count()
        self._observe()
        if not beginning:
            self.fresh.clear()
        else:  # every turn begins anew (a rollback may bring back one that pinged): each pings again
            table.meta.pop(PINGED, None)

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
        ended = self.waiting.pop(seat, None)
        if ended is not None:
            self._settle(seat, ended[1])
        self._observe()
        return events

    def away(self, seat: int, mode: str) -> None:
        """Mark `seat`'s player absent (`absent=standin` or `skip`): from now on a stand-in plays
        their turns (the seat's clock stops; `plan` gives it an AI turn), or their turns are
        skipped (`play_forced`), until they come back."""
        absence.mark_away(self.table, seat, mode)
        self.went_away.append(seat)
        self.waiting.pop(seat, None)
        self._observe()

    def come_back(self, seat: int) -> bool:
        """Mark `seat`'s absent player present again: their clock starts afresh if it is their
        turn. False if they were not away."""
        if not absence.come_back(self.table, seat):
            return False
        self.returned.append(seat)
        self._observe()
        return True

    def play_forced(self) -> None:
        """Make the actions the rules force (a pass when nothing else is legal), and the turns of
        absent players whose turns are skipped (`absent=skip`: the game's timeout move, while
        someone present is still in the game), until the game waits for someone's choice (a
        person's or an AI seat's) or ends."""
        for _ in range(FORCED_STEP_LIMIT):
            if self.game.outcome() is not None:
                return
            forced = next(((s, a) for s in self.game.to_move() if (a := self.game.forced_action(s)) is not None),
                          None)
            if forced is None:
                if self._skip_absent():
                    continue
                return
            seat, action = forced
            before = len(self.events)
            self.apply(seat, action, "rules")
            self.forced.append((seat, self.game.log[-1][1], before))
        raise RuntimeError(f"table {self.table.id}: forced moves went on for {FORCED_STEP_LIMIT} steps")

    def _skip_absent(self) -> bool:
        """Make the timeout move of one skipped absent player the game waits for; False if there
        is none, or nobody present is left in the game to play on with (then the clock runs for
        them as for anyone, so a table of absent players never passes forever)."""
        marked = absence.away(self.table)
        if not any(mode == absence.SKIP for mode in marked.values()):
            return False
        playing = [s for s in range(min(self.game.players, len(self.table.seats))) if not self.game.is_resigned(s)]
        if not absence.any_present(self.table, playing):
            return False
        for seat in self.game.to_move():
            if marked.get(seat) == absence.SKIP and self.game.timeout_actions(seat):
                self.time_out(seat, absence.ABSENT_ACTOR)
                return True
        return False

    def ai_seat(self) -> int | None:
        """The AI seat to play next: the first seat played by an AI that the game waits for (an
        AI seat, or a stand-in for an absent player; those of a game where everyone moves at once
        play one after another), or None."""
        if self.game.outcome() is not None:
            return None
        return next((s for s in self.game.to_move() if absence.played_by_ai(self.table, s)), None)

    def _record(self, seat: int, action: str, actor: str, events: list[Event]) -> None:
        self.actions.append(ActionRecord(len(self.game.log), seat, action, actor, self.now))
        self.events += events
        if 0 <= seat < len(self.table.seats) and actor == self.table.seats[seat].user_id and action != RESIGN \
                and absence.come_back(self.table, seat):
            self.returned.append(seat)  # any move of their own brings an absent player back
        self._observe()

    def _observe(self) -> None:
        """Start a fresh clock for seats whose turn just began; stop it for those that stopped."""
        before = dict(self.waiting)
        count = self.game.turn_count()
        if count != self._turn_count:
            self._turn_count = count
            self.waiting.clear()
        people = {s for s in self.game.to_move() if not absence.played_by_ai(self.table, s)}
        self.waiting = {s: v for s, v in self.waiting.items() if s in people}
        for seat, (_ply, since) in before.items():
            if seat not in self.waiting:
                self._settle(seat, since)
        for seat in sorted(people - self.waiting.keys()):
            self.waiting[seat] = (len(self.game.log), self.now)
            self.fresh.add(seat)
        self.fresh &= people

    # ---- the clock --------------------------------------------------------------------------

    def _settle(self, seat: int, since: float) -> None:
        """A bank seat's turn that began at `since` has ended now: the time its clock ran is
        taken from its bank and the increment added (up to the cap). While the clock is
        paused by a moderator, nothing more is taken."""
        if self.bank is None:
            return
        ran = 0.0 if self.table.paused else running_seconds(since, self.now, self.off.get(seat, ()))
        self.banks[seat] = self.bank.after_move(self.bank_of(seat) - ran)
        self._log_banks()

    def _log_banks(self) -> None:
        """Note the banks as they now stand against the log's length (`BANK_LOG`)."""
        logged = self.table.meta.setdefault(BANK_LOG, {})
        logged[str(len(self.game.log))] = {str(s): b for s, b in sorted(self.banks.items())}

    def banks_at(self, ply: int) -> None:
        """A rollback to move `ply`: every bank goes back to what it held then (the last note at
        or before it; the starting bank before any), and the notes after it are dropped."""
        if self.bank is None:
            return
        logged = {int(p): entry for p, entry in dict(self.table.meta.get(BANK_LOG) or {}).items()}
        kept = {p: entry for p, entry in logged.items() if p <= ply}
        last = kept[max(kept)] if kept else {}
        self.banks = {int(s): float(b) for s, b in last.items()}
        self.table.meta[BANK_LOG] = {str(p): entry for p, entry in sorted(kept.items())}

    def bank_of(self, seat: int) -> float:
        """What `seat`'s bank held when its current (or last) turn began."""
        assert self.bank is not None
        return self.banks.get(seat, float(self.bank.start))

    def runs_out(self, seat: int) -> float | None:
        """When `seat`'s current turn runs out, counting its player's unavailable intervals
        (None if it has no clock running)."""
        if seat not in self.waiting or not self.table.turn_seconds:
            return None
        _ply, since = self.waiting[seat]
        return deadline_at(since, self._budget(seat, since), self.off.get(seat, ()), self.now)

    def _budget(self, seat: int, since: float) -> float:
        """The running seconds the turn that began at `since` may last."""
        if self.bank is not None:
            return self.bank_of(seat)
        turn = self.table.turn_seconds or 0
        return self.game.deadline(since, turn) - since

    def on_vacation(self) -> dict[int, float]:
        """The waiting seats whose players are on vacation now, and until when."""
        return {seat: until for seat, until in vacationing(self.now, self.vacations).items() if seat in self.waiting}

    def hold_clocks(self) -> None:
        """A moderator pauses the clock: with a bank, what each waiting seat's clock has run
        so far is taken from its bank now (nothing runs while paused)."""
        if self.bank is None:
            return
        for seat, (ply, since) in list(self.waiting.items()):
            ran = running_seconds(since, self.now, self.off.get(seat, ()))
            self.banks[seat] = max(0.0, self.bank_of(seat) - ran)
            self.waiting[seat] = (ply, self.now)

    def release_clocks(self) -> None:
        """A moderator resumes a bank table's clock: every waiting seat's turn goes on from now
        with what its bank held when the clock stopped."""
        for seat, (ply, _since) in list(self.waiting.items()):
            self.waiting[seat] = (ply, self.now)

    # ---- finishing --------------------------------------------------------------------------

    @property
    def changed(self) -> bool:
        return bool(self.actions)

    def plan(self) -> list[Timer]:
        """The timers the table will have after this command (also `deadlines`)."""
        if self.game.outcome() is not None and self.table.status == PLAYING:
            self.table.status = FINISHED
        playing = self.table.status == PLAYING
        self.table.meta[WAITING] = sorted(self.waiting) if playing else []
        self.table.meta[BEGAN] = {str(s): [ply, since] for s, (ply, since) in sorted(self.waiting.items())
                                  } if playing else {}
        if self.bank is not None:
            self.table.meta[BANKS] = {str(s): self.bank_of(s) for s in range(len(self.table.seats))
                                      if not self.table.seats[s].is_ai}
        if not playing or self.table.paused:
            self.timers_after = []
            return self.timers_after
        if self.bank is not None:
            budgets = {seat: self.bank_of(seat) for seat in self.waiting}
            self.timers_after = plan_clock(self.table.id, self.waiting, self.timers_before, budgets,
                                           lambda budget: bank_points(budget, self.reminders), self.off, self.now)
        else:
            self.timers_after = plan_timers(self.table.id, self.waiting, self.timers_before,
                                            self.table.turn_seconds, self.reminders, self.game.deadline,
                                            self.off, self.now)
        self.timers_after += self._late_ping_timers()
        robot = self.ai_seat()
        if robot is not None:  # an AI seat's turn: due now (or since it first was, if it still is)
            ply = len(self.game.log)
            due = next((t.due for t in self.timers_before if t.kind == AI_TURN and t.seat == robot and t.ply == ply),
                       self.now)
            self.timers_after.append(Timer(self.table.id, robot, AI_TURN, due, ply))
        return self.timers_after

    def ping_later(self, seats: Mapping[int, float]) -> None:
        """Ping these seats' players when their quiet hours end (seat -> moment), if their turn is
        still theirs then: a timer each, committed with the change (`LATE_PING`)."""
        self.late_pings.update({s: when for s, when in seats.items() if s in self.waiting})
        if self.timers_after is not None and self.table.status == PLAYING and not self.table.paused:
            self.timers_after = [t for t in self.timers_after if t.kind != LATE_PING] + self._late_ping_timers()

    def _late_ping_timers(self) -> list[Timer]:
        """The late pings the table keeps: those this change asked for, and those of turns still
        waiting as they were, whose player has not acted in this change."""
        acted = {a.seat for a in self.actions}
        kept = {t.seat: t for t in self.timers_before if t.kind == LATE_PING and t.seat in self.waiting
                and self.waiting[t.seat][0] == t.ply and t.seat not in acted and t.seat not in self.fresh}
        timers = {seat: Timer(self.table.id, seat, LATE_PING, t.due, t.ply) for seat, t in kept.items()}
        for seat, when in self.late_pings.items():
            if seat in self.waiting:
                timers[seat] = Timer(self.table.id, seat, LATE_PING, when, self.waiting[seat][0])
        return [timers[s] for s in sorted(timers)]

    @property
    def deadlines(self) -> dict[int, float]:
        """Each clocked seat's deadline after this command."""
        timers = self.timers_after if self.timers_after is not None else self.plan()
        return {t.seat: t.due for t in timers if t.kind == DEADLINE}

    async def commit(self, *, undo_after: int | None = None, expected: int | None = None,
                     notices: Sequence[Notice] = (), also: Write | None = None,
                     spent: int | None = None) -> list[Timer]:
        """Write everything (and what `also` writes, in the same transaction); the game must not
        have been changed by anyone else meanwhile. `spent`: the id of the AI turn this commit
        plays (StaleLog if it is gone: an AI turn is played once).
        Raises StaleLog or StaleTable if it was (nothing written), the store's error if the
        turn is known not to be written, and `Unconfirmed` if it may have been (or was) written
        although the store failed to say so."""
        timers = self.timers_after if self.timers_after is not None else self.plan()
        try:
            await self.store.commit(self.table.id, expected=self.start_length if expected is None else expected,
                                    actions=self.actions, table=self.table, timers=timers, undo_after=undo_after,
                                    notices=notices, also=also, delete_timer=spent)
        except (StaleLog, StaleTable, PlaceTaken, VacationTaken):
            raise
        except Exception as error:
            stored = await self.stored()
            if stored is False:
                raise
            raise Unconfirmed(stored) from error
        COMMITTED.set(True)
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
