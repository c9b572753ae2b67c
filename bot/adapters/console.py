"""Playing in the terminal against AI seats, through the same referee, notation and errors as on
Discord, saved in the same SQLite file (`tileref play --resume` picks a game up again).

Each move prints what happened, the board as text and your hand; the board picture is written
to a folder as a PNG after every move.
"""

from __future__ import annotations

import asyncio
import getpass
import re
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.i18n import _
from bot.media import Media, MediaError
from bot.records import PLAYING, User
from bot.referee import FOOT, Referee
from bot.replies import Attachment, Reply, plain
from bot.wording import hand_text
from engine import GAMES
from renderers import text_board

PLACE_PREFIX = "console:"
HINTS_SHOWN = 40
LOCAL_USER_ID = "console:local"

HELP = """\
Type a move as on Discord (how moves are written in this game is just below).
Other commands:
  hints [start]    the moves you can make now (those starting with what you type)
  hand             what you hold (the picture is saved too)
  board            the board again
  history [page]   the moves so far
  rules            how to play
  react <words>    find a GIF or sticker and react with it
  quest <words>    your vision quest: pick the picture drawn at the foot of your line
  resign           leave this game
  quit             stop here; continue later with `tileref play --resume`"""

Ask = Callable[[str], Awaitable[str | None]]
Say = Callable[[str], None]


async def ask_terminal(prompt: str) -> str | None:
    """A line typed in the terminal, or None at end of input."""
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


def local_user(name: str | None = None) -> User:
    """The person at the keyboard: the local moderator of their own console games."""
    try:
        login = getpass.getuser()
    except Exception:
        login = ""
    return User(LOCAL_USER_ID, name or login or "Player", moderator=True)


def terminal_text(text: str, colour: bool = False, now: float | None = None) -> str:
    """Chat text for the terminal: mentions as names, times as "in 5m" from `now`, **bold** and
    `code` marks shown plainly (bold in colour terminals)."""
    text = plain(text, now)
    text = re.sub(r"\*\*(.+?)\*\*", (lambda m: f"\x1b[1m{m.group(1)}\x1b[0m") if colour else r"[\1]", text)
    return re.sub(r"`([^`]+)`", r"\1", text)


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
        self._seen: int | None = None
        """The log length of the last board shown: moves typed are based on it."""

    # ---- starting ---------------------------------------------------------------------------

    async def new_game(self, game: str, players: list[str], options: str = "") -> str | None:
        """Seat everyone in the order given ("me" is the person at the keyboard; the levels "easy",
        "normal" (or "bot") and "hard", and "greedy" and "random", are AI players), start, and
        return the table's place."""
        if game not in GAMES:
            self.say(f"There is no game called '{game}'. Games: {', '.join(sorted(GAMES))}.")
            return None
        if players.count("me") != 1:
            self.say("Put `me` exactly once in --players, e.g. --players me,bot,bot")
            return None
        place = f"{PLACE_PREFIX}{uuid.uuid4().hex[:10]}"
        reply = await self.referee.create(place, self.user, game, options=options, seat_creator=False)
        if not self._ok(reply):
            return None
        for player in players:
            if player == "me":
                reply = await self.referee.join(place, self.user)
            else:
                reply = await self.referee.add_ai(place, self.user, player)
            if not self._ok(reply):
                await self.referee.abort(place, self.user)
                return None
        reply = await self.referee.start(place, self.user)
        if not self._ok(reply):
            await self.referee.abort(place, self.user)
            return None
        await self._show(reply)
        return place

    async def resume(self) -> str | None:
        """The newest unfinished console game this person sits at."""
        for table in await self.referee.store.find_tables(place_prefix=PLACE_PREFIX, statuses=(PLAYING,)):
            if table.seat_of(self.user.id) is not None:
                reply = await self.referee.board(table.place, self.user)
                self.say(f"Resuming table {table.id} ({GAMES[table.game].title}).")
                await self._show(reply)
                return table.place
        self.say("There is no unfinished console game to resume. Start one with\n"
                 "  tileref play tronimoes --players me,bot,bot")
        return None

    # ---- playing ----------------------------------------------------------------------------

    async def play(self, place: str) -> None:
        """Read commands until the game ends or the player stops."""
        while True:
            table = await self.referee.status(place)
            if table is None or table.status != PLAYING:
                self.say(f"The game is over. It is saved in {self.referee_path()}.")
                return
            line = await self.ask(f"{self.user.name}> ")
            if line is None:
                self.say("\nSaved. Continue with `tileref play --resume`.")
                return
            command = line.strip()
            word = command.split(" ")[0].lower() if command else ""
            if not command:
                continue
            if word in ("quit", "exit", "q"):
                self.say("Saved. Continue with `tileref play --resume`.")
                return
            if word in ("help", "?"):
                self.say(self._text(f"{HELP}\n\n{_(GAMES[table.game].notation_help)}"))
            elif word in ("hints", "moves"):
                hints = [shown for shown, _ in await self.referee.suggestion_choices(
                    place, self.user, command[len(word):].strip(), limit=10_000)]
                shown = ", ".join(hints[:HINTS_SHOWN])
                more = f" … and {len(hints) - HINTS_SHOWN} more (`hints <start>` narrows them)" \
                    if len(hints) > HINTS_SHOWN else ""
                self.say("You can play: " + (shown + more if hints else "nothing now (it is not your turn)"))
            elif word in ("react", "quest"):
                await self._pick_picture(place, word, command[len(word):].strip())
            elif word == "hand":
                await self._show(await self.referee.hand(place, self.user))
            elif word == "board":
                self._legend_shown = False
                await self._show(await self.referee.board(place, self.user))
            elif word == "history":
                page = command.split(" ")[1] if len(command.split(" ")) > 1 else "1"
                await self._show(await self.referee.history(place, self.user, page=int(page) if page.isdigit() else 1))
            elif word == "rules":
                game = GAMES[table.game]
                self.say(self._text(f"{_(game.summary)}\n\n{_(game.notation_help)}"))
            elif word == "resign":
                confirm = await self.ask("Leave this game for good? (yes/no) ")
                if confirm and confirm.strip().lower() in ("y", "yes"):
                    await self._show(await self.referee.resign(place, self.user))
            else:
                await self._show(await self.referee.act(place, self.user, command, seen=self._seen))

    async def _pick_picture(self, place: str, kind: str, query: str) -> None:
        """Search pictures, let the player pick one by number, and react with it or keep it as
        their chicken-foot."""
        if not query:
            self.say(f"What should I look for? For example: `{kind} victory`.")
            return
        found = await self.media.search(query, limit=9)
        if not found:
            self.say(f"Nothing found for “{query}”: try other words.")
            return
        for number, picture in enumerate(found, start=1):
            self.say(f"  {number}. {picture.title}")
        self.say(f"({found[0].attribution})")
        answer = await self.ask("Which one? (a number, or Enter for none) ")
        if not answer or not answer.strip().isdigit() or not 1 <= int(answer) <= len(found):
            self.say("Nothing chosen.")
            return
        chosen = found[int(answer) - 1]
        try:
            png = await self.media.picture(chosen)
        except MediaError as error:
            self.say(f"✗ {error}")
            return
        table = await self.referee.status(place)
        if kind == "quest":
            reply = await self.referee.choose_picture(place, self.user, FOOT, png, chosen.source)
            self.say(self._text(reply.caller.text) if reply.caller else "Done.")
            return
        saved = self._save_images([Attachment("reaction.png", png, chosen.title)], table.id if table else None)
        self.say(f"{self.user.name} reacts: {chosen.title} ({chosen.attribution}) · picture: {saved[-1]}")

    def referee_path(self) -> str:
        path = getattr(self.referee.store, "path", None)
        return str(path) if path else "the database"

    # ---- output -----------------------------------------------------------------------------

    def _text(self, text: str) -> str:
        return terminal_text(text, self.colour, self.referee.clock.now())

    def _ok(self, reply: Reply) -> bool:
        if not reply.ok and reply.caller:
            self.say(f"✗ {self._text(reply.caller.text)}")
        return reply.ok

    async def _show(self, reply: Reply) -> None:
        """Print a reply: the refusal, or what happened, the board and your hand."""
        if not reply.ok:
            self.say(f"✗ {self._text(reply.caller.text) if reply.caller else 'refused'}")
            return
        if reply.caller and reply.caller.text:
            self.say(self._text(reply.caller.text))
        self._save_images(reply.caller.attachments if reply.caller else [], reply.table_id)
        if reply.public is None:
            return
        shown = await self.referee.view(reply.place) if reply.place else None
        self._seen = len(shown[1].log) if shown is not None else None
        if shown is not None:
            table, game = shown
            board = text_board(game, self.colour, legend=not self._legend_shown)
            if board:
                self.say(board)
                self._legend_shown = True
        if reply.public.text:
            self.say(self._text(reply.public.text))
        saved = self._save_images(reply.public.attachments, reply.table_id)
        if saved:
            self.say(f"(board picture: {saved[-1]})")
        if shown is not None:
            table, game = shown
            seat = table.seat_of(self.user.id)
            if seat is not None and seat in reply.private:
                self.say(self._text(reply.private[seat].text))
            if seat is not None and seat in game.to_move() and game.legal_actions(seat) == ["ready"]:
                self.say(self._text("Type `ready` when you want the next round to start."))
            elif (seat is not None and seat in game.to_move() and game.outcome() is None
                  and game.view(seat).get("hand") is not None):
                self.say(self._text(hand_text(game, seat)) + "   (`hints` lists every move)")

    def _save_images(self, attachments: list[Attachment], table_id: int | None) -> list[Path]:
        folder = self.boards / f"table-{table_id}"
        saved = []
        for attachment in attachments:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / attachment.filename
            path.write_bytes(attachment.data)
            latest = "latest-hand.png" if "hand" in attachment.filename else "latest-board.png"
            (folder / latest).write_bytes(attachment.data)
            saved.append(path)
        return saved
