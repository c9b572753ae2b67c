"""Playing in the terminal against AI seats, through the same referee, notation and errors as on
Discord, saved in the same SQLite file (`tileref play --resume` picks a game up again).

Each move prints what happened, the board as text and your hand; the board picture is written
to a folder as a PNG after every move. AI seats move after yours: "Pip (bot) is thinking…", then
their moves together, and then it is your turn again (the prompt waits for them).

Modules, one job each:
- `session`: `ConsoleSession`, starting or resuming a game, the play loop, and printing what the
  referee says in the order things happened;
- `screen`: `Screen`, what is printed and saved: texts for the terminal, the text board and hand,
  the pictures saved in the table's folder;
- `terminal`: reading the terminal (`ask_terminal`), the local user (`local_user`), the command words;
- `hints`: the `help` and `hints` commands; `pictures`: `react` and `quest`, picking a picture.

`tileref play` (`bot.cli.main`) runs it.
"""

from bot.adapters.console.session import ConsoleSession
from bot.adapters.console.terminal import ask_terminal, local_user

__all__ = ["ConsoleSession", "ask_terminal", "local_user"]
