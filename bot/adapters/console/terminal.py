"""The terminal's input side: reading a typed line (`ask_terminal`), the person at the keyboard
(`local_user`), and the command words the console understands, in English and in Spanish."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import threading
from collections.abc import Awaitable, Callable

from bot.core.records import User

LOCAL_USER_ID = "console:local"

COMMANDS = {
    "help": "help", "?": "help", "ayuda": "help",
    "hints": "hints", "moves": "hints", "pistas": "hints", "jugadas": "hints",
    "hand": "hand", "mano": "hand",
    "board": "board", "tablero": "board",
    "describe": "describe", "describir": "describe", "descripción": "describe", "descripcion": "describe",
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
"""The answers that mean yes to a question the console asks."""
ALL = {"all", "todas", "todo", "todos"}
"""The words that ask `hints` for every move."""

Ask = Callable[[str], Awaitable[str | None]]
"""Ask the player something: the prompt shown, the line typed back (None at end of input)."""
Say = Callable[[str], None]
"""Print one text for the player."""


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
