"""The Discord bot: a `commands.Bot` whose application commands, buttons and typed moves all
delegate to one `Referee`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapters.discordbot import api_metrics, typed
from bot.adapters.discordbot.answer import GRACE_SECONDS, Answer
from bot.adapters.discordbot.buttons import pressed
from bot.adapters.discordbot.commands import PLAYER_COMMANDS
from bot.adapters.discordbot.community_commands import COMMUNITY_COMMANDS
from bot.adapters.discordbot.confirm import CancelButton, ConfirmButton
from bot.adapters.discordbot.context import snowflake
from bot.adapters.discordbot.lobby import tileref
from bot.adapters.discordbot.moderation import MODERATOR_COMMANDS
from bot.adapters.discordbot.privacy import ForgetButton, privacy
from bot.adapters.discordbot.reactions import MEDIA_COMMANDS, PickMenu
from bot.adapters.discordbot.replying import out_already, post_notice
from bot.adapters.discordbot.tournament_commands import (
    TOURNAMENT_COMMANDS,
    TournamentButton,
    TournamentConfirm,
    board_thread,
    post_message,
)
from bot.adapters.discordbot.views import TableButton
from bot.core.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.core.i18n import in_language, language_of
from bot.core.replies import Attachment, Reply
from bot.durable.health import Gateway
from bot.media.search import Media
from bot.service.referee import Referee
from bot.storage.tournaments import BoardRecord, TournamentMessage, TournamentView
from bot.tournaments.desk import TournamentDesk
from bot.tournaments.runner import TournamentRunner

log = logging.getLogger(__name__)
DRAIN_SECONDS = 5.0
READY_SECONDS = 10.0
"""How long a notice waits for the connection to Discord to be ready before leaving it to the outbox."""
TYPING_SECONDS = 8.0
"""How often the typing indicator is sent again while AI seats think (Discord shows it for about
ten seconds, or until the bot's next message in the channel)."""
TYPING_DELAY = 0.5
"""How long the typing indicator waits, so the answer to the command that led to the AI's turn
(which would end it) is posted first."""


def intents(*, message_content: bool = True) -> discord.Intents:
    """Guilds and guild messages; message content (privileged) for typed moves if allowed."""
    chosen = discord.Intents.default()
    chosen.message_content = message_content
    chosen.typing = False
    chosen.presences = False
    chosen.members = False
    return chosen


class Translator(app_commands.Translator):
    """Slash commands' descriptions and choices for Spanish clients, from the same catalogs as
    every other message (names stay as they are: people type them)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(str(locale.value))
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        if context.location in (app_commands.TranslationContextLocation.command_name,
                                app_commands.TranslationContextLocation.group_name,
                                app_commands.TranslationContextLocation.parameter_name):
            return None
        translated = in_language(string.message, language)
        return translated if translated != string.message else None


class Tree(app_commands.CommandTree["TilerefBot"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Last resort (the handlers catch their own errors): log, and apologise ephemerally."""
        log.error("application command failed", exc_info=error)
        if interaction.type == discord.InteractionType.autocomplete:
            return
        await Answer(interaction).apologize()


class TilerefBot(commands.Bot):
    """tileref on Discord. `grace_seconds`: how long a command may take before its interaction
    is deferred (tests set it to 0 to exercise the deferred path)."""

    def __init__(self, referee: Referee, *, guild_ids: Iterable[int] | None = None, message_content: bool = True,
                 media: Media | None = None, **options: Any) -> None:
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("http_trace", api_metrics.trace())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(message_content=message_content),
                         help_command=None, tree_cls=Tree, **options)
        api_metrics.count_routes(self.http)  # its API calls are counted by route in `/metrics`
        self.referee = referee
        self.guild_ids = list(guild_ids or [])
        self.grace_seconds = GRACE_SECONDS
        self.in_flight: set[asyncio.Task[Any]] = set()
        for command in [tileref, *PLAYER_COMMANDS, *MODERATOR_COMMANDS, *MEDIA_COMMANDS, *COMMUNITY_COMMANDS,
                        *TOURNAMENT_COMMANDS, privacy]:
            self.tree.add_command(command)
        self.media = media or Media.from_environment()
        referee.notify = self.notice
        referee.already_out = self.already_out
        referee.ai.thinking = self.thinking
        self.tournament_runner = TournamentRunner(referee, make_place=self.board_thread, post=self.post_tournament)
        self.tournament_desk = TournamentDesk(referee, self.tournament_runner)
        self._typing: dict[int, float] = {}

    @property
    def publishes_commands(self) -> bool:
        """Whether this process publishes the slash commands: the one holding shard 0 does, so
        several processes sharing the shards publish them once, not once each."""
        shards = getattr(self, "shard_ids", None)
        return shards is None or 0 in shards

    async def setup_hook(self) -> None:
        """Register the persistent buttons and publish the commands (to the test guilds if any,
        which is instant, else globally) if this process is the one that does."""
        self.add_dynamic_items(TableButton, ConfirmButton, CancelButton, ForgetButton, PickMenu, TournamentButton,
                               TournamentConfirm)
        await self.tree.set_translator(Translator())
        if not self.publishes_commands:
            log.info("shards %s: the process holding shard 0 publishes the slash commands", self.shard_ids)
            return
        try:
            if self.guild_ids:
                for guild_id in self.guild_ids:
                    guild = discord.Object(guild_id)
                    self.tree.copy_global_to(guild=guild)
                    await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        except discord.HTTPException:
            log.exception("publishing the slash commands failed; the ones published before stay")

    async def close(self) -> None:
        """Let commands being handled finish (for up to `DRAIN_SECONDS`), then disconnect."""
        pending = [task for task in self.in_flight if task is not asyncio.current_task() and not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=DRAIN_SECONDS)
        await self.tournament_runner.stop()
        await self.media.close()
        await super().close()

    async def on_ready(self) -> None:
        self.referee.outbox.start()
        self.tournament_runner.start()
        log.info("connected to Discord as %s (%s servers)%s", self.user, len(self.guilds),
                 "" if self.intents.message_content else "; typed moves only work as @mentions")

    def gateway_state(self) -> Gateway:
        """Whether this process is connected to Discord's gateway (every shard it runs, if it runs
        some), with the heartbeat latency (for the health check)."""
        if self.is_closed():
            return Gateway(False, detail="the bot is closed")
        if not self.is_ready():
            return Gateway(False, detail="still connecting")
        if isinstance(self, commands.AutoShardedBot):
            closed = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
            if closed or not self.shards:
                return Gateway(False, detail=f"shards {closed or 'none'} disconnected, reconnecting")
        elif self.ws is None or not self.ws.open:
            return Gateway(False, detail="disconnected, reconnecting")
        latency = self.latency
        return Gateway(True, latency if math.isfinite(latency) else None)

    async def on_message(self, message: discord.Message) -> None:
        """Typed moves; prefix commands are not used."""
        await typed.on_message(self, self.referee, message)

    async def table_button_pressed(self, interaction: discord.Interaction, action: str, table_id: int) -> None:
        """A table's Join, Leave, Add bot, Start, Show hand or Ready button was pressed (see views.py)."""
        await pressed(interaction, action, table_id)

    async def notice(self, reply: Reply) -> None:
        """The referee's unprompted replies (timeouts, reminders, the outbox) go to the table's
        thread, waiting up to `READY_SECONDS` for a connection that is still getting ready (commands
        arrive, and AI seats move, before discord.py has finished starting or reconnecting); raises
        if they could not, so the outbox sends them again later (each move on its own)."""
        if not self.is_closed() and not self.is_ready():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait_until_ready(), READY_SECONDS)
        if self.is_closed() or not self.is_ready():
            raise RuntimeError(f"not connected to Discord; the notice for {reply.place} waits in the outbox")
        await post_notice(self, self.referee, reply)

    async def _wait_connected(self, what: str) -> None:
        """Wait up to `READY_SECONDS` for a connection that is still getting ready; raise if there is none."""
        if not self.is_closed() and not self.is_ready():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait_until_ready(), READY_SECONDS)
        if self.is_closed() or not self.is_ready():
            raise RuntimeError(f"not connected to Discord; {what} waits")

    async def post_tournament(self, message: TournamentMessage, attachments: list[Attachment]) -> None:
        """A tournament's message (raises if it could not be posted: the runner tries again)."""
        await self._wait_connected(f"tournament message {message.id}")
        await post_message(self, message, attachments)

    async def board_thread(self, view: TournamentView, board: BoardRecord) -> str:
        """The thread a tournament board's game is played in (made now)."""
        await self._wait_connected(f"the thread of tournament {view.tournament.id}'s board {board.board}")
        return await board_thread(self, view, board)

    async def already_out(self, reply: Reply) -> bool:
        """Whether an announcement the outbox sends again is in its thread already."""
        if self.is_closed() or not self.is_ready():
            return False
        return await out_already(self, reply)

    async def thinking(self, place: str, name: str) -> None:
        """An AI seat of the table at `place` starts thinking: the bot is shown typing in the
        thread (one API call, sent again only if the last one is about to fade)."""
        channel_id = snowflake(place)
        if channel_id is None or self.is_closed():
            return
        now = time.monotonic()
        if now - self._typing.get(channel_id, -TYPING_SECONDS) < TYPING_SECONDS:
            return
        self._typing = {c: t for c, t in self._typing.items() if now - t < TYPING_SECONDS}
        self._typing[channel_id] = now
        task = asyncio.ensure_future(self._show_typing(channel_id))
        self.in_flight.add(task)
        task.add_done_callback(self.in_flight.discard)

    async def _show_typing(self, channel_id: int) -> None:
        await asyncio.sleep(TYPING_DELAY)
        try:
            await self.http.send_typing(channel_id)
        except discord.HTTPException:
            log.info("showing the bot typing in %s failed", channel_id)


class ShardedTilerefBot(TilerefBot, commands.AutoShardedBot):
    """tileref on some of the gateway's shards (`shard_ids` of `shard_count`): this process
    hears the servers of those shards only. Announcements, clocks and the outbox reach any
    server through Discord's REST API, so whichever process fires a timer may announce it."""


def build_bot(referee: Referee, *, guild_ids: Iterable[int] | None = None, message_content: bool = True,
              media: Media | None = None, shard_ids: Sequence[int] | None = None, shard_count: int | None = None,
              **options: Any) -> TilerefBot:
    """A bot for `referee` (it becomes the referee's `notify`). Slash commands are synced to
    `guild_ids` if given, else globally. With `shard_ids` and `shard_count` it connects those
    shards of the gateway (discord.py's AutoShardedBot). Extra options go to `commands.Bot`
    (e.g. `guild_ready_timeout`)."""
    if shard_ids is not None:
        return ShardedTilerefBot(referee, guild_ids=guild_ids, message_content=message_content, media=media,
                                 shard_ids=list(shard_ids), shard_count=shard_count, **options)
    return TilerefBot(referee, guild_ids=guild_ids, message_content=message_content, media=media, **options)
