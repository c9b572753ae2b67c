"""tileref on Discord (discord.py 2.x): application commands, persistent buttons and typed
moves in game threads, all delegating to the transport-agnostic `Referee`.

Modules, one job each:
- `app`: the bot (`build_bot`), command registration and sync, the referee's notices;
- `lobby`: `/tileref new` (thread and lobby); `commands`: the players' commands;
  `moderation`: `/mod …` and `/settings`; `typed`: moves typed in a thread and @mentions;
- `views` / `buttons`: persistent buttons and what pressing them does;
- `answer`: acknowledging interactions in time; `delivery` / `replying`: Reply -> messages;
- `community_commands`: `/leaderboard`, `/profile`, `/games`, `/notify` (the last three usable
  anywhere: user installs); `turn_list`: the standing list of turns in a player's DMs;
- `context`: Discord ids <-> referee places, users and servers; who is a moderator.

`tileref run` (`bot.cli.serve`) runs it with the store, the referee and the web pages.
"""

from bot.adapters.discordbot.app import TilerefBot, build_bot

__all__ = ["TilerefBot", "build_bot"]
