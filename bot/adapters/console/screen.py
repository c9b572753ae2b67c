"""The terminal's output side: texts made ready for the terminal, the board as text (its legend
once), the player's hand, and the pictures saved in the table's folder (`Screen`). For a screen
reader (`tileref play --screen-reader`) the board is said in words instead of drawn, and the
player's legal moves are said grouped on each of their turns."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.console.terminal import Say
from bot.core.clock import Clock
from bot.core.i18n import _, current_language
from bot.core.replies import Attachment, Reply, terminal_text
from bot.words.wording import hand_text
from engine import Game
from renderers import describe, spoken_moves, text_board


class Screen:
    """What the person at the terminal is shown, through `say`: in colour or not, with time
    tokens read on `clock`, and with the pictures written under `boards`."""

    def __init__(self, say: Say, *, colour: bool, boards: Path, clock: Clock, screen_reader: bool = False) -> None:
        self.say = say
        self.screen_reader = screen_reader
        """Words only, for a screen reader: the board described instead of drawn (no box drawing,
        no colour), and the legal moves grouped on the player's turn."""
        self.colour = colour and not screen_reader
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

    def board(self, game: Game, seat: int | None = None) -> None:
        """The board as text, with its legend if it has not been printed yet; for a screen
        reader, the board in words as the player at `seat` sees it (their hand included)."""
        if self.screen_reader:
            self.say(describe(game, viewer=seat))
            return
        board = text_board(game, self.colour, legend=not self.legend_shown)
        if board:
            self.say(board)
            self.legend_shown = True

    def hand(self, game: Game, seat: int | None, *, always: bool = False) -> None:
        """The hand of the player at `seat` when it is their turn (or `always`), or what the
        round break waits for; nothing for a watcher (`seat` None) or once the game is over. For
        a screen reader, on the player's turn, their legal moves grouped instead (the board's
        description has said their hand)."""
        if seat is None or game.outcome() is not None:
            return
        if self.screen_reader and not always:
            self.moves(game, seat)
            return
        if seat in game.to_move() and game.between_rounds():
            self.say(self.text(_("Type `ready` when you want the next round to start.")))
        elif (always or seat in game.to_move()) and game.view(seat).get("hand") is not None:
            self.say(self.text(hand_text(game, seat, brackets=not self.colour) + "   " +
                               _("(`hints` for your best moves)")))

    def moves(self, game: Game, seat: int) -> None:
        """`seat`'s legal moves in words, a group a line (`renderers.spoken_moves`), when it is
        their turn; nothing otherwise."""
        if seat not in game.to_move():
            return
        groups = spoken_moves(game, seat, current_language())
        if groups:
            self.say(_("Your moves:") + "\n" + "\n".join(groups))

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
        """Say where the last picture saved is: a board (not to a screen reader, which has just
        heard the board in words), or the game's animated replay."""
        if saved and saved[-1].suffix == ".gif":
            self.say(_("(the whole game, animated: {path})").format(path=saved[-1]))
        elif saved and not self.screen_reader:  # the board was said in words: its file is noise
            self.say(_("(board picture: {path})").format(path=saved[-1]))
