"""`ConsoleSession`: one person playing at the terminal, starting a game or resuming one, then
typing moves and commands until it ends; what the referee says is printed in the order things
happened (a command's answer first, then what the AI seats did meanwhile)."""

from __future__ import annotations

import uuid
from pathlib import Path

from bot.adapters.console.hints import help_text, say_hints
from bot.adapters.console.pictures import pick_picture
from bot.adapters.console.screen import Screen
from bot.adapters.console.terminal import COMMANDS, YES, Ask, Say
from bot.core.i18n import _, speak, speaking
from bot.core.meta import FOOT, LANGUAGE
from bot.core.records import PLAYING, User
from bot.core.replies import Reply
from bot.media.search import Media
from bot.service.referee import Referee
from engine import GAMES
from engine.digits import whole_number

PLACE_PREFIX = "console:"
"""How the places of console tables begin (the rest is a random id)."""
AI_PATIENCE = 120.0
"""Seconds the prompt waits for the AI seats to move before it asks anyway."""


class ConsoleSession:
    """One person playing at the terminal: `new_game` or `resume`, then `play`. Lines are read
    with `ask` and printed with `say`; board pictures are saved under `boards`."""

    def __init__(self, referee: Referee, user: User, *, ask: Ask, say: Say, boards: Path,
                 colour: bool = False, media: Media | None = None, screen_reader: bool = False) -> None:
        self.referee = referee
        self.user = user
        self.ask = ask
        self.say = say
        self.screen = Screen(say, colour=colour, boards=boards, clock=referee.clock, screen_reader=screen_reader)
        self.media = media or Media.from_environment()
        self.place: str | None = None
        """The place of the table this session plays: the only one whose announcements it
        prints (those of the others wait in the outbox for the session that plays them)."""
        self._seen: int | None = None
        """The log length of this table's board as last shown: moves typed are based on it."""
        self._thinking_said: str | None = None
        """The "is thinking…" line said last, if nothing was said since."""
        self._held: list[str | Reply] | None = None
        """What the referee said unprompted while a command's answer was being printed (printed
        after it, so lines come in the order things happened)."""
        referee.notify = self._unprompted
        referee.ai.thinking = self._thinking
        referee.move_help = False  # "…or use /move": a Discord command (`help` and `hints` are the console's)
        referee.serve()  # no table yet

    async def _unprompted(self, reply: Reply) -> None:
        """An announcement nobody asked for (the AI seats' moves, the clock)."""
        if self._held is not None:
            self._held.append(reply)
        else:
            await self._show(reply)

    async def _thinking(self, place: str, name: str) -> None:
        """"Pip (bot) is thinking…", once for a run of that seat's turns (a draw, then a pass)."""
        line = _("{player} is thinking…").format(player=name)
        if line == self._thinking_said:
            return
        self._thinking_said = line
        if self._held is not None:
            self._held.append(line)
        else:
            self.say(line)

    async def _answer(self, reply: Reply) -> None:
        """Print a command's reply, then what was said meanwhile (held since the command was
        sent, or from now on)."""
        if self._held is None:
            self._held = []
        try:
            await self._show(reply)
        finally:
            held, self._held = self._held, None
        for item in held:
            if isinstance(item, str):
                self.say(item)
                self._thinking_said = item  # the reply shown before it did not say it again
            else:
                await self._show(item)

    # ---- starting ---------------------------------------------------------------------------

    async def new_game(self, game: str, players: list[str], options: str = "") -> str | None:
        """Seat everyone in the order given ("me" is the person at the keyboard; the levels "easy",
        "normal" (or "bot") and "hard", and "greedy" and "random", are AI players), start, and
        return the table's place. Whatever would keep the game from beginning is refused, saying
        what may be given, before any table is made."""
        problem = await self._problem_with(game, players, options)
        if problem:
            self.say(f"✗ {self.screen.text(problem)}")
            return None
        place = f"{PLACE_PREFIX}{uuid.uuid4().hex[:10]}"
        reply = await self.referee.create(place, self.user, game, options=options, seat_creator=False)
        if not self.screen.accepted(reply):
            return None
        self._serve(place)
        for player in players:
            if player == "me":
                reply = await self.referee.join(place, self.user)
            else:
                reply = await self.referee.add_ai(place, self.user, player)
            if not self.screen.accepted(reply):
                await self.referee.abort(place, self.user)
                return None
        self._held = []
        reply = await self.referee.start(place, self.user)
        if not self.screen.accepted(reply):
            self._held = None
            await self.referee.abort(place, self.user)
            return None
        await self._answer(reply)
        return place

    async def _problem_with(self, game: str, players: list[str], options: str) -> str | None:
        """Why a new game of `game` with these `players` and `options` could not begin, or None."""
        if game not in GAMES:
            return _("There is no game called '{game}'. Games: {games}.").format(game=game,
                                                                               games=", ".join(sorted(GAMES)))
        if players.count("me") != 1:
            return _("Put `me` exactly once in --players, e.g. --players me,bot,bot")
        cls = GAMES[game]
        if len(players) not in cls.player_counts():
            counts = cls.player_counts()
            if len(counts) == 1:
                allowed = str(counts[0])
            elif list(counts) == list(range(counts[0], counts[-1] + 1)):
                allowed = _("{low} to {high}").format(low=counts[0], high=counts[-1])
            else:
                allowed = _("{some} or {last}").format(some=", ".join(map(str, counts[:-1])), last=counts[-1])
            return _("{game} is played by {allowed} players, and --players names {count}: like --players "
                     "{example}").format(game=cls.title, allowed=allowed, count=len(players),
                                         example=",".join(["me", *["bot"] * (max(counts[0], 2) - 1)]))
        return await self.referee.check_new(game, options=options, levels=[p for p in players if p != "me"])

    async def resume(self, *, name: str | None = None, language: str | None = None,
                     ai_seconds: float | None = None, palette: str | None = None) -> str | None:
        """The newest unfinished console game this person sits at: its board and their hand
        are printed again. The game keeps its language, its AI players' thinking time, its
        pictures' look and the person's name at the table, unless new ones are given."""
        for table in await self.referee.store.find_tables(place_prefix=PLACE_PREFIX, statuses=(PLAYING,)):
            seat = table.seat_of(self.user.id)
            if seat is not None and not await self._left(table.place, seat):
                changed = ""
                if name is not None or language is not None or ai_seconds is not None or palette is not None:
                    reply = await self.referee.adjust(table.place, self.user, name=name, language_code=language,
                                                      ai_seconds=ai_seconds, palette=palette)
                    if not self.screen.accepted(reply):
                        return None
                    changed = reply.caller.text if reply.caller else ""
                    table = await self.referee.table_at(table.place) or table
                self.user = User(self.user.id, table.seats[seat].name, moderator=self.user.moderator)
                with speaking(table.meta.get(LANGUAGE)):
                    self.say(_("Resuming table {table} ({game}).").format(table=table.id,
                                                                          game=GAMES[table.game].title))
                    if changed:
                        self.say(self.screen.text(changed))
                self._serve(table.place)
                self._seen = await self.referee.log_length(table.place)  # their texts, then the board once
                await self.referee.outbox.send_pending(table.id)  # what the last session left unsaid
                await self._show_board(table.place)
                return table.place
        self.say(_("There is no unfinished console game to resume. Start one with\n"
                   "  tileref play tronimoes --players me,bot,bot"))
        return None

    # ---- playing ----------------------------------------------------------------------------

    async def play(self, place: str) -> None:
        """Read commands until the game ends or the player stops."""
        while True:
            try:
                await self.referee.ai.idle(timeout=AI_PATIENCE)
            except TimeoutError:
                self.say(_("The AI players have not moved yet; type `board` to see where the game stands."))
            table = await self.referee.table_at(place)
            if table is not None:
                speak(table.meta.get(LANGUAGE))
            if table is None or table.status != PLAYING:
                if table is not None:  # its last announcements (the replay) now, not left for later
                    await self.referee.outbox.send_pending(table.id)
                self.say(_("The game is over. It is saved in {path}.").format(path=self.referee_path()))
                return
            line = await self.ask(f"{self.user.name}> ")
            if line is None:
                self.say("\n" + _("Saved. Continue with `tileref play --resume`."))
                return
            command = line.strip()
            word = command.split(" ")[0].lower() if command else ""
            rest = command[len(word):].strip()
            if not command:
                continue
            what = COMMANDS.get(word)
            if what == "quit":
                self.say(_("Saved. Continue with `tileref play --resume`."))
                return
            if what == "help":
                self.say(self.screen.text(await help_text(self.referee, self.user, place, table.game)))
            elif what == "hints":
                await say_hints(self.referee, self.user, self.screen, place, rest)
            elif what == "quest" and FOOT not in GAMES[table.game].chosen_pictures:
                self.say(_("{game} has no vision quest: that is Tronimoes' chicken-foot.").format(
                    game=GAMES[table.game].title))
            elif what in ("react", "quest"):
                await pick_picture(self.referee, self.user, self.media, self.screen, self.ask, place, what, rest)
            elif what == "hand":
                await self._show_hand(place)
            elif what == "board":
                await self._show_board(place)
            elif what == "describe":
                await self._show(await self.referee.describe(place, self.user))
            elif what == "history":
                page = whole_number(rest.split(" ")[0]) if rest else 1
                if page is None:
                    self.say(_("history takes a page number written with the digits 0 to 9, like `history 2`; "
                               "page 1 is the latest moves"))
                else:
                    await self._show(await self.referee.history(place, self.user, page=page))
            elif what == "rules":
                game = GAMES[table.game]
                self.say(self.screen.text(f"{_(game.summary)}\n\n{_(game.notation_help)}"))
            elif what == "resign":
                confirm = await self.ask(_("Leave this game for good? (yes/no) "))
                if confirm and confirm.strip().lower() in YES:
                    self._held = []
                    await self._answer(await self.referee.resign(place, self.user))
                    if not await self._watch_without_me(place):
                        return
            else:
                self._held = []
                await self._answer(await self.referee.act(place, self.user, command, seen=self._seen))

    async def _watch_without_me(self, place: str) -> bool:
        """After a resignation, whether to stay: when the game goes on without the player, they
        are asked whether to watch the rest or leave (Enter leaves)."""
        table = await self.referee.table_at(place)
        if table is None or table.status != PLAYING:
            return True  # it ended: `play` says so
        answer = await self.ask(_("The game goes on without you. Watch the rest? (yes/no; Enter leaves) "))
        if answer and answer.strip().lower() in YES:
            return True
        self.say(_("You have left the game; the others play on without you."))
        return False

    async def _left(self, place: str, seat: int) -> bool:
        """Whether the player at `seat` has left the game at `place` (resigned: it goes on without them)."""
        shown = await self.referee.view(place)
        return shown is not None and shown[1].is_resigned(seat)

    def _serve(self, place: str) -> None:
        """Play the table at `place` from now on: its announcements alone are printed here."""
        self.place = place
        self._seen = None
        self.referee.serve(place)

    def referee_path(self) -> str:
        """Where the games are saved: the database file, or words for a database elsewhere."""
        path = getattr(self.referee.store, "path", None)
        return str(path) if path else _("the database")

    # ---- output -----------------------------------------------------------------------------

    async def _show(self, reply: Reply) -> None:
        """Print a reply: the refusal (with the board as it is now, if the board changed since it
        was shown), or what happened, the board if it changed since it was shown, and your hand."""
        self._thinking_said = None
        if not reply.ok:
            self.say(f"✗ {self.screen.text(reply.caller.text) if reply.caller else _('refused')}")
            if reply.stale and self.place is not None:
                await self._show_board(self.place)
            return
        if reply.caller and reply.caller.text:
            self.say(self.screen.text(reply.caller.text))
        self.screen.save_images(reply.caller.attachments if reply.caller else [], reply.table_id)
        if reply.public is None:
            return
        shown = await self.referee.view(reply.place) if reply.place and reply.place == self.place else None
        if shown is not None and (reply.ply is None or reply.ply != self._seen):
            self._seen = len(shown[1].log)
            self.screen.board(shown[1], shown[0].seat_of(self.user.id))
        if reply.public.text:
            self.say(self.screen.text(reply.public.text))
        self.screen.say_saved(self.screen.save_images(reply.public.attachments, reply.table_id))
        if shown is not None:
            table, game = shown
            seat = table.seat_of(self.user.id)
            if seat is not None and seat in reply.private:
                self.say(self.screen.text(reply.private[seat].text))
            self.screen.hand(game, seat)

    async def _show_board(self, place: str) -> None:
        """The board as text, whose turn it is (the picture saved), and the player's hand."""
        reply = await self.referee.board(place, self.user)
        if not reply.ok:
            await self._show(reply)
            return
        shown = await self.referee.view(place)
        if shown is None:
            return
        table, game = shown
        self._seen = len(game.log)
        self.screen.legend_shown = False
        self.screen.board(game, table.seat_of(self.user.id))
        if reply.caller and reply.caller.text:
            self.say(self.screen.text(reply.caller.text))
        self.screen.say_saved(self.screen.save_images(reply.caller.attachments if reply.caller else [], reply.table_id))
        seat = table.seat_of(self.user.id)
        self.screen.hand(game, seat, always=not self.screen.screen_reader)

    async def _show_hand(self, place: str) -> None:
        """The player's hand in words (as `Screen.hand` prints it), its picture saved."""
        reply = await self.referee.hand(place, self.user)
        shown = await self.referee.view(place)
        seat = shown[0].seat_of(self.user.id) if shown is not None else None
        if not reply.ok or shown is None or seat is None or shown[1].view(seat).get("hand") is None:
            await self._show(reply)  # a refusal, or a game that hides nothing
            return
        self.screen.save_images(reply.caller.attachments if reply.caller else [], reply.table_id)
        self.screen.hand(shown[1], seat, always=True)
