"""The players' slash commands: /move (with autocomplete), /draw, /pass, /hand, /board,
/history, /resign, /back and /rules. Each one runs a referee command for the table of the thread it
is used in and answers with `answer_reply`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import answering, busy
from bot.adapters.discordbot.context import caller, everywhere, place_of, player, served_here, user_key
from bot.adapters.discordbot.delivery import Outgoing, personal, split
from bot.adapters.discordbot.lobby import game_choices
from bot.adapters.discordbot.replying import answer_reply
from bot.adapters.discordbot.shown import shown_boards
from bot.community.leaderboards import ratings_explained
from bot.core.i18n import N_, _, current_language, language_of, ngettext, speaking
from bot.core.meta import LANGUAGE
from bot.core.records import User
from bot.core.replies import Reply
from bot.service.referee import Referee
from engine import GAMES, Game

log = logging.getLogger(__name__)
MAX_CHOICES = 25
CHOICE_LENGTH = 100


def _referee(interaction: discord.Interaction) -> Referee:
    return interaction.client.referee  # type: ignore[attr-defined]


async def run(interaction: discord.Interaction, command: Callable[[Referee, str, User], Awaitable[Reply]], *,
              private: bool = False) -> None:
    """Run a referee command for the table of this thread and deliver its reply."""
    referee = _referee(interaction)
    async with answering(interaction, private=private) as answer:
        place = place_of(interaction.channel_id)
        user = await caller(referee, interaction)
        reply = await answer.run(command(referee, place, user))
        await answer_reply(answer, referee, reply, user, place)


@app_commands.command(name="move", description=N_("Play a move; the suggestions are your legal moves"))
@app_commands.describe(text=N_("Your move as on the board, like 3:5 c4 d4 (see /rules)"))
@app_commands.guild_only()
async def move(interaction: discord.Interaction, text: str) -> None:
    await run(interaction, lambda referee, place, user: played(interaction, referee, place, user, text))


async def played(interaction: discord.Interaction, referee: Referee, place: str, user: User, text: str) -> Reply:
    """Play `text` for `user`, based on the board the thread showed when they sent it."""
    return await referee.act(place, user, text, seen=shown_boards(interaction.client).seen(place, interaction.id))


@move.autocomplete("text")
async def move_suggestions(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """At most 25 legal moves of the caller that match what they typed."""
    try:
        with busy(interaction.client):
            found = await _referee(interaction).suggestion_choices(
                place_of(interaction.channel_id), player(interaction.user), current, limit=MAX_CHOICES)
    except Exception:
        log.exception("move suggestions failed")
        return []
    return [app_commands.Choice(name=shown[:CHOICE_LENGTH], value=action[:CHOICE_LENGTH])
            for shown, action in found[:MAX_CHOICES]]


@app_commands.command(name="draw", description=N_("Draw (a tile, pieces) where the game has a draw"))
@app_commands.guild_only()
async def draw(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: common(interaction, referee, place, user, "draw"))


async def common(interaction: discord.Interaction, referee: Referee, place: str, user: User, command: str,
                 argument: str = "") -> Reply:
    """/draw, /pass or /skip: the game's own move for it, or the game's way of doing that."""
    return await referee.common_move(place, user, command, argument,
                                     seen=shown_boards(interaction.client).seen(place, interaction.id))


@app_commands.command(name="pass", description=N_("Pass your turn, where the rules allow it"))
@app_commands.describe(foot=N_("Tronimoes: your foot square, if your line has not started yet (like e5)"))
@app_commands.guild_only()
async def pass_(interaction: discord.Interaction, foot: str | None = None) -> None:
    square = foot.strip() if foot else ""
    await run(interaction, lambda referee, place, user: common(interaction, referee, place, user, "pass", square))


@app_commands.command(name="hand", description=N_("Show your hand (only you can see it)"))
@app_commands.guild_only()
async def hand(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: referee.hand(place, user), private=True)


@app_commands.command(name="board", description=N_("Show the board and whose turn it is (only you see it)"))
@app_commands.describe(player=N_("Put this player's part of the board first (games with a board per player)"),
                       describe=N_("Say the whole board in words instead of the picture (for screen readers)"))
@app_commands.guild_only()
async def board(interaction: discord.Interaction, player: discord.Member | None = None,
                describe: bool = False) -> None:
    if describe:
        await run(interaction, lambda referee, place, user: referee.describe(place, user), private=True)
        return
    target = user_key(player.id) if player is not None else None
    await run(interaction, lambda referee, place, user: referee.board(place, user, player=target), private=True)


@app_commands.command(name="skip", description=N_("Skip your turn or phase where the game allows it"))
@app_commands.guild_only()
async def skip(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: common(interaction, referee, place, user, "skip"))


@app_commands.command(name="history", description=N_("The moves so far, newest last (only you see it)"))
@app_commands.describe(page=N_("1 is the latest moves, 2 the ones before, …"))
@app_commands.guild_only()
async def history(interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
    await run(interaction, lambda referee, place, user: referee.history(place, user, page=page), private=True)


@app_commands.command(name="resign", description=N_("Leave the game you are playing here"))
@app_commands.guild_only()
async def resign(interaction: discord.Interaction) -> None:
    from bot.adapters.discordbot.confirm import ask  # confirm -> replying -> views -> commands

    await ask(interaction, "resign")


@everywhere
@app_commands.command(name="back", description=N_("Take your turns back: in the game here, or anywhere else in "
                                                  "every game where you are away"))
async def back(interaction: discord.Interaction) -> None:
    referee = _referee(interaction)
    if served_here(interaction) is not None and await referee.table_at(place_of(interaction.channel_id)) is not None:
        await run(interaction, lambda referee, place, user: referee.back(place, user))
        return
    async with answering(interaction, private=True) as answer:  # a DM, or no game here: every game
        user = await caller(referee, interaction)
        reply = await answer.run(referee.back_everywhere(user))
        for outgoing in personal(reply.caller, refusal=not reply.ok):
            await answer.send(outgoing, ephemeral=True)


def player_count_text(counts: tuple[int, ...]) -> str:
    """How many players a game seats: "2 players.", "1–6 players.", "2, 4, 6 players."."""
    if len(counts) == 1:
        return ngettext("{count} player.", "{count} players.", counts[0]).format(count=counts[0])
    if len(counts) == counts[-1] - counts[0] + 1:
        return _("{low}–{high} players.").format(low=counts[0], high=counts[-1])
    return _("{counts} players.").format(counts=", ".join(map(str, counts)))


def rules_text(name: str) -> str:
    """A game's rules summary, how to type moves, and its options."""
    cls = GAMES[name]
    return "\n\n".join(part for part in (_(cls.summary) if cls.summary else f"**{cls.title}**",
                                          _("**Typing moves**") + "\n" + _(cls.notation_help),
                                          _("**Options** (`/tileref new options:`)") + "\n" + cls.Options.describe(_)
                                          + "\n" + _("`rated=off`: the game does not count for the ratings.")
                                          + "\n" + _("`palette=mono`: the pictures in high contrast, in greys (seats "
                                                     "told apart by their numbers, shapes, letters and dashes)."),
                                          player_count_text(cls.player_counts())) if part)


def help_text(game: Game, language: str) -> str:
    """The commands for the game of this thread, how its moves are typed, and what the ratings
    mean."""
    cls = type(game)
    example = cls.spoken(game.example_move() or (cls.example_moves or ("",))[0], language)
    lines = [_("**{game}**: the commands here").format(game=cls.title),
             _("• Type a move in this thread, like `{example}`, or use `/move` (it suggests your legal moves).").format(
                 example=example)]
    own = [f"`/{command}` → `{cls.spoken(move, language)}`" for command, move in cls.command_moves.items()]
    if own:
        lines.append(_("• Shortcuts: {commands}.").format(commands=", ".join(own)))
    lines += [_("• `/hand` your hand (only you see it) · `/board` the board · `/history` the moves so far"),
              _("• `/rules` how to play · `/resign` leave the game"),
              _("• `/back` take your turns back after a stand-in played them (or they were skipped) while you were "
                "away"),
              "", _("**Typing moves**"), _(cls.notation_help), "", ratings_explained()]
    return "\n".join(lines)


@app_commands.command(name="help", description=N_("The commands for the game in this thread"))
@app_commands.guild_only()
async def help_(interaction: discord.Interaction) -> None:
    referee = _referee(interaction)
    async with answering(interaction, private=True) as answer:
        place = place_of(interaction.channel_id)
        table = await answer.run(referee.table_at(place))
        shown = await answer.run(referee.view(place)) if table is not None else None
        if table is None or shown is None:
            await answer.tell(_("There is no game in this thread. Open one with `/tileref new`; `/rules` explains "
                                "each game.") + "\n\n" + ratings_explained())
            return
        with speaking(table.meta.get(LANGUAGE)):
            text = help_text(shown[1], current_language())
        for piece in split(text):
            await answer.send(Outgoing(piece), ephemeral=True)


@app_commands.command(name="rules", description=N_("How to play, how to type moves, and the game's options"))
@app_commands.describe(game=N_("Which game (default: the one played here)"))
@app_commands.choices(game=game_choices())
async def rules(interaction: discord.Interaction, game: str | None = None) -> None:
    referee = _referee(interaction)
    async with answering(interaction, private=True) as answer:
        name = game
        table = None
        if name is None:
            table = await answer.run(referee.table_at(place_of(interaction.channel_id)))
            name = table.game if table is not None else None
        if name is None or name not in GAMES:
            names = ", ".join(f"{cls.title} (`{key}`)" for key, cls in sorted(GAMES.items()))
            if len(GAMES) != 1:
                await answer.tell(_("Which game? Games: {games}. Use `/rules game:`.").format(games=names))
                return
            name = next(iter(GAMES))
        here = table.meta.get(LANGUAGE) if game is None and table is not None else None
        with speaking(here or language_of(str(interaction.locale))):
            text = rules_text(name)
        for piece in split(text):
            await answer.send(Outgoing(piece), ephemeral=True)


@app_commands.command(name="watch", description=N_("The link to this game's live web page (no hands shown)"))
@app_commands.guild_only()
async def watch(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: referee.watch(place, user), private=True)


@app_commands.command(name="replay", description=N_("Step through this game on the web, or post it as an animation"))
@app_commands.describe(gif=N_("Post an animated replay of the whole game here, for everyone"))
@app_commands.guild_only()
async def replay(interaction: discord.Interaction, gif: bool = False) -> None:
    await run(interaction, lambda referee, place, user: referee.replay(place, user, gif=gif), private=not gif)


PLAYER_COMMANDS: list[app_commands.Command[Any, ..., Any]] = [
    move, draw, pass_, skip, hand, board, history, resign, back, rules, help_, watch, replay]
