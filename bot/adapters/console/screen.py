"""The terminal's output side: texts made ready for the terminal, the board as text (its legend
once), the player's hand, and the pictures saved in the table's folder (`Screen`)."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.console.terminal import Say
from bot.core.clock import Clock
from bot.core.i18n import _
from bot.core.replies import Attachment, Reply, terminal_text
from bot.words.wording import hand_text
from engine import Game
from renderers import text_board


class Screen:
    """What the person at the terminal is shown, through `say`: in colour or not, with time
    tokens read on `clock`, and with the pictures written under `boards`."""

    def __init__(self, say: Say, *, colour: bool, boards: Path, clock: Clock) -> None:
        self.say = say
        self.colour = colour
        self.boards = boards
        self.clock = clock
        self.legend_shown = False
        """Whether the board's legend has been printed (it is printed once, and again with the
        board a player asks for)."""

    def text(self, text: str) -> str:
        """Chat text as the terminal shows it (`terminal_text`), its time tokens read now."""
        return terminal_text(text, self.colour, self.clock.now())

    def accepted(self, reply: Reply) -> bool:
        """Whether the referee did what was asked; if not, its refusal is printed."""
        if not reply.ok and reply.caller:
            self.say(f"✗ {self.text(reply.caller.text)}")
        return reply.ok

    def board(self, game: Game) -> None:
        """The board as text, with its legend if it has not been printed yet."""
        board = text_board(game, self.colour, legend=not self.legend_shown)
        if board:
            self.say(board)
            self.legend_shown = True

    def hand(self, game: Game, seat: int | None, *, always: bool = False) -> None:
        """The hand of the player at `seat` when it is their turn (or `always`), or what the
        round break waits for; nothing for a watcher (`seat` None) or once the game is over."""
        if seat is None or game.outcome() is not None:
            return
        if seat in game.to_move() and game.between_rounds():
            self.say(self.text(_("Type `ready` when you want the next round to start.")))
        elif (always or seat in game.to_move()) and game.view(seat).get("hand") is not None:
            self.say(self.text(hand_text(game, seat, brackets=not self.colour) + "   " +
                               _("(`hints` for your best moves)")))

    def save_images(self, attachments: list[Attachment], table_id: int | None) -> list[Path]:
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

    def say_saved(self, saved: list[Path]) -> None:
        """Say where the last picture saved is: a board, or the game's animated replay."""
        if saved and saved[-1].suffix == ".gif":
            self.say(_("(the whole game, animated: {path})").format(path=saved[-1]))
        elif saved:
            self.say(_("(board picture: {path})").format(path=saved[-1]))
