"""Answering one interaction: acknowledged within Discord's 3 seconds, every message with the
right visibility, and never a traceback.

`Answer.run(work)` runs the referee command; if it is not done within `grace` seconds
(rendering, a slow disk) the interaction is deferred meanwhile, so Discord never gives up on
it. A quick answer goes out directly, which is also one request fewer. After a slash command's
public "thinking…" placeholder, a refusal deletes the placeholder and goes out ephemerally; a
button's slow path is an invisible acknowledgement, so it has no placeholder at all.

`answering(interaction)` is the guard every handler runs in: it logs any exception and tells
the user, ephemerally, that something went wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any, TypeVar

import discord

from bot.adapters.discordbot.context import guild_key
from bot.adapters.discordbot.delivery import Outgoing, trim
from bot.core import logs
from bot.core.i18n import N_, _, language_of, speak
from bot.tables.notices import ORIGIN

log = logging.getLogger(__name__)

T = TypeVar("T")
INTERACTION = "interaction:"
"""How a notice's `origin` names the interaction that caused it: `interaction:<id>`."""
GRACE_SECONDS = 1.5
APOLOGY = N_("Something went wrong on my side and I could not finish that. If a move was involved, "
             "check the board with `/board` before trying again.")


class Answer:
    """The answer to one interaction. `private`: a slow command's placeholder is ephemeral
    (its normal answer is for the caller alone). `component`: a button press, whose slow
    acknowledgement is invisible (DEFERRED_UPDATE_MESSAGE)."""

    def __init__(self, interaction: discord.Interaction, *, private: bool = False,
                 grace: float | None = None) -> None:
        self.interaction = interaction
        self.private = private
        self.component = interaction.type == discord.InteractionType.component
        client_grace = getattr(interaction.client, "grace_seconds", GRACE_SECONDS)
        self.grace = client_grace if grace is None else grace
        self._placeholder: bool | None = None  # an unfilled "thinking…" message: is it ephemeral?
        self.sent = 0

    @property
    def acknowledged(self) -> bool:
        return self.interaction.response.is_done()

    async def run(self, work: Awaitable[T]) -> T:
        """The result of `work`, deferring the interaction if it takes longer than `grace`."""
        task = asyncio.ensure_future(work)
        if not self.acknowledged:
            done, _ = await asyncio.wait({task}, timeout=self.grace)
            if not done:
                await self.defer()
        return await task

    async def defer(self) -> None:
        """Acknowledge now, answer later."""
        if self.acknowledged:
            return
        if self.component:
            await self.interaction.response.defer()
        else:
            await self.interaction.response.defer(thinking=True, ephemeral=self.private)
            self._placeholder = self.private

    async def send(self, outgoing: Outgoing, *, ephemeral: bool) -> discord.Message | None:
        """Send one message: as the response if none was given yet, else as a follow-up (filling
        a "thinking…" placeholder when its visibility matches)."""
        kwargs = outgoing.kwargs()
        response = self.interaction.response
        self.sent += 1
        if not response.is_done():
            result = await response.send_message(ephemeral=ephemeral, **kwargs)
            return result.resource if isinstance(result.resource, discord.Message) else None
        if self._placeholder is not None:
            if self._placeholder != ephemeral:
                if ephemeral:
                    # a public placeholder must not carry a private answer: replace it
                    await self.interaction.delete_original_response()
                else:
                    await self.interaction.edit_original_response(content=_("✅ Done."))
            self._placeholder = None
        return await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)

    async def edit_clicked(self, **kwargs: Any) -> None:
        """Edit the message whose button was pressed (buttons only); text cut to Discord's limit."""
        if kwargs.get("content"):
            kwargs["content"] = trim(kwargs["content"])
        if not self.acknowledged:
            await self.interaction.response.edit_message(**kwargs)
        else:
            await self.interaction.edit_original_response(**kwargs)
        self.sent += 1

    async def tell(self, text: str) -> None:
        """A short ephemeral note for the caller."""
        await self.send(Outgoing(text), ephemeral=True)

    async def finish(self) -> None:
        """Make sure the interaction was acknowledged and no "thinking…" placeholder is left."""
        if self.component:
            if not self.acknowledged:
                await self.interaction.response.defer()
        elif not self.acknowledged or self._placeholder is not None:
            await self.tell(_("✅ Done."))

    async def apologize(self) -> None:
        """Tell the caller something failed, without details; never raises."""
        try:
            await self.send(Outgoing(_(APOLOGY)), ephemeral=True)
        except Exception:
            log.warning("could not apologise for a failed interaction", exc_info=True)


@contextlib.contextmanager
def busy(client: discord.Client) -> Iterator[None]:
    """Count the current task as in-flight work of `client` (its `in_flight` set, if it has
    one), so closing the bot can let it finish first."""
    in_flight: set[asyncio.Task[Any]] | None = getattr(client, "in_flight", None)
    task = asyncio.current_task()
    if in_flight is None or task is None:
        yield
        return
    in_flight.add(task)
    try:
        yield
    finally:
        in_flight.discard(task)


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction, *, private: bool = False) -> AsyncIterator[Answer]:
    """An `Answer` for the handler's body; exceptions are logged and apologised for, and an
    interaction left without any answer is acknowledged."""
    answer = Answer(interaction, private=private)
    speak(language_of(str(interaction.locale)))  # until a table's own language takes over
    ORIGIN.set(f"{INTERACTION}{interaction.id}")  # the announcements it commits remember it
    # named by the command, never by the interaction's data: a move's option may name a piece of a hand
    command = interaction.command.qualified_name if interaction.command else f"{interaction.type.name} interaction"
    server = guild_key(interaction.guild_id) if interaction.guild_id is not None else None
    with busy(interaction.client), logs.scope(command, server=server, timed=False):
        try:
            yield answer
            if answer.sent == 0:
                await answer.finish()
        except Exception:
            log.exception("handling %s for %s failed", command, interaction.user.id)
            await answer.apologize()
