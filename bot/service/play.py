"""Playing: a player's moves (typed or by command), resigning, their hand, and what they change
about themselves at a table."""

from __future__ import annotations

from bot.core import absence
from bot.core.i18n import LANGUAGES, _, ngettext, refusal_text, speak
from bot.core.meta import AI_SECONDS, FOOT, LANGUAGE, PALETTE
from bot.core.records import LOBBY, PLAYING, TableRecord, User
from bot.core.refusals import Refused, language
from bot.core.replies import Message, Reply, clean_name, command_token, link_token, name_token, refusal
from bot.core.typing_rules import echo, is_move_text, strip_markdown
from bot.service.lobby import hosting, palette_named
from bot.tables.change import confirmed
from bot.tables.core import Tables
from bot.words.wording import chat, without_echo
from engine import GAMES, Game, GameError, NotationError, NotYourTurn
from renderers.palettes import MONO, use_palette

LONGEST_MOVE = 500


class Play:
    """Players' own commands on a game being played."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock

    async def common_move(self, place: str, user: User, command: str, argument: str = "", *,
                          seen: int | None = None) -> Reply:
        """A common command (`draw`, `pass`, `skip`: Discord's /draw, /pass, /skip): the game's own
        move for it, played like any move; or, in a game that has none, a refusal saying the game's
        own way of doing that, or that it has none."""
        table = await self.store.table_at(place)
        cls = GAMES[table.game] if table is not None else None
        if table is None or cls is None or table.status != PLAYING or command in cls.command_moves:
            move = cls.command_moves.get(command, command) if cls is not None else command
            return await self.act(place, user, f"{move} {argument}".strip(), seen=seen)
        speak(table.meta.get(LANGUAGE))
        use_palette(table.meta.get(PALETTE))
        told = cls.command_help.get(command)
        text = _(told) if told else _("{game} has no `{command}`.").format(game=cls.title, command=command)
        return refusal(text, table_id=table.id, place=place)

    async def act(self, place: str, user: User, text: str, *, seen: int | None = None,
                  typed: bool = False) -> Reply:
        """Play any move text for the caller's seat.

        `seen` is the log length the caller saw: if the clock or a moderator acted for the caller's
        seat since then, or the game was rolled back, the move is refused and the current board
        shown. `typed`: the text is chat typed in the table's place, taken as a move only if it is
        written in the game's notation (see `typing_rules`); anything else is answered with an
        `unreadable` refusal that transports leave unanswered."""
        arrived = await self.tables.log_length(place) if seen is None else seen
        return await self.tables.guarded(self._act(place, user, text, arrived, typed))

    async def _act(self, place: str, user: User, text: str, seen: int | None, typed: bool) -> Reply:
        if typed:
            text = strip_markdown(text)
        if len(text) > LONGEST_MOVE:
            reply = refusal(_("that is far too long to be a move; see {rules} for how to write moves").format(
                rules=command_token("rules")))
            reply.unreadable = typed
            return reply
        if is_back(text):  # `back` typed in the thread (or said to the bot): the absent player comes back
            return await self._back(place, user, typed=typed)
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            seat = table.seat_of(user.id)
            if typed and (seat is None or table.status != PLAYING):
                return chat()
            table, game, seat = await self.tables.playing_seat(place, user, table)
            if typed and not is_move_text(game, seat, text):
                return chat()
            stale = await self._stale(table, game, seat, user, seen)
            if stale:
                board = await self.tables.pictures.board(game, table.id)
                reply = refusal(stale, table_id=table.id, place=place, attachments=board)
                reply.stale, reply.ply = True, len(game.log)
                return reply
            change = await self.tables.change(table, game)
            actions = _split(text, type(game).action_separator)
            for number, action in enumerate(actions):
                try:
                    change.apply(seat, action, user.id)
                except GameError as error:
                    reason = without_echo(refusal_text(error), action)
                    if number == 0:
                        reply = refusal(reason, table_id=table.id, place=place)
                        reply.unreadable = isinstance(error, NotationError)
                        reply.early = isinstance(error, NotYourTurn)
                        return reply
                    done = await self.tables.finish(change)
                    note = _("Done: {done}. Not done: `{refused}`{rest}, because {reason}").format(
                        done=", ".join(f"`{a}`" for a in actions[:number]), refused=echo(action),
                        rest=_(" and what followed") if number + 1 < len(actions) else "", reason=reason)
                    done.caller = Message(note)
                    return done
            return await self.tables.finish(change)

    async def _stale(self, table: TableRecord, game: Game, seat: int, user: User, seen: int | None) -> str | None:
        """Why a command based on the log length `seen` no longer stands, or None: the game was
        rolled back, or someone else acted for the caller's seat since (the clock, a moderator).
        Other seats' moves do not matter, nor the caller's own (a message that showed an older
        board may reach them after their own move): the rules check the command against the
        game as it is."""
        if seen is None or seen == len(game.log):
            return None
        why = None
        if seen > len(game.log):
            why = _("a moderator rolled the game back")
        else:
            for record in await self.store.actions(table.id, after=seen):
                if record.seat == -1:
                    why = _("a moderator rolled the game back")
                elif record.seat == seat and record.actor != user.id:
                    why = (_("your turn ran out") if record.actor == "clock" else
                           _("your turn was played for you while you were away")
                           if absence.made_for_absent(record.actor) else
                           _("a moderator acted for you") if record.actor.startswith("mod:") else None)
                if why is not None:
                    break
        if why is None:
            return None
        return _("the board changed since you looked ({why}; it is now move {move}). Here is the current board: "
                 "send your move again if it still stands.").format(why=why, move=len(game.log))

    async def resign(self, place: str, user: User) -> Reply:
        return await self.tables.guarded(self._resign(place, user))

    async def _resign(self, place: str, user: User) -> Reply:
        async with self.tables.lock(place):
            table, game, seat = await self.tables.playing_seat(place, user)
            change = await self.tables.change(table, game)
            try:
                change.resign(seat, user.id)
            except GameError as error:
                return refusal(refusal_text(error), table_id=table.id, place=place)
            return await self.tables.finish(change)

    async def back(self, place: str, user: User) -> Reply:
        """The caller comes back to a game where they were away (`bot.core.absence`): the stand-in
        stops, or their turns are no longer skipped, and their clock starts afresh if it is their
        turn. Refused if they were not away."""
        return await self.tables.guarded(self._back(place, user))

    async def back_everywhere(self, user: User) -> Reply:
        """The caller comes back at every table, on every server, where they are away (asked
        away from any game: in a DM, or on a server the bot is not on). Each table is told in its
        own thread; the caller hears which tables they came back to. Refused if they were away
        nowhere."""
        return await self.tables.guarded(self._back_everywhere(user), name="back")

    async def _back_everywhere(self, user: User) -> Reply:
        tables = []
        for listed, _deadlines in await self.store.standings.open_tables_of(None, user.id):
            table = await self.store.table_at(listed.place)  # whole (the list leaves out who is away)
            seat = table.seat_of(user.id) if table is not None else None
            if table is None or table.status != PLAYING or seat is None or not absence.away(table).get(seat):
                continue
            try:
                told = await self._back(table.place, user)
            except Refused:  # back there already (another command was quicker): nothing to say
                continue
            if self.tables.notify is not None:
                await self.tables.notify(told)  # the table's thread hears it (else the outbox tells it)
            tables.append(link_token(table.place, table.guild))
        if not tables:
            raise Refused(_("you are not away at any table: your turns are your own everywhere (when a player's time "
                            "runs out at a table of three or more, {back} takes their turns back)").format(
                back=command_token("back")))
        return Reply(caller=Message(_("👋 Welcome back: your turns are your own again at {tables}.").format(
            tables=", ".join(tables))))

    async def _back(self, place: str, user: User, *, typed: bool = False) -> Reply:
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            if typed and (table.seat_of(user.id) is None or table.status != PLAYING):
                return chat()  # conversation, as any typed word that is not a move
            table, game, seat = await self.tables.playing_seat(place, user, table)
            if not absence.away(table).get(seat):
                if typed:
                    return chat()
                raise Refused(_("you are not away at this table: your turns are your own (when a player's time "
                                "runs out at a table of three or more, {back} takes their turns back)").format(
                    back=command_token("back")))
            change = await self.tables.change(table, game)
            change.come_back(seat)
            return await self.tables.finish(change)

    async def hand(self, place: str, user: User) -> Reply:
        """The caller's hand, as text and a picture, for the caller alone."""
        return await self.tables.guarded(self._hand(place, user))

    async def _hand(self, place: str, user: User) -> Reply:
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refused(_("you are not playing at this table, so you have no hand here"))
            if table.status == LOBBY:
                raise Refused(_("the game has not started yet"))
            game = await self.tables.games.get(table)
            return Reply(caller=self.tables.pictures.hand(game, seat), table_id=table.id, place=place,
                         ply=len(game.log), status=table.status)

    async def adjust(self, place: str, user: User, *, name: str | None = None, language_code: str | None = None,
                     ai_seconds: float | None = None, palette: str | None = None) -> Reply:
        """Change, in the game being played at `place`, the caller's name at the table, and (for
        its host or a moderator) the table's language, how long its AI seats plan a move or how
        its pictures look: a terminal game resumed with a new `--name`, `--lang`, `--ai-seconds`
        or `--palette`. The answer says what changed, in the table's language."""
        return await self.tables.guarded(self._adjust(place, user, name, language_code, ai_seconds, palette))

    async def _adjust(self, place: str, user: User, name: str | None, language_code: str | None,
                      ai_seconds: float | None, palette: str | None = None) -> Reply:
        async with self.tables.lock(place):
            table, game, seat = await self.tables.playing_seat(place, user)
            if language_code is not None or ai_seconds is not None or palette is not None:
                hosting(table, user, _("only {player} or a moderator can change this table"))
            said = []
            if palette is not None:
                table.meta[PALETTE] = palette = palette_named(palette)
                use_palette(palette)
                said.append(_("Pictures at this table are now drawn in high contrast, in greys.") if palette == MONO
                            else _("Pictures at this table are now drawn in colour."))
            if language_code is not None:
                table.meta[LANGUAGE] = language(language_code)
                speak(table.meta[LANGUAGE])
                said.append(_("This table now speaks {language}.").format(language=LANGUAGES[table.meta[LANGUAGE]]))
            if ai_seconds is not None:
                if not 0 <= ai_seconds <= 30:
                    raise Refused(_("ai_seconds is how long AI players think, 0 to 30 seconds: like ai_seconds=2, "
                                    "not '{value}'").format(value=ai_seconds))
                table.meta[AI_SECONDS] = float(ai_seconds)
                said.append(ngettext("AI players now think {seconds} second a move.",
                                     "AI players now think {seconds} seconds a move.",
                                     1 if ai_seconds == 1 else 2).format(seconds=f"{ai_seconds:g}"))
            if name is not None and clean_name(name) != table.seats[seat].name:
                old = table.seats[seat].name
                table.seats[seat].name = game.names[seat] = clean_name(name)
                said.append(_("{old} is now called {new}.").format(old=name_token(old), new=name_token(name)))
            await confirmed(self.store.save_table(table))
            self.tables.games.remember(table, game)
            return Reply(caller=Message("\n".join(said)), table_id=table.id, place=place, ply=len(game.log),
                         status=table.status)

    async def choose_picture(self, place: str, user: User, kind: str, png: bytes, source: str) -> Reply:
        """Keep the picture a player chose for this game (`kind` "foot": the chicken-foot drawn at
        the end of their line while they are footed). `png` is a checked picture (see
        `bot.media.search.checked_png`)."""
        return await self.tables.guarded(self._choose_picture(place, user, kind, png, source))

    async def _choose_picture(self, place: str, user: User, kind: str, png: bytes, source: str) -> Reply:
        async with self.tables.lock(place):
            table, game, seat = await self.tables.playing_seat(place, user)
            await self.store.save_picture(table.id, seat, kind, png, source, self.clock.now())
            text = (_("🐔 Your chicken-foot is chosen: it is drawn at the end of your line on every board from now "
                      "on, while you are chicken-footed.") if kind == FOOT else _("Your picture is chosen."))
            return Reply(caller=Message(text), table_id=table.id, place=place, ply=len(game.log),
                         status=table.status)


BACK_WORDS = ("back", "i'm back", "im back", "volví", "volvi", "he vuelto", "de vuelta")
"""What an absent player may type to come back, in English and in Spanish (besides /back)."""


def is_back(text: str) -> bool:
    """Whether typed text asks to come back (`back`, `volví`, any case, a final `!` or `.`)."""
    return text.strip().lower().rstrip("!.").strip() in BACK_WORDS


def _split(text: str, separator: str | None) -> list[str]:
    """The actions in `text`: one, or several joined by the game's separator."""
    if separator is None or separator not in text:
        return [text]
    return [part.strip() for part in text.split(separator) if part.strip()] or [text]
