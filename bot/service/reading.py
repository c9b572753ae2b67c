"""Reading a table: the board, the history, web links and replays, and the moves a player may
make (suggestions and hints). Nothing here changes a game."""

from __future__ import annotations

import asyncio

import renderers
from bot.core.durations import format_duration
from bot.core.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.core.i18n import _, ngettext
from bot.core.meta import LANGUAGE
from bot.core.records import ABORTED, LOBBY, PLAYING, TableRecord, User
from bot.core.refusals import Refused
from bot.core.replies import Message, Reply
from bot.media.watching import WebLinks
from bot.tables.core import Tables
from bot.words import narration
from bot.words.wording import actor_note, lobby_text, logged_entry, named
from engine import GAMES, Game
from engine.ai import GreedyAgent

HISTORY_PAGE = 25


class Reading:
    """Answers that show a table as it is (or was), for the caller alone unless they say otherwise."""

    def __init__(self, tables: Tables, links: WebLinks) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock
        self.links = links

    async def board(self, place: str, user: User | None = None, *, player: str | None = None) -> Reply:
        """The board as everyone sees it, with whose turn it is, for the caller alone (nobody is
        pinged); `player` (a user id) puts that player's part of it first where a game draws one
        per player."""
        return await self.tables.guarded(self._board(place, player))

    async def _board(self, place: str, player: str | None = None) -> Reply:
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            if table.status == LOBBY:
                return Reply(caller=Message(lobby_text(table)), table_id=table.id, place=place, status=table.status)
            game = await self.tables.games.get(table)
            viewer = table.seat_of(player) if player else None
            if player and viewer is None:
                raise Refused(_("that player is not seated at this table"))
            text = narration.who_is_next(table, game, await self.tables.deadlines(table),
                                         await self.tables.on_vacation(table))
            if table.status == ABORTED:
                text = _("⛔ This game was stopped by a moderator.")
            return Reply(caller=Message(named(text, table), await self.tables.pictures.board(game, table.id, viewer)),
                         table_id=table.id, place=place, ply=len(game.log), status=table.status)

    async def describe(self, place: str, user: User | None = None) -> Reply:
        """The whole board in words (`renderers.describe`: whose turn, the scores, the last move,
        the position as a player needs it), for the caller alone; a seated caller also hears
        their own hand, and nothing else anyone hides."""
        return await self.tables.guarded(self._describe(place, user))

    async def _describe(self, place: str, user: User | None) -> Reply:
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            if table.status == LOBBY:
                return Reply(caller=Message(lobby_text(table)), table_id=table.id, place=place, status=table.status)
            game = await self.tables.games.get(table)
            if game.name not in renderers.RENDERERS:
                raise Refused(_("this game has no board to describe"))
            viewer = table.seat_of(user.id) if user is not None else None
            text = renderers.describe(game, viewer)
            if table.status == ABORTED:
                text = _("⛔ This game was stopped by a moderator.") + "\n" + text
            return Reply(caller=Message(named(text, table)), table_id=table.id, place=place, ply=len(game.log),
                         status=table.status)

    async def history(self, place: str, user: User | None = None, *, page: int = 1) -> Reply:
        """The log in notation, with who and when, newest last: page 1 the latest moves, at most
        25 a page, the pages as even as can be (76 moves are four pages of 19, never a last
        page of one move)."""
        return await self.tables.guarded(self._history(place, page))

    async def _history(self, place: str, page: int) -> Reply:
        table = await self.tables.table(place)
        actions = await self.store.actions(table.id)
        if not actions:
            return Reply(caller=Message(_("No moves yet.")), table_id=table.id, place=place)
        pages = (len(actions) + HISTORY_PAGE - 1) // HISTORY_PAGE
        if not 1 <= page <= pages:
            raise Refused(_("there is only 1 page of history; page 1 is the latest moves") if pages == 1 else
                           _("there are {pages} pages of history; page 1 is the latest moves").format(pages=pages))
        size, longer = divmod(len(actions), pages)  # the `longer` newest pages hold one move more
        end = len(actions) - (page - 1) * size - min(page - 1, longer)
        shown = actions[end - size - (1 if page <= longer else 0):end]
        now = self.clock.now()
        lines = [_("**Moves {first}–{last} of {count}** (page {page} of {pages})").format(
            first=shown[0].ply, last=shown[-1].ply, count=len(actions), page=page, pages=pages)]
        for record in shown:
            when = _("{when} ago").format(when=format_duration(now - record.at))
            by = "" if record.chance else actor_note(record.actor, table)
            lines.append(f"`{record.ply:>3}` {logged_entry(record, table)}{by} · {when}")
        if page < pages:
            lines.append(_("Older moves: history page {page}.").format(page=page + 1))
        return Reply(caller=Message("\n".join(lines)), table_id=table.id, place=place)

    async def page_link(self, table: TableRecord) -> str | None:
        """The address of the table's spectator page, or None when there is no web server."""
        return await self.links.page(table)

    async def watch(self, place: str, user: User | None = None) -> Reply:
        """The link to this table's live spectator page."""
        return await self.tables.guarded(self._watch(place, replay=False))

    async def replay(self, place: str, user: User | None = None, *, gif: bool = False) -> Reply:
        """The link to this table's replay page; with `gif`, an animated replay of the whole
        game so far, posted for everyone in the place."""
        if gif:
            return await self.tables.guarded(self._replay_gif(place))
        return await self.tables.guarded(self._watch(place, replay=True))

    async def _watch(self, place: str, *, replay: bool) -> Reply:
        table = await self.tables.table(place)
        link = await self.page_link(table)
        if link is None:
            raise Refused(_("this bot has no web pages (its web server is off), so there is no link to give"))
        if replay:
            text = _("⏪ Step through this game move by move (arrow keys, or click a move): {link}").format(link=link)
        else:
            text = _("👀 Watch this game live (no hands shown, ever): {link}").format(link=link)
        return Reply(caller=Message(text), table_id=table.id, place=place, status=table.status)

    async def _replay_gif(self, place: str) -> Reply:
        table = await self.tables.table(place)
        if table.status == LOBBY:
            raise Refused(_("the game has not started yet, so there is nothing to replay"))
        actions = await self.store.actions(table.id)
        if not actions:
            raise Refused(_("no moves yet, so there is nothing to replay"))
        made = await self.tables.replays.animation(table, actions)
        link = await self.page_link(table)
        text = ngettext("🎞️ {game}, move by move ({count} move).", "🎞️ {game}, move by move ({count} moves).",
                        len(actions)).format(game=GAMES[table.game].title, count=len(actions))
        if link:
            text += " " + _("Step through it: {link}").format(link=link)
        reply = Reply(public=Message(text, [made]), table_id=table.id, place=place, status=table.status)
        return await self.tables.addressed(reply, table)

    async def view(self, place: str) -> tuple[TableRecord, Game] | None:
        """The table and its game as last committed (for transports that draw their own board)."""
        table = await self.store.table_at(place)
        if table is None or table.status == LOBBY:
            return None
        return table, await self.tables.games.get(table)

    async def suggestions(self, place: str, user: User, typed: str = "", limit: int = 25) -> list[str]:
        """Legal moves for the caller that match what they typed (`Game.suggestion_match`): those
        that start with it first, in the game's order of preference."""
        return [action for _, action in await self.suggestion_choices(place, user, typed, limit)]

    async def suggestion_choices(self, place: str, user: User, typed: str = "",
                                 limit: int = 25) -> list[tuple[str, str]]:
        """`suggestions` as (what to show, the action): the game's own way of showing each move
        (`Game.describe_action`: Triominoes shows the tile as it is in the hand, then turned),
        both in the table's notation (Spanish words at a Spanish table); typed Spanish words
        match too."""
        table = await self.store.table_at(place)
        if table is None or table.status != PLAYING or table.seat_of(user.id) is None:
            return []
        game = await self.tables.games.get(table)
        seat = table.seat_of(user.id)
        assert seat is not None
        language = table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE
        actions = game.rank_suggestions(seat, game.legal_actions(seat))
        canonical = type(game).canonical(typed, language)
        matched = [(rank, index, a) for index, a in enumerate(actions)
                   if (rank := game.suggestion_match(a, canonical)) is not None]
        spoken = type(game).spoken
        return [(spoken(game.describe_action(seat, a), language), spoken(a, language))
                for _, _, a in sorted(matched)][:limit]

    async def best_moves(self, place: str, user: User, count: int) -> tuple[list[tuple[str, str]], int]:
        """The caller's `count` best moves now, as the greedy AI judges them (what each gains at
        once, tried on what the caller can see: nothing hidden is used), shown as
        `suggestion_choices` shows moves; and how many legal moves the caller has in all."""
        table = await self.store.table_at(place)
        seat = table.seat_of(user.id) if table is not None else None
        if table is None or table.status != PLAYING or seat is None:
            return [], 0
        game = (await self.tables.games.get(table)).clone()  # ranked off the event loop, while commands go on
        ranked = await asyncio.to_thread(GreedyAgent().ranked, game, seat)
        language = table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE
        spoken = type(game).spoken
        return ([(spoken(game.describe_action(seat, a), language), spoken(a, language)) for a in ranked[:count]],
                len(game.legal_actions(seat)))
