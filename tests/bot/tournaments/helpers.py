"""A real referee on a real database with a manual clock, a tournament runner and desk over it,
and the tournament's messages collected as they are posted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.clock import ManualClock
from bot.core.records import User
from bot.core.replies import Attachment, plain
from bot.service.referee import Referee
from bot.storage.tournaments import TournamentMessage, TournamentView
from bot.tournaments.desk import TournamentDesk
from bot.tournaments.runner import TournamentRunner
from tests.bot.referees import running_referee

MOD = User("test:mod", "mod", moderator=True)
CHANNEL = "test:lobby"


def player(index: int) -> User:
    return User(f"test:p{index}", f"P{index}")


@dataclass
class Posted:
    """The tournament messages posted, in order."""

    messages: list[TournamentMessage] = field(default_factory=list)

    async def __call__(self, message: TournamentMessage, attachments: list[Attachment]) -> None:
        self.messages.append(message)

    def keys(self) -> list[str]:
        return [m.key for m in self.messages]

    def text(self, key: str) -> str:
        return plain(next(m.data["text"] for m in self.messages if m.key == key))


@dataclass
class Event:
    referee: Referee
    runner: TournamentRunner
    desk: TournamentDesk
    clock: ManualClock
    posted: Posted

    async def view(self, tournament_id: int) -> TournamentView:
        view = await self.referee.store.tournaments.view(tournament_id)
        assert view is not None
        return view

    async def step(self, seconds: float = 0.0) -> None:
        """Let time pass, then run every tournament forward as the runner's loop would."""
        if seconds:
            await self.clock.advance(seconds)
        await self.runner.run_due()

    async def new(self, game: str, format: str, players: int, **options) -> int:
        reply = await self.desk.new(MOD, CHANNEL, "g1", game, format, start="1h", **options)
        assert reply.ok, reply.caller
        tournament_id = (await self.referee.store.tournaments.listed("g1"))[0].id
        for index in range(1, players + 1):
            signed = await self.desk.sign_up(tournament_id, player(index))
            assert signed.ok, signed.caller
        return tournament_id

    async def play_out(self, tournament_id: int, winner=lambda board: 0) -> None:
        """Finish every open game of the current round: everyone but the seat `winner(board)`
        resigns."""
        view = await self.view(tournament_id)
        current = view.round(view.tournament.current_round)
        assert current is not None
        for board in current.boards:
            if board.result is not None or board.place is None:
                continue
            keep = winner(board)
            for seat, number in enumerate(board.players):
                if seat != keep:
                    entrant = view.entrant(number)
                    assert entrant is not None
                    reply = await self.referee.resign(board.place, User(entrant.user_id, entrant.name))
                    assert reply.ok, reply.caller


@asynccontextmanager
async def running_event(path: Path | str, *, start: float = 1_800_000_000.0) -> AsyncIterator[Event]:
    clock = ManualClock(start)
    posted = Posted()
    async with running_referee(path, clock) as referee:
        runner = TournamentRunner(referee, post=posted)
        yield Event(referee, runner, TournamentDesk(referee, runner), clock, posted)
