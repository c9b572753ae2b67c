"""The `tileref` command line.

  tileref run                                  run the Discord bot (DISCORD_TOKEN from the environment or .env)
  tileref run --shards 0-3 --shard-count 8     run those shards of the gateway in this process
  tileref web                                  serve the spectator pages (live and replays) from the database
  tileref play tronimoes --players me,bot,bot  play in the terminal against AI players
  tileref play --resume                        continue your last terminal game
  tileref rules [game]                         how to play
  tileref rules GAME --positions               the game's position format, every field, with an example
  tileref doctor                               what this machine cannot do (fonts for names in pictures)
  tileref health                               whether the running bot is healthy (exit 0) or not (exit 1)
  tileref migrate                              bring the database's schema up to date
  tileref copy-db FROM TO                      copy every table to another database and check the copy
  tileref backup PATH                          a consistent copy of the database, taken while the bot runs
  tileref restore PATH                         bring a backup back into the (empty) database
  tileref ratings rebuild                      compute every rating again from the stored games
  tileref stats [--game G] [--player ID]       leaderboards (or one player's profile) from the ratings
  tileref admin forget USER --yes              remove a player's name and ids everywhere (their games stay)
  tileref admin stuck                          the tables whose announcements, clocks or AI turns are overdue

The database is `--db` or $TILEREF_DATABASE: an SQLite file (the default, tileref-data/tileref.sqlite3)
or a PostgreSQL address, postgresql://user:password@host:5432/tileref.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import Any

from dotenv import find_dotenv, load_dotenv

from bot.cli.shards import ShardError, parse_shards
from bot.core.i18n import LANGUAGES, _, language_of, speak
from bot.core.logs import configure as configure_logs
from bot.media.watching import WebSettings
from bot.storage.address import DEFAULT_DATABASE, DatabaseAddressError, is_postgres, store_for
from bot.storage.loader import DEFAULT_GAME_CACHE
from bot.workers.planning import PROCESSES_SETTING, processes_from
from engine import GAMES
from engine.digits import decimal_number, whole_number
from renderers.palettes import MODES

NO_TOKEN = """\
tileref needs a Discord bot token to run on Discord, and none was found.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token.
  3. Turn on "Message Content Intent" there too (for typed moves; slash commands work without it).
  4. Put the token in a file called .env next to where you run tileref:
         DISCORD_TOKEN=your-token-here
     (or set the DISCORD_TOKEN environment variable), then run `tileref run` again.
  5. Invite the bot to your server: see "Add the bot to your server" in README.md.

Meanwhile you can play right here in the terminal against AI players:
    tileref play tronimoes --players me,bot,bot
"""


DEFAULT_AI_SECONDS = 2.0
"""How long a normal AI seat of a new terminal game plans a move, unless `--ai-seconds` says."""


def ai_seconds(text: str) -> float:
    """`--ai-seconds`: a number of seconds from 0 to 30."""
    value = decimal_number(text)
    if value is None or not 0 <= value <= 30:
        raise argparse.ArgumentTypeError(f"give a number of seconds from 0 to 30, like --ai-seconds 2; not '{text}'")
    return value


def language_code(text: str) -> str:
    """`--lang`: a language tileref speaks."""
    code = text.strip().lower()
    if code not in LANGUAGES:
        raise argparse.ArgumentTypeError(f"choose one of {', '.join(LANGUAGES)}; not '{text}'")
    return code


def palette_name(text: str) -> str:
    """`--palette`: a look the pictures can be drawn in."""
    mode = text.strip().lower()
    if mode not in MODES:
        raise argparse.ArgumentTypeError(f"choose one of {', '.join(MODES)}; not '{text}'")
    return mode


def system_language() -> str | None:
    """The language of the terminal's locale ($LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG), if tileref speaks it."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value and value not in ("C", "POSIX"):
            return language_of(value.split(":")[0].split(".")[0])
    return None


def database_address(given: str | None) -> str:
    return str(given or os.environ.get("TILEREF_DATABASE") or DEFAULT_DATABASE)


def main(argv: list[str] | None = None) -> int:
    load_dotenv(find_dotenv(usecwd=True))
    parser = argparse.ArgumentParser(prog="tileref", description="A referee for tile games played in chat.")
    parser.add_argument("--db", help=f"the database: an SQLite file or a postgresql:// address (default: "
                                     f"$TILEREF_DATABASE or {DEFAULT_DATABASE})")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    commands = parser.add_subparsers(dest="command")

    run = commands.add_parser("run", help="run the Discord bot")
    run.add_argument("--shards", default=os.environ.get("TILEREF_SHARDS"),
                     help="the gateway shards this process runs, like 0-3 (default: $TILEREF_SHARDS, or all)")
    run.add_argument("--shard-count", default=os.environ.get("TILEREF_SHARD_COUNT"),
                     help="how many shards the bot has in all, like 8 (default: $TILEREF_SHARD_COUNT)")
    run.add_argument("--no-web", dest="web", action="store_false",
                     help="do not start the spectator pages' process (run `tileref web` yourself, as many as you "
                          "like, on this database)")

    web = commands.add_parser("web", help="serve the spectator pages (live games and replays) where TILEREF_WEB says, "
                                          "from the database")
    web.add_argument("--database", help="the database to serve (like --db): an SQLite file, also a terminal game's, "
                                        "or a postgresql:// address")
    web.add_argument("--cache", type=Path, default=None,
                     help="the folder board pictures are kept in (default: web-cache beside the database)")
    web.add_argument("--health-from", default=None,
                     help="answer /healthz with this address's answer (the bot process's own health)")
    web.add_argument("--lang", type=language_code, default=None,
                     help=f"the language of what it says here: {', '.join(LANGUAGES)} (pages speak their table's)")
    web.add_argument("--reuse-port", action="store_true",
                     help="share the port with other `tileref web` processes started so (the system spreads the "
                          "watchers over them)")
    web.add_argument("--child", action="store_true",
                     help="run as a child process: say `ready <url>` on stdout, stop when stdin closes")

    play = commands.add_parser("play", help="play in the terminal against AI players")
    play.add_argument("game", nargs="?", help=f"the game: {', '.join(sorted(GAMES))}")
    play.add_argument("--players", default="me,bot",
                      help="who sits where, in order: me and AI levels easy, normal (also called bot) or hard; "
                           "greedy and random also play (default: me,bot)")
    play.add_argument("--ai-seconds", type=ai_seconds, default=None,
                      help="how long a normal AI thinks about a move, 0 to 30 seconds; hard thinks 3 times as long "
                           f"(default: {DEFAULT_AI_SECONDS:g}; with --resume, the game's own)")
    play.add_argument("--lang", type=language_code, default=None,
                      help=f"the table's language: {', '.join(LANGUAGES)} (default: your system's, else en; with "
                           "--resume, the game's own)")
    play.add_argument("--options", default="", help="game options as key=value, e.g. ouroboros=off")
    play.add_argument("--palette", type=palette_name, default=None,
                      help="how the board pictures look: normal (in colour) or mono (high contrast, in greys; "
                           "seats told apart by their numbers, letters and shapes) (default: normal; with --resume, "
                           "the game's own unless given)")
    play.add_argument("--name", help="your name at the table (default: your login name; with --resume, the name "
                                     "you had)")
    play.add_argument("--boards", help="folder for the board pictures (default: next to the database)")
    play.add_argument("--resume", action="store_true", help="continue your last unfinished terminal game")
    play.add_argument("--no-colour", "--no-color", dest="colour", action="store_false", help="plain text")
    play.add_argument("--screen-reader", action="store_true",
                      help="words only: the board described after every move instead of drawn, no colour, "
                           "and your legal moves grouped on your turn")

    rules = commands.add_parser("rules", help="how to play a game")
    rules.add_argument("game", nargs="?")
    rules.add_argument("--positions", action="store_true",
                       help="the game's position format (to_position / from_position), with an example")
    rules.add_argument("--lang", type=language_code, default=None, help=f"the language: {', '.join(LANGUAGES)}")

    commands.add_parser("doctor", help="say what this machine cannot do (scripts names cannot be drawn in)")
    health = commands.add_parser("health", help="whether the running bot is healthy: exit 0, or 1 with the reason")
    health.add_argument("--database-only", action="store_true",
                        help="check the database here instead of asking the bot's /healthz on TILEREF_WEB's port "
                             "(the Discord connection is then not checked)")
    commands.add_parser("migrate", help="bring the database's schema up to date")
    copy = commands.add_parser("copy-db", help="copy every table, log, timer and setting to another database")
    copy.add_argument("source", help="the database to copy: an SQLite file or a postgresql:// address")
    copy.add_argument("target", help="the empty database to copy into")

    backup = commands.add_parser("backup", help="copy the database, as of one moment, into a new SQLite file "
                                                "(the bot may keep running)")
    backup.add_argument("path", type=Path, help="the new backup file, like tileref-backup.sqlite3")
    restore = commands.add_parser("restore", help="bring a backup back into the empty database (--db)")
    restore.add_argument("path", type=Path, help="the backup file")

    ratings = commands.add_parser("ratings", help="ratings are derived from the finished games")
    ratings.add_argument("action", choices=["rebuild"],
                         help="rebuild: compute every rating again from the games (with the bot stopped)")
    stats = commands.add_parser("stats", help="leaderboards, or one player's profile, from the ratings")
    stats.add_argument("--server", default=None, help="a server (discord:<id>, or local for terminal games; "
                                                      "default: every server with ratings)")
    stats.add_argument("--game", default=None, help=f"one game: {', '.join(sorted(GAMES))}")
    stats.add_argument("--player", default=None, help="a player's id (discord:<id>, console:local, ai:normal)")
    stats.add_argument("--page", type=int, default=1, help="the leaderboard's page (10 players a page)")

    tournament = commands.add_parser("tournament", help="a tournament's results")
    tournament.add_argument("action", choices=["export"],
                            help="export: the results as a FIDE Tournament Report File (TRF), for an arbiter's "
                                 "tools or a pairing engine to check (two-player Swiss and round robins)")
    tournament.add_argument("id", type=int, help="the tournament's number (as `/tournament list` shows it)")
    tournament.add_argument("--out", type=Path, default=None,
                            help="the file to write, or a folder to write it in (default: print it)")

    admin = commands.add_parser("admin", help="an operator's commands")
    admin.add_argument("action", choices=["forget", "stuck"],
                       help="forget USER: remove a player's name and ids from every table, rating and setting "
                            "(their games stay replayable as a former player's); stuck: list the tables whose "
                            "announcements, clocks or AI turns are overdue, with why")
    admin.add_argument("user", nargs="?", help="for forget: the player's id, discord:<id> (or just the number) "
                                              "or console:<name>")
    admin.add_argument("--yes", action="store_true", help="do it (without it: say what would be forgotten)")

    args = parser.parse_args(argv)
    configure_logs(logging.INFO if args.verbose or args.command in ("run", "web") else logging.WARNING)
    try:
        if args.command == "run":
            return run_discord(database_address(args.db), parse_shards(args.shards, args.shard_count), pages=args.web)
        if args.command == "web":
            speak(args.lang or system_language())
            return run_web(database_address(args.database or args.db), args.cache, args.health_from,
                           child=args.child, reuse_port=args.reuse_port)
        if args.command == "play":
            try:
                return asyncio.run(play_console(args))
            except KeyboardInterrupt:  # Ctrl-C before the game began, or twice: every move is already stored
                print("\n" + _("Saved. Continue with `tileref play --resume`."), flush=True)
                return 130
        if args.command == "health":
            return check_health(database_address(args.db), database_only=args.database_only)
        if args.command == "migrate":
            return asyncio.run(migrate(database_address(args.db)))
        if args.command == "copy-db":
            return asyncio.run(copy_db(args.source, args.target))
        if args.command == "backup":
            return asyncio.run(back_up(database_address(args.db), args.path))
        if args.command == "restore":
            return asyncio.run(restore_backup(args.path, database_address(args.db)))
        if args.command == "ratings":
            return asyncio.run(rebuild_ratings(database_address(args.db)))
        if args.command == "admin" and args.action == "stuck":
            return admin_stuck(database_address(args.db))
        if args.command == "admin":
            if not args.user:
                parser.error("admin forget needs the player's id, like: tileref admin forget discord:1234 --yes")
            from bot.cli.forget import forget_player

            return asyncio.run(forget_player(database_address(args.db), args.user, confirmed=args.yes))
        if args.command == "tournament":
            from bot.cli.tournament import export_tournament

            return asyncio.run(export_tournament(store_for(database_address(args.db)), args.id, args.out))
        if args.command == "stats":
            from bot.cli.stats import show_stats

            return asyncio.run(show_stats(store_for(database_address(args.db)), args.server, args.game, args.player,
                                          args.page))
    except (DatabaseAddressError, ShardError) as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        print(f"Could not open the database ({error}). Check TILEREF_DATABASE (or --db): the PostgreSQL "
              "server's address and that it is running, or the SQLite file's folder.", file=sys.stderr)
        return 1
    if args.command == "rules":
        return show_rules(args.game, args.lang, positions=args.positions)
    if args.command == "doctor":
        from bot.cli.doctor import doctor

        return doctor()
    parser.print_help()
    return 0


def check_health(address: str, *, database_only: bool) -> int:
    """`tileref health`: 0 healthy, 1 not (the report says why), 2 for settings it cannot read."""
    from bot.cli.health import health
    from bot.durable.health import HealthLimits

    try:
        web = WebSettings.from_env()
        limits = HealthLimits.from_env()
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return asyncio.run(health(address, web, limits, database_only=database_only))


def admin_stuck(address: str) -> int:
    """`tileref admin stuck`: 1 if a table is stuck (each said, with why), 0 if none, 2 for limits it
    cannot read."""
    from bot.cli.stuck import show_stuck
    from bot.durable.health import HealthLimits

    try:
        limits = HealthLimits.from_env()
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return asyncio.run(show_stuck(address, limits))


async def migrate(address: str) -> int:
    """Open the database, applying whatever schema versions it lacks."""
    store = store_for(address)
    await store.open()
    await store.close()
    print(f"The database is up to date: {address.split('@')[-1]}")
    return 0


async def copy_db(source: str, target: str) -> int:
    from bot.cli.copy_db import copy_database

    return said(await copy_database(source, target),
                "Copied {count} with their logs, timers, settings, snapshots, pictures, ratings and notification "
                "choices; every game replays the same in the copy.")


async def back_up(address: str, path: Path) -> int:
    from bot.cli.backup import backup

    return said(await backup(address, path),
                f"Backed up {{count}} into {path}, as of one moment; every game replays the same from the backup. "
                f"`tileref restore {path}` brings it back into an empty database.")


async def restore_backup(path: Path, address: str) -> int:
    from bot.cli.backup import restore

    return said(await restore(path, address), f"Restored {{count}} from {path}; every game replays the same as in "
                                              "the backup.")


def said(outcome: tuple[int, list[str]], done: str) -> int:
    """Print a copy's problems (1) or, if there are none, `done` with its count of tables (0)."""
    copied, problems = outcome
    for problem in problems:
        print(f"✗ {problem}", file=sys.stderr)
    if problems:
        return 1
    print(done.format(count=f"{copied} table{'s' if copied != 1 else ''}"))
    return 0


async def rebuild_ratings(address: str) -> int:
    """Recompute every rating from the stored games."""
    from bot.community.ratings import Ratings

    store = store_for(address)
    await store.open()
    try:
        games, players = await Ratings(store).rebuild()
    finally:
        await store.close()
    print(f"Rated {games} finished game{'s' if games != 1 else ''} again: "
          f"{players} rating{'s' if players != 1 else ''}.")
    return 0


def game_cache_size(given: str | None) -> int:
    """How many games a process keeps in memory ($TILEREF_GAME_CACHE; ValueError, saying what to
    write, if it is not a whole number of at least 1)."""
    if not given or not given.strip():
        return DEFAULT_GAME_CACHE
    size = whole_number(given) or 0
    if size < 1:
        raise ValueError(f"TILEREF_GAME_CACHE must be a whole number of games, like {DEFAULT_GAME_CACHE}; "
                         f"it is {given!r}")
    return size


def run_web(database: str, cache: Path | None, health_from: str | None, *, child: bool, reuse_port: bool) -> int:
    """`tileref web`: the spectator pages until Ctrl-C (or, for a child, until its parent ends)."""
    from bot.cli.web import cache_folder, serve_pages

    try:
        settings = WebSettings.from_env()
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if not settings.enabled:
        print("TILEREF_WEB is off: set it to the host:port the pages should listen on, like 127.0.0.1:8080.",
              file=sys.stderr)
        return 2
    if not is_postgres(database) and not Path(database).exists():
        print(f"There is no database at {database}: give the SQLite file your games are in with "
              f"--database PATH (terminal games: {DEFAULT_DATABASE}).", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(serve_pages(database, settings, cache=cache or cache_folder(database),
                                       health_url=health_from, child=child, reuse_port=reuse_port))
    return 0


def run_discord(database: str, shards: tuple[list[int], int] | None = None, *, pages: bool = True) -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    import aiohttp
    import discord

    from bot.cli.doctor import warn_about_fonts
    from bot.cli.serve import serve
    from bot.cli.web import PROCESSES_VARIABLE as WEB_PROCESSES
    from bot.cli.web import processes_setting
    from bot.core.metrics import VARIABLE as METRICS_VARIABLE
    from bot.core.metrics import parse_address
    from bot.durable.health import HealthLimits

    try:
        cache_size = game_cache_size(os.environ.get("TILEREF_GAME_CACHE"))
        web = WebSettings.from_env()
        web_processes = processes_setting(os.environ.get(WEB_PROCESSES))
        metrics_address = os.environ.get(METRICS_VARIABLE)
        parse_address(metrics_address)
        health_limits = HealthLimits.from_env()
        ai_processes = processes_from(os.environ.get(PROCESSES_SETTING))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    warn_about_fonts()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(token, database, shard_ids=shards[0] if shards else None,
                              shard_count=shards[1] if shards else None, cache_size=cache_size,
                              ai_processes=ai_processes, web=web if pages else None, web_processes=web_processes,
                              health=health_limits,
                              metrics_address=metrics_address))
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal "
              "(Bot page, Reset Token) into .env and run `tileref run` again.", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError) as error:
        print(f"Could not reach Discord ({error}). Check the network connection and try again; meanwhile "
              f"`tileref play tronimoes --players me,bot,bot` works offline.", file=sys.stderr)
        return 1
    return 0


async def play_console(args: argparse.Namespace) -> int:
    from bot.adapters.console import ConsoleSession, ask_terminal, local_user
    from bot.service.referee import Referee

    if not args.resume and not args.game:
        print("Which game? For example:\n    tileref play tronimoes --players me,bot,bot\n"
              "or continue your last one with\n    tileref play --resume", file=sys.stderr)
        return 2
    try:
        ai_processes = processes_from(os.environ.get(PROCESSES_SETTING))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    database = database_address(args.db)
    store = store_for(database)
    await store.open()
    speak(args.lang or system_language())  # what is said before the game's table speaks its own
    pages = await _console_pages(database)
    referee = Referee(store, confirms_delivery=False, ai_seconds=DEFAULT_AI_SECONDS, move_help=False,
                      ai_processes=ai_processes, public_url=pages[1] if pages else None)
    await referee.open()
    colour = args.colour and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    boards = Path(args.boards) if args.boards else \
        (DEFAULT_DATABASE.parent if is_postgres(database) else Path(database).parent) / "boards"
    session = ConsoleSession(referee, local_user(args.name), ask=ask_terminal, say=print, boards=boards,
                             colour=colour, screen_reader=args.screen_reader)
    try:
        if args.resume:
            place = await session.resume(name=args.name, language=args.lang, ai_seconds=args.ai_seconds,
                                         palette=args.palette)
        else:
            players = [p.strip().lower() for p in args.players.split(",") if p.strip()]
            chosen = args.lang or system_language()
            thinking = args.ai_seconds if args.ai_seconds is not None else DEFAULT_AI_SECONDS
            options = ", ".join(part for part in (args.options, f"lang={chosen}" if chosen else "",
                                                  f"ai_seconds={thinking:g}",
                                                  f"palette={args.palette}" if args.palette else "") if part)
            place = await session.new_game(args.game.lower(), players, options)
        if place is None:
            return 1
        if not args.resume:
            print(_("Type help for commands, hints for the moves you can make."))
        if pages is not None and args.resume:  # a new game's first message gives it
            table = await referee.table_at(place)
            link = await referee.page_link(table) if table is not None else None
            if link:
                print(_("Watch and replay this game in a browser: {link}").format(link=link), flush=True)
        await session.play(place)
        return 0
    except asyncio.CancelledError:  # Ctrl-C (asyncio.run cancels this task): every move is already stored
        print("\n" + _("Saved. Continue with `tileref play --resume`."), flush=True)
        return 130
    finally:
        if pages is not None:
            await pages[0].stop()
        await session.media.close()
        await referee.close()
        await store.close()


async def _console_pages(database: str) -> tuple[Any, str] | None:
    """The spectator pages of a terminal game (TILEREF_WEB, default 127.0.0.1:8080) in a `tileref
    web` child process whose logs go to `web.log` beside the database (never onto the game's
    screen), or None when they are off or cannot listen (said on stderr, in the language being
    spoken; the game goes on without them)."""
    from bot.adapters.web.server import PagesCannotListen
    from bot.cli.web import start_web_process

    try:
        settings = WebSettings.from_env()
    except ValueError as error:
        print(_("{problem}; playing without the web page.").format(problem=error), file=sys.stderr)
        return None
    if not settings.enabled:
        return None
    folder = DEFAULT_DATABASE.parent if is_postgres(database) else Path(database).parent
    try:
        with open(folder / "web.log", "ab") as log_file:
            process = await start_web_process(database, settings, log_to=log_file)
    except PagesCannotListen as error:
        print(_("{problem} Playing without it.").format(problem=error), file=sys.stderr)
        return None
    except OSError as error:
        print(_("{problem}; playing without the web page.").format(problem=error), file=sys.stderr)
        return None
    return process, process.public_url


def show_rules(name: str | None, language: str | None = None, *, positions: bool = False) -> int:
    """Print a game's rules, how to type moves, its options and its notation's words in every
    language, in `language` (default: the terminal's); with `positions`, the game's position
    format instead (developer documentation, in English)."""
    speak(language or system_language())
    if name is None or name.lower() not in GAMES:
        if name:
            print(_("There is no game called '{game}'.").format(game=name))
        print(_("Games: {games}").format(games=", ".join(f"{g} ({GAMES[g].title})" for g in sorted(GAMES))))
        return 0 if name is None else 1
    game = GAMES[name.lower()]
    if positions:
        print(game.position_help)
        return 0
    print(f"{_(game.summary)}\n\n{_(game.notation_help)}\n\n{game.Options.describe(_)}")
    for code, words in game.notation_words.items():
        listed = ", ".join(f"{word} → {spoken}" for word, spoken in words.items())
        print("\n" + _("Words of the notation in {language} (both are read): {words}").format(
            language=LANGUAGES[code], words=listed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
