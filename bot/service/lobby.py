"""The lobby: opening a table (its options checked), taking and leaving seats, adding AI seats,
rematches, and starting the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.community.ratings import RATED
from bot.core import absence, logs
from bot.core.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.core.i18n import LANGUAGES, _, ngettext, refusal_text, speak
from bot.core.meta import ABSENT, AI_LEVEL, AI_SECONDS, CLOCK, LANGUAGE, PALETTE, REPLAY, VACATION
from bot.core.records import ABORTED, LOBBY, PLAYING, SeatRecord, Settings, TableRecord, User
from bot.core.refusals import Refused, duration, language, parse_options
from bot.core.replies import Message, Reply, clean_name, name_token
from bot.core.time_controls import BANK, NONE, PER_MOVE, TimeControl, parse_time_control
from bot.core.typing_rules import echo
from bot.media.watching import WATCH, WebLinks, new_token
from bot.service import rematch
from bot.storage.loader import STARTING_SEATS, new_game
from bot.storage.store import PlaceTaken, StaleTable
from bot.tables.change import confirmed
from bot.tables.core import Tables
from bot.words.wording import level_word, lobby_text
from engine import GAMES, GameError
from engine.digits import decimal_number
from engine.levels import AGENTS, LEVELS, level_of
from renderers.palettes import MODES, use_palette

BOT_NAMES = ["Pip", "Dot", "Bones", "Tilly", "Domi", "Rook", "Nib", "Cubby"]
RETRIES = 5
"""How often a lobby change is redone when another process changed the table meanwhile."""


class Lobby:
    """Tables before their game begins. `seeds` draws each new game's seed."""

    def __init__(self, tables: Tables, links: WebLinks, seeds: Callable[[], int]) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock
        self.links = links
        self.seeds = seeds

    async def create(self, place: str, user: User, game: str, *, options: str | dict[str, str] | None = None,
                     turn_time: str | None = None, guild: str | None = None, seat_creator: bool = True,
                     language: str | None = None) -> Reply:
        """Open a table in the lobby at `place`, with its creator seated (unless `seat_creator`
        is False: then everyone, the creator included, joins in the order they should sit).
        The table speaks the `lang=` option's language, else the server's, else `language` (the
        creator's, where the transport knows it), else English."""
        return await self.tables.guarded(self._create(place, user, game, options, turn_time, guild, seat_creator,
                                                language))

    async def check_new(self, game: str, *, options: str | dict[str, str] | None = None,
                        turn_time: str | None = None, guild: str | None = None,
                        levels: Sequence[str] = ()) -> str | None:
        """Why `create` would refuse a table of this game with these settings, or `add_ai` one
        of the AI `levels` (before the place exists: a transport asks first so it makes no
        thread, and the terminal no table, for a game that cannot begin)."""
        try:
            await self._vetted(game, options, turn_time, guild)
            for level in levels:
                level_named(level)
        except Refused as refused:
            return str(refused)
        return None

    async def _vetted(self, game: str, options: Any, turn_time: str | None,
                      guild: str | None) -> tuple[str, dict[str, str], int | None]:
        """The game's name, its options and the turn time in seconds, checked. The turn time is
        the one asked for, else the server's default, else the game's own, else a day."""
        name = game.strip().lower()
        if name not in GAMES:
            raise Refused(_("there is no game called '{game}'; choose one of {games}").format(
                game=echo(game), games=", ".join(sorted(GAMES))))
        settings = await self.store.settings(guild) if guild else None
        if settings and settings.allowed_games and name not in settings.allowed_games:
            raise Refused(_("this server allows {games} only").format(games=", ".join(settings.allowed_games)))
        parsed = parse_options(options)
        chosen_language = parsed.pop(LANGUAGE, None)
        if chosen_language is not None:
            parsed[LANGUAGE] = language(chosen_language)
        ai_seconds = parsed.pop(AI_SECONDS, None)
        if ai_seconds is not None:
            seconds = decimal_number(ai_seconds)
            if seconds is None or not 0 <= seconds <= 30:
                raise Refused(_("ai_seconds is how long AI players think, 0 to 30 seconds: like ai_seconds=2, "
                                "not '{value}'").format(value=echo(ai_seconds)))
            parsed[AI_SECONDS] = ai_seconds
        replay = parsed.pop(REPLAY, None)
        if replay is not None:
            if replay.strip().lower() not in ("on", "off"):
                raise Refused(_("`replay` says whether an animated replay is posted when the game ends: "
                                "`replay=on` or `replay=off`, not '{value}'").format(value=echo(replay)))
            parsed[REPLAY] = replay.strip().lower()
        palette = parsed.pop(PALETTE, None)
        if palette is not None:
            parsed[PALETTE] = palette_named(palette)
        ai_level = parsed.pop(AI_LEVEL, None)
        if ai_level is not None:
            parsed[AI_LEVEL] = level_named(ai_level)
        rated = parsed.pop(RATED, None)
        if rated is not None:
            parsed[RATED] = "off" if _switch(rated, RATED) is False else "on"
        vacation = parsed.pop(VACATION, None)
        if vacation is not None:
            parsed[VACATION] = "off" if _switch(vacation, VACATION) is False else "on"
        clock = parsed.pop(CLOCK, None)
        absent = parsed.pop(ABSENT, None)
        if absent is not None:
            parsed[ABSENT] = absent_mode(absent)
        try:
            chosen = GAMES[name].Options.parse({k: v for k, v in parsed.items()
                                                if k not in (AI_SECONDS, AI_LEVEL, LANGUAGE, PALETTE, RATED, REPLAY,
                                                             VACATION, ABSENT)})
        except GameError as error:
            raise Refused(refusal_text(error)) from None
        turn_seconds = GAMES[name].default_turn_seconds_for(chosen) or Settings("").turn_seconds
        if settings is not None and settings.turn_seconds_set:
            turn_seconds = settings.turn_seconds
        control = time_control(clock if clock is not None else settings.clock if settings else None)
        if turn_time is not None:
            if control.kind == BANK and clock is not None:
                raise Refused(_("`turn_time` is a fixed time per turn, and this table has a bank (`clock={clock}`): "
                                "leave out one of the two").format(clock=echo(clock)))
            seconds = duration(turn_time)
            control = TimeControl(PER_MOVE, seconds) if seconds is not None else TimeControl(NONE)
        if control.kind == BANK:
            assert control.bank is not None
            parsed[CLOCK] = clock if clock is not None else settings.clock if settings and settings.clock else ""
            turn_seconds = control.bank.start
        elif control.kind == NONE:
            turn_seconds = None
        elif control.turn_seconds is not None:
            turn_seconds = control.turn_seconds
        return name, parsed, turn_seconds

    async def language_for(self, options: Any, guild: str | None, language: str | None) -> str:
        """The language a table opened with `options` on `guild` by someone speaking `language`
        will speak (its `lang=` option, else the server's setting, else the opener's)."""
        try:
            chosen = parse_options(options).get(LANGUAGE)
        except Refused:
            chosen = None
        if chosen is not None and chosen.strip().lower() in LANGUAGES:
            return chosen.strip().lower()
        server = (await self.store.settings(guild)).language if guild else None
        return server or language or DEFAULT_LANGUAGE

    async def _create(self, place: str, user: User, game: str, options: Any, turn_time: str | None,
                      guild: str | None, seat_creator: bool, language: str | None) -> Reply:
        table = await self._new_table(place, user, game, options, turn_time, guild, language)
        if seat_creator:
            table.seats = [SeatRecord(0, clean_name(user.name), user.id)]
        try:
            await self._open(table)
        except PlaceTaken:
            existing = await self.store.table_at(place)
            raise Refused(_("there is already a {game} table here").format(
                game=GAMES[existing.game].title if existing else "")) from None
        logs.note(table=table.id, place=place, server=guild)
        return self.lobby_reply(table, _("🎲 {player} opened a {game} table.").format(
            player=name_token(user.name), game=GAMES[table.game].title))

    async def _new_table(self, place: str, user: User, game: str, options: Any, turn_time: str | None,
                         guild: str | None, language: str | None) -> TableRecord:
        """A lobby of this game at `place` (not yet stored, nobody seated), its options checked."""
        name, parsed, turn_seconds = await self._vetted(game, options, turn_time, guild)
        meta: dict[str, Any] = {AI_SECONDS: float(parsed.pop(AI_SECONDS))} if AI_SECONDS in parsed else {}
        meta[REPLAY] = parsed.pop(REPLAY, "on") == "on"
        meta[PALETTE] = parsed.pop(PALETTE, MODES[0])
        use_palette(meta[PALETTE])
        if AI_LEVEL in parsed:
            meta[AI_LEVEL] = parsed.pop(AI_LEVEL)
        if parsed.pop(RATED, "on") == "off":
            meta[RATED] = False
        if parsed.pop(VACATION, "on") == "off":
            meta[VACATION] = False
        clock = parsed.pop(CLOCK, None)
        bank = time_control(clock).bank if clock else None
        if bank is not None:
            meta[CLOCK] = bank.data()
        settings = await self.store.settings(guild) if guild else None
        meta[ABSENT] = parsed.pop(ABSENT, None) or (settings.absent if settings else None) or absence.DEFAULT_MODE
        server = settings.language if settings else None
        meta[LANGUAGE] = parsed.pop(LANGUAGE, None) or server or language or DEFAULT_LANGUAGE
        speak(meta[LANGUAGE])
        return TableRecord(id=0, place=place, game=name, options=parsed, status=LOBBY, created_by=user.id,
                           created_at=self.clock.now(), guild=guild, turn_seconds=turn_seconds, meta=meta)

    async def seated_game(self, place: str, host: User, game: str, options: dict[str, str], guild: str | None,
                          seats: Sequence[SeatRecord], *, meta: dict[str, Any],
                          headline: str) -> tuple[int, Reply | None]:
        """A game at `place` between `seats` (in this order), begun at once by `host` (a tournament's
        pairing): the table is created unless the place holds an open one already, and begun
        unless it has begun; (its id, the reply announcing its start, or None when it had begun
        before). `meta` is added to the table's. Refused when the options do not suit the game."""
        async with self.tables.lock(place):
            try:
                table: TableRecord | None = await self.tables.table(place)  # the lock's first read, taken
            except Refused:
                table = None
            if table is None or table.status not in (LOBBY, PLAYING):
                table = await self._new_table(place, host, game, options, None, guild, None)
                table.seats = [SeatRecord(index, s.name, s.user_id, s.agent) for index, s in enumerate(seats)]
                table.meta.update(meta)
                try:
                    await self._open(table)
                except PlaceTaken:  # another process opened it meanwhile
                    table = await self.store.table_at(place)
                    assert table is not None
            logs.note(table=table.id, place=place, server=guild)
            if table.status != LOBBY:
                return table.id, None
            return table.id, await self._begin(place, host, everyone_in=True, lead=headline)

    async def _open(self, table: TableRecord, *, claim: TableRecord | None = None) -> None:
        """Create `table` (and save `claim` with it, see `Store.create_table`) with the token of
        its spectator pages."""
        table.meta[WATCH] = new_token()
        await self.store.create_table(table, claim=claim)
        await self.store.watch_token(table.id, table.meta[WATCH])

    async def join(self, place: str, user: User) -> Reply:
        """Take a seat: in the lobby, or in a running game that lets new players join."""
        table = await self.store.table_at(place)
        if table is not None and table.status == PLAYING:
            return await self.tables.guarded(self._join_running(place, user), name="join")
        return await self.tables.guarded(self._lobby_change(place, user, "join"), name="join")

    async def _join_running(self, place: str, user: User) -> Reply:
        async with self.tables.lock(place):
            table, game = await self.tables.playing(place)
            if table.seat_of(user.id) is not None:
                raise Refused(_("you are already playing at this table"))
            change = await self.tables.change(table, game)
            try:
                change.join(clean_name(user.name), user.id)
            except GameError as error:
                raise Refused(refusal_text(error)) from None
            return await self.tables.finish(change, headline=_("👋 {player} joined the game.").format(
                player=name_token(user.name)))

    async def leave(self, place: str, user: User) -> Reply:
        return await self.tables.guarded(self._lobby_change(place, user, "leave"), name="leave")

    async def add_ai(self, place: str, user: User, kind: str | None = None) -> Reply:
        """Seat an AI player: a level ("easy", "normal", "hard"; by default the table's
        `ai_level=` option, else "normal"), "greedy" or "random", or an old name of a level
        ("bot", "strong")."""
        return await self.tables.guarded(self._lobby_change(place, user, "ai", kind), name="add_ai")

    async def _lobby_change(self, place: str, user: User, what: str, kind: str | None = None) -> Reply:
        async with self.tables.lock(place):
            for _attempt in range(RETRIES):
                table = await self.tables.table(place)
                headline = self._change_lobby(table, user, what, kind)
                try:
                    await confirmed(self.store.save_table(table))
                except StaleTable:
                    continue
                if table.status == ABORTED:
                    return Reply(public=Message(headline + " " + _("Nobody is left, so the table is closed.")),
                                 table_id=table.id, place=place, status=table.status)
                if what in ("join", "leave") and rematch.everyone_joined(table):
                    try:
                        begun = await self._begin(place, user, everyone_in=True)
                    except Refused:  # the seats do not suit the game: the lobby stays open
                        return self.lobby_reply(table, headline)
                    if begun.public is not None:
                        begun.public.text = f"{headline}\n{begun.public.text}"
                    return begun
                return self.lobby_reply(table, headline)
            raise StaleTable(0, 0)

    def _change_lobby(self, table: TableRecord, user: User, what: str, kind: str | None) -> str:
        """Seat or unseat someone in `table` (in memory); returns the headline."""
        if table.status != LOBBY:
            raise Refused(_("the game has already started") if table.status == PLAYING else _("this table is closed"))
        cls = GAMES[table.game]
        seat = table.seat_of(user.id)
        who = name_token(user.name)
        if what == "join":
            if seat is not None:
                raise Refused(_("you are already seated at this table"))
            if len(table.seats) >= cls.max_players:
                raise Refused(_("the table is full ({count} players)").format(count=cls.max_players))
            rematch.check_seat_free(table, user, cls.max_players, self.clock.now())
            table.seats.append(SeatRecord(len(table.seats), clean_name(user.name), user.id))
            rematch.in_old_order(table)
            return _("👋 {player} joined.").format(player=who)
        if what == "leave":
            if seat is None and rematch.decline(table, user):
                return _("👋 {player} declined the rematch; their seat is free.").format(player=who)
            if seat is None:
                raise Refused(_("you are not seated at this table"))
            table.unseat(seat)
            if not any(s.user_id for s in table.seats):
                table.status = ABORTED
            return _("👋 {player} left.").format(player=who)
        hosting(table, user, _("only {player} or a moderator can add an AI player"))
        agent = level_named(kind if kind is not None else str(table.meta.get(AI_LEVEL, "normal")))
        if len(table.seats) >= cls.max_players:
            raise Refused(_("the table is full ({count} players)").format(count=cls.max_players))
        rematch.check_seat_free(table, user, cls.max_players, self.clock.now())
        taken = {s.name for s in table.seats}
        bot_name = next((f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in taken), f"Bot {len(table.seats) + 1}")
        table.seats.append(SeatRecord(len(table.seats), bot_name, None, agent))
        rematch.in_old_order(table)
        return _("🤖 {player} ({agent} AI) sits down.").format(player=name_token(bot_name), agent=level_word(agent))

    async def rematch_problem(self, place: str, user: User) -> str | None:
        """Why `user` may not open a rematch of the game at `place` (None: they may)."""
        try:
            rematch.check(await self.tables.table_at(place), user)
        except Refused as refused:
            return str(refused)
        return None

    async def rematch(self, place: str, new_place: str, user: User) -> Reply:
        """Open a rematch of the finished game at `place` at `new_place` (see `bot.service.rematch`); the
        reply's public message is its lobby, mentioning the invited players."""
        return await self.tables.guarded(self._rematch(place, new_place, user))

    async def _rematch(self, place: str, new_place: str, user: User) -> Reply:
        """One rematch per finished game, whichever process asks first: the new table is created
        in the same transaction that notes it on the old one, which fails if another rematch
        was noted since (then this one is refused, naming it)."""
        async with self.tables.lock(place):
            for _attempt in range(RETRIES):
                old = await self.tables.table(place)
                rematch.check(old, user)
                table = rematch.new_table(old, new_place, user, self.clock.now())
                old.meta[rematch.REMATCH] = new_place
                try:
                    await self._open(table, claim=old)
                except StaleTable:
                    continue
                except PlaceTaken:
                    raise Refused(_("there is already a table there")) from None
                break
            else:
                raise StaleTable(0, 0)
        reply = self.lobby_reply(table, rematch.invitation(old, table, user, GAMES[table.game].title))
        reply.mentions = list(table.meta[rematch.INVITED])
        return reply

    def lobby_reply(self, table: TableRecord, headline: str) -> Reply:
        """The lobby message, with the table's web link while there is one."""
        text = f"{headline}\n{lobby_text(table)}{self.links.watch_line(table)}"
        return Reply(public=Message(text), table_id=table.id, place=table.place, status=table.status)

    async def note_message(self, place: str, key: str, value: Any) -> None:
        """Remember something a transport needs later about the table at `place` (Discord: the
        lobby message's id, to edit it when a moderator removes someone)."""
        async with self.tables.lock(place):
            for _attempt in range(RETRIES):
                table = await self.store.table_at(place)
                if table is None:
                    return
                table.meta[key] = value
                try:
                    await self.store.save_table(table)
                    return
                except StaleTable:
                    continue

    async def start(self, place: str, user: User) -> Reply:
        """Start the game: draw and record the seed and deal; AI seats to move first play after it
        (`bot.durable.ai_turns`)."""
        return await self.tables.guarded(self._start(place, user))

    async def _start(self, place: str, user: User) -> Reply:
        async with self.tables.lock(place):
            return await self._begin(place, user)

    async def _begin(self, place: str, user: User, *, everyone_in: bool = False, lead: str = "") -> Reply:
        """Start the game at `place` for `user` (the place's lock is held). `everyone_in`: every
        player invited to a rematch has joined, which starts it whoever joined last (else only
        the host or a moderator may). `lead`: a line the announcement begins with."""
        table = await self.tables.table(place)
        if table.status != LOBBY:
            raise Refused(_("the game has already started") if table.status == PLAYING
                          else _("this table is closed"))
        if not everyone_in:
            hosting(table, user, _("only {player} or a moderator can start this game"))
        cls = GAMES[table.game]
        seated = ngettext("{count} is seated", "{count} are seated", len(table.seats)).format(count=len(table.seats))
        if len(table.seats) < cls.min_players:
            raise Refused(ngettext("{game} needs at least {needed} player; {seated}",
                                   "{game} needs at least {needed} players; {seated}", cls.min_players).format(
                game=cls.title, needed=cls.min_players, seated=seated))
        if len(table.seats) not in cls.player_counts():
            raise Refused(_("{game} is played by {counts} players; {seated}").format(
                game=cls.title, counts=", ".join(map(str, cls.player_counts())), seated=seated))
        rematch.in_old_order(table)
        table.seed = self.seeds()
        table.status = PLAYING
        table.meta[STARTING_SEATS] = len(table.seats)
        game = new_game(table)
        change = await self.tables.change(table, game, beginning=True)
        change.began_by = user.id
        change.events += game.opening
        seated = ", ".join(name_token(s.name) for s in table.seats)
        try:
            return await self.tables.finish(change, headline=(lead + "\n" if lead else "") + _(
                "🎲 {game} begins: {players}.").format(game=cls.title, players=seated) + self.links.watch_line(table))
        except StaleTable:
            raise Refused(_("the game has already started")) from None


def hosting(table: TableRecord, user: User, refused: str) -> None:
    """Refused (`refused`, naming the host) unless `user` is a moderator or hosts the lobby:
    its creator, or once the creator has left, the person seated longest."""
    host = host_of(table)
    if user.moderator or user.id == host:
        return
    seat = table.seat_of(host)
    raise Refused(refused.format(player=name_token(table.seats[seat].name) if seat is not None else
                                 _("whoever opened this table")))


def palette_named(value: str) -> str:
    """The look (`renderers.palettes.MODES`) a `palette=` option names, or Refused saying which
    there are."""
    mode = value.strip().lower()
    if mode not in MODES:
        raise Refused(_("`palette` is how the pictures look: `palette=normal` (in colour) or `palette=mono` "
                        "(high contrast, in greys), not '{value}'").format(value=echo(value)))
    return mode


def level_named(kind: str) -> str:
    """The agent `kind` names (`engine.levels.level_of`), or Refused saying what to type."""
    level = level_of(kind)
    if level is None:
        raise Refused(_("there is no AI level called '{name}'; choose one of {levels} (or {others})").format(
            name=echo(kind), levels=", ".join(map(level_word, LEVELS)),
            others=", ".join(level_word(a) for a in AGENTS if a not in LEVELS)))
    return level


def absent_mode(value: str) -> str:
    """The `absent=` mode `value` names (`bot.core.absence`), or Refused saying what to type."""
    mode = absence.read_mode(value)
    if mode is None:
        raise Refused(_("`absent` says what happens when a player's time runs out at a table of three or more: "
                        "`absent=standin` (an AI plays for them until they come back), `absent=skip` (their turns "
                        "are passed) or `absent=remove` (they leave the game), not '{value}'").format(
            value=echo(value)))
    return mode


def host_of(table: TableRecord) -> str:
    """Who runs a lobby (adds AI players, starts the game): its creator while seated, else the
    person seated longest; the creator again when no person is seated."""
    if table.seat_of(table.created_by) is not None:
        return table.created_by
    return next((s.user_id for s in table.seats if s.user_id), table.created_by)


def time_control(text: str | None) -> TimeControl:
    """The time control `clock=` (or the server's default) chose; per move when none was; Refused,
    saying what to write, when it cannot be read."""
    if text is None or not text.strip():
        return TimeControl(PER_MOVE)
    try:
        return parse_time_control(text)
    except ValueError as error:
        raise Refused(str(error)) from None


def _switch(value: str, option: str) -> bool:
    """An on/off option's value (Refused, saying what to write, if it is neither)."""
    cleaned = value.strip().lower()
    if cleaned in ("on", "yes", "true", "1"):
        return True
    if cleaned in ("off", "no", "false", "0"):
        return False
    raise Refused(_("`{option}` is on or off, like `{option}=off`, not '{value}'").format(option=option,
                                                                                     value=echo(value)))
