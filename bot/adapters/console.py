"""Playing in the terminal against AI seats, through the same referee, notation and errors as on
Discord, saved in the same SQLite file (`tileref play --resume` picks a game up again).

Each move prints what happened, the board as text and your hand; the board picture is written
to a folder as a PNG after every move. AI seats move after yours: "Pip (bot) is thinking…", then
their moves together, and then it is your turn again (the prompt waits for them).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import threading
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.community.leaderboards import ratings_explained
from bot.core.i18n import N_, _, ngettext, speak, speaking
from bot.core.meta import FOOT, LANGUAGE
from bot.core.records import PLAYING, TableRecord, User
from bot.core.replies import Attachment, Reply, terminal_text
from bot.core.typing_rules import echo
from bot.media.search import Media, MediaError
from bot.service.referee import Referee
from bot.words.wording import hand_text
from engine import GAMES, Game
from engine.digits import whole_number
from renderers import text_board

PLACE_PREFIX = "console:"
HINTS_SHOWN = 40
"""How many moves `hints <start>` lists at most."""
HINTS_BEST = 8
"""How many of the best moves `hints` lists (`hints all`: every one)."""
LOCAL_USER_ID = "console:local"
AI_PATIENCE = 120.0
"""Seconds the prompt waits for the AI seats to move before it asks anyway."""

HELP_INTRO = N_("Type a move: how moves are written in this game is just below. Other commands:")
HELP_LINES: tuple[tuple[str, str, str], ...] = (
    ("hints", N_("hints [all | start]"),
     N_("your best moves now; with all, every move; with a start, the moves beginning with it")),
    ("hand", N_("hand"), N_("what you hold (the picture is saved too)")),
    ("board", N_("board"), N_("the board again")),
    ("history", N_("history [page]"), N_("the moves so far")),
    ("rules", N_("rules"), N_("how to play")),
    ("react", N_("react <words>"), N_("find a GIF or sticker and react with it")),
    ("quest", N_("quest <words>"), N_("your vision quest: pick the picture drawn at the foot of your line")),
    ("resign", N_("resign"), N_("leave this game")),
    ("quit", N_("quit"), N_("stop here; continue later with `tileref play --resume`")),
)
"""The console's commands as `help` lists them: what each does, how it is typed, and what it does
(in the table's language); those a game has no use for are left out."""

COMMANDS = {
    "help": "help", "?": "help", "ayuda": "help",
    "hints": "hints", "moves": "hints", "pistas": "hints", "jugadas": "hints",
    "hand": "hand", "mano": "hand",
    "board": "board", "tablero": "board",
    "history": "history", "historial": "history",
    "rules": "rules", "reglas": "rules",
    "react": "react", "reaccionar": "react",
    "quest": "quest", "búsqueda": "quest", "busqueda": "quest",
    "resign": "resign", "rendirse": "resign", "rendirme": "resign",
    "quit": "quit", "exit": "quit", "q": "quit", "salir": "quit",
}
"""The console's own commands, in English and in Spanish (the help lists them in the table's
language), by what they do."""
YES = {"y", "yes", "s", "si", "sí"}
ALL = {"all", "todas", "todo", "todos"}

Ask = Callable[[str], Awaitable[str | None]]
Say = Callable[[str], None]


async def ask_terminal(prompt: str) -> str | None:
    """A line typed in the terminal, or None at end of input (Ctrl-D).

    The line is read in a thread of its own that nobody waits for, so Ctrl-C (which cancels the
    program's task) ends the program at once: a thread of the event loop's pool would keep it
    waiting at exit until Enter was pressed."""
    loop = asyncio.get_running_loop()
    typed: asyncio.Future[str | None] = loop.create_future()

    def read() -> None:
        try:
            line: str | None = input(prompt)
        except (EOFError, OSError, ValueError):  # end of input, or stdin closed under us
            line = None
        with contextlib.suppress(RuntimeError):  # the loop is gone: the program has ended
            loop.call_soon_threadsafe(lambda: typed.done() or typed.set_result(line))

    threading.Thread(target=read, name="tileref-input", daemon=True).start()
    return await typed


def local_user(name: str | None = None) -> User:
    """The person at the keyboard: the local moderator of their own console games."""
    try:
        login = getpass.getuser()
    except Exception:
        login = ""
    return User(LOCAL_USER_ID, name or login or "Player", moderator=True)


class ConsoleSession:
    """One person playing at the terminal."""

    def __init__(self, referee: Referee, user: User, *, ask: Ask, say: Say, boards: Path,
                 colour: bool = False, media: Media | None = None) -> None:
        self.referee = referee
        self.user = user
        self.ask = ask
        self.say = say
        self.boards = boards
        self.colour = colour
        self._legend_shown = False
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
            self.say(f"✗ {self._text(problem)}")
            return None
        place = f"{PLACE_PREFIX}{uuid.uuid4().hex[:10]}"
        reply = await self.referee.create(place, self.user, game, options=options, seat_creator=False)
        if not self._ok(reply):
            return None
        self._serve(place)
        for player in players:
            if player == "me":
                reply = await self.referee.join(place, self.user)
            else:
                reply = await self.referee.add_ai(place, self.user, player)
            if not self._ok(reply):
                await self.referee.abort(place, self.user)
                return None
        self._held = []
        reply = await self.referee.start(place, self.user)
        if not self._ok(reply):
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
                     ai_seconds: float | None = None) -> str | None:
        """The newest unfinished console game this person sits at: its board and their hand
        are printed again. The game keeps its language, its AI players' thinking time and the
        person's name at the table, unless new ones are given."""
        for table in await self.referee.store.find_tables(place_prefix=PLACE_PREFIX, statuses=(PLAYING,)):
            seat = table.seat_of(self.user.id)
            if seat is not None and not await self._left(table.place, seat):
                changed = ""
                if name is not None or language is not None or ai_seconds is not None:
                    reply = await self.referee.adjust(table.place, self.user, name=name, language_code=language,
                                                      ai_seconds=ai_seconds)
                    if not self._ok(reply):
                        return None
                    changed = reply.caller.text if reply.caller else ""
                    table = await self.referee.table_at(table.place) or table
                self.user = User(self.user.id, table.seats[seat].name, moderator=self.user.moderator)
                with speaking(table.meta.get(LANGUAGE)):
                    self.say(_("Resuming table {table} ({game}).").format(table=table.id,
                                                                          game=GAMES[table.game].title))
                    if changed:
                        self.say(self._text(changed))
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
                self.say(self._text(f"{await self._help(place)}\n\n{_(GAMES[table.game].notation_help)}\n\n"
                                    f"{ratings_explained()}"))
            elif what == "hints":
                await self._say_hints(place, rest)
            elif what == "quest" and FOOT not in GAMES[table.game].chosen_pictures:
                self.say(_("{game} has no vision quest: that is Tronimoes' chicken-foot.").format(
                    game=GAMES[table.game].title))
            elif what in ("react", "quest"):
                await self._pick_picture(place, what, rest)
            elif what == "hand":
                await self._show_hand(place)
            elif what == "board":
                await self._show_board(place)
            elif what == "history":
                page = whole_number(rest.split(" ")[0]) if rest else 1
                if page is None:
                    self.say(_("history takes a page number written with the digits 0 to 9, like `history 2`; "
                               "page 1 is the latest moves"))
                else:
                    await self._show(await self.referee.history(place, self.user, page=page))
            elif what == "rules":
                game = GAMES[table.game]
                self.say(self._text(f"{_(game.summary)}\n\n{_(game.notation_help)}"))
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

    async def _help(self, place: str) -> str:
        """The console's commands this game has (`HELP_LINES`), lined up."""
        shown = await self.referee.view(place)
        if shown is None:
            return _(HELP_INTRO)
        table, game = shown
        seat = table.seat_of(self.user.id)
        has = {"hand": seat is not None and isinstance(game.view(seat).get("hand"), (list, dict)),
               "quest": FOOT in type(game).chosen_pictures}
        lines = [(_(usage), _(does)) for name, usage, does in HELP_LINES if has.get(name, True)]
        width = max(len(usage) for usage, _does in lines) + 3
        return "\n".join([_(HELP_INTRO), *(f"  {usage.ljust(width)}{does}" for usage, does in lines)])

    async def _say_hints(self, place: str, typed: str) -> None:
        """`hints`: the best few moves; `hints all`: every move; `hints <start>`: the moves that
        begin with it."""
        if typed and typed.lower() not in ALL:
            moves = [shown for shown, _ in await self.referee.suggestion_choices(place, self.user, typed, 10_000)]
            self.say(self._hints(moves, HINTS_SHOWN))
        elif typed:
            moves = [shown for shown, _ in await self.referee.suggestion_choices(place, self.user, "", 10_000)]
            self.say(self._hints(moves, None))
        else:
            best, count = await self.referee.best_moves(place, self.user, HINTS_BEST)
            if not best:
                self.say(self._hints([], None))
                return
            text = _("Your best moves now: {moves}").format(moves=", ".join(shown for shown, _ in best))
            if count > len(best):
                more = count - len(best)
                text += " " + ngettext("(and {count} more: `hints all` lists every move)",
                                       "(and {count} more: `hints all` lists every move)", more).format(count=more)
            self.say(self._text(text))

    def _hints(self, hints: list[str], limit: int | None) -> str:
        """The moves a player may make, in one line (at most `limit` of them, if given)."""
        if not hints:
            return _("You can play: nothing now (it is not your turn)")
        shown = ", ".join(hints[:limit])
        if limit is not None and len(hints) > limit:
            more = len(hints) - limit
            shown += " " + ngettext("… and {count} more (`hints <start>` narrows them)",
                                    "… and {count} more (`hints <start>` narrows them)", more).format(count=more)
        return self._text(_("You can play: {moves}").format(moves=shown))

    async def _pick_picture(self, place: str, kind: str, query: str) -> None:
        """Search pictures, let the player pick one by number, and react with it or keep it as
        their chicken-foot."""
        if not query:
            self.say(_("What should I look for? For example: `{command} victory`.").format(command=kind))
            return
        result = await self.media.search(query, limit=9)
        found = result.pictures
        if result.provider_down:
            self.say(_("The picture service is not answering right now, so these are tileref's own pictures."))
        if not found:
            self.say(_("Nothing found for “{query}”: try other words.").format(query=echo(query)))
            return
        for number, picture in enumerate(found, start=1):
            self.say(f"  {number}. {picture.title}")
        self.say(f"({found[0].attribution})")
        answer = await self.ask(_("Which one? (a number, or Enter for none) "))
        number = whole_number(answer or "")
        if number is None or not 1 <= number <= len(found):
            self.say(_("Nothing chosen."))
            return
        chosen = found[number - 1]
        try:
            png = await self.media.picture(chosen)
        except MediaError as error:
            self.say(f"✗ {error.said()}")
            return
        table = await self.referee.table_at(place)
        if kind == "quest":
            reply = await self.referee.choose_picture(place, self.user, FOOT, png, chosen.source)
            self.say(self._text(reply.caller.text) if reply.caller else _("Done."))
            return
        saved = self._save_images([Attachment("reaction.png", png, chosen.title)], table.id if table else None)
        self.say(_("{player} reacts: {title} ({source}) · picture: {path}").format(
            player=self.user.name, title=chosen.title, source=chosen.attribution, path=saved[-1]))

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
        path = getattr(self.referee.store, "path", None)
        return str(path) if path else _("the database")

    # ---- output -----------------------------------------------------------------------------

    def _text(self, text: str) -> str:
        return terminal_text(text, self.colour, self.referee.clock.now())

    def _ok(self, reply: Reply) -> bool:
        if not reply.ok and reply.caller:
            self.say(f"✗ {self._text(reply.caller.text)}")
        return reply.ok

    async def _show(self, reply: Reply) -> None:
        """Print a reply: the refusal (with the board as it is now, if the board changed since it
        was shown), or what happened, the board if it changed since it was shown, and your hand."""
        self._thinking_said = None
        if not reply.ok:
            self.say(f"✗ {self._text(reply.caller.text) if reply.caller else _('refused')}")
            if reply.stale and self.place is not None:
                await self._show_board(self.place)
            return
        if reply.caller and reply.caller.text:
            self.say(self._text(reply.caller.text))
        self._save_images(reply.caller.attachments if reply.caller else [], reply.table_id)
        if reply.public is None:
            return
        shown = await self.referee.view(reply.place) if reply.place and reply.place == self.place else None
        if shown is not None and (reply.ply is None or reply.ply != self._seen):
            self._seen = len(shown[1].log)
            self._print_board(shown[1])
        if reply.public.text:
            self.say(self._text(reply.public.text))
        self._say_saved(self._save_images(reply.public.attachments, reply.table_id))
        if shown is not None:
            table, game = shown
            seat = table.seat_of(self.user.id)
            if seat is not None and seat in reply.private:
                self.say(self._text(reply.private[seat].text))
            self._print_hand(table, game)

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
        self._legend_shown = False
        self._print_board(game)
        if reply.caller and reply.caller.text:
            self.say(self._text(reply.caller.text))
        self._say_saved(self._save_images(reply.caller.attachments if reply.caller else [], reply.table_id))
        self._print_hand(table, game, always=True)

    async def _show_hand(self, place: str) -> None:
        """The player's hand in words (as `_print_hand` prints it), its picture saved."""
        reply = await self.referee.hand(place, self.user)
        shown = await self.referee.view(place)
        seat = shown[0].seat_of(self.user.id) if shown is not None else None
        if not reply.ok or shown is None or seat is None or shown[1].view(seat).get("hand") is None:
            await self._show(reply)  # a refusal, or a game that hides nothing
            return
        self._save_images(reply.caller.attachments if reply.caller else [], reply.table_id)
        self._print_hand(*shown, always=True)

    def _print_board(self, game: Game) -> None:
        board = text_board(game, self.colour, legend=not self._legend_shown)
        if board:
            self.say(board)
            self._legend_shown = True

    def _print_hand(self, table: TableRecord, game: Game, *, always: bool = False) -> None:
        """The player's hand when it is their turn (or `always`), or what the round break waits for."""
        seat = table.seat_of(self.user.id)
        if seat is None or game.outcome() is not None:
            return
        if seat in game.to_move() and game.between_rounds():
            self.say(self._text(_("Type `ready` when you want the next round to start.")))
        elif (always or seat in game.to_move()) and game.view(seat).get("hand") is not None:
            self.say(self._text(hand_text(game, seat, brackets=not self.colour) + "   " +
                                _("(`hints` for your best moves)")))

    def _save_images(self, attachments: list[Attachment], table_id: int | None) -> list[Path]:
        """Save pictures in the table's folder, each under its own name; the newest board and
        hand pictures also as `latest-board.png` and `latest-hand.png` (an animation never: it
        keeps its own file)."""
        folder = self.boards / f"table-{table_id}"
        saved = []
        for attachment in attachments:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / attachment.filename
            path.write_bytes(attachment.data)
            if path.suffix == ".png":
                latest = "latest-hand.png" if "hand" in attachment.filename else "latest-board.png"
                (folder / latest).write_bytes(attachment.data)
            saved.append(path)
        return saved

    def _say_saved(self, saved: list[Path]) -> None:
        """Say where the last picture saved is: a board, or the game's animated replay."""
        if saved and saved[-1].suffix == ".gif":
            self.say(_("(the whole game, animated: {path})").format(path=saved[-1]))
        elif saved:
            self.say(_("(board picture: {path})").format(path=saved[-1]))
