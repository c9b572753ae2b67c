"""Rebuilding a table's game from the store: the newest snapshot, then a replay of the actions
logged after it. Loaded games are kept in a small cache, each with the table version it was
built at; every write to a table bumps its version, so a game another process has moved on
(or rolled back and replayed to the same length) is never mistaken for the current one."""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections import OrderedDict
from pathlib import Path

import engine
from bot.core.records import ActionRecord, TableRecord
from bot.storage.store import Store
from engine import GAMES, Game

log = logging.getLogger(__name__)

DEFAULT_GAME_CACHE = 2048
"""Games a process keeps in memory (a Tronimoes game takes about 70 KB): enough for the active
tables of a few shards; a game not in memory is rebuilt from its snapshot and log."""

STARTING_SEATS = "players"
"""The table meta key holding how many seats the game started with."""


def _engine_version() -> str:
    """Changes whenever any engine source changes, so old snapshots are never trusted."""
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = _engine_version()


def new_game(table: TableRecord) -> Game:
    """The game a table starts with, from its seed, options and the seats it started with
    (players who joined later come in through their `join` entries in the log)."""
    cls = GAMES[table.game]
    assert table.seed is not None, "a table gets its seed when it starts"
    players = int(table.meta.get(STARTING_SEATS, len(table.seats)))
    return cls.new(players, seed=table.seed, options=cls.Options.parse(table.options),
                   names=[s.name for s in table.seats[:players]])


def replay(game: Game, actions: list[ActionRecord]) -> None:
    game.replay([[a.seat, a.action] for a in actions])


class GameLoader:
    """Games by table id, loaded from snapshots and logs, most recently used kept in memory."""

    def __init__(self, store: Store, *, capacity: int = DEFAULT_GAME_CACHE, snapshot_every: int = 50) -> None:
        self.store = store
        self.capacity = capacity
        self.snapshot_every = snapshot_every
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self._snapshot_ply: dict[int, int] = {}

    async def get(self, table: TableRecord) -> Game:
        """The table's game as of `table` (a record just read from the store)."""
        cached = self._games.get(table.id)
        if cached is not None and cached[0] == table.version:
            self._games.move_to_end(table.id)
            return cached[1]
        game = await self._load(table)
        self.remember(table, game)
        return game

    async def _load(self, table: TableRecord) -> Game:
        actions = await self.store.actions(table.id)
        game = await self._from_snapshot(table, actions)
        if game is None:
            game = new_game(table)
            replay(game, actions)
        return game

    async def _from_snapshot(self, table: TableRecord, actions: list[ActionRecord]) -> Game | None:
        saved = await self.store.snapshot(table.id)
        if saved is None:
            return None
        ply, version, data = saved
        if version != ENGINE_VERSION or ply > len(actions):
            return None
        try:
            game = pickle.loads(data)
        except Exception:
            log.warning("table %s: unreadable snapshot, replaying the whole log", table.id)
            return None
        if not isinstance(game, GAMES[table.game]) or game.log != [(a.seat, a.action) for a in actions[:ply]]:
            return None
        self._snapshot_ply[table.id] = ply
        replay(game, actions[ply:])
        if len(game.names) == len(table.seats):  # as the seats are called now (see `Play.adjust`)
            game.names = [seat.name for seat in table.seats]
        return game

    def remember(self, table: TableRecord, game: Game) -> None:
        """Keep `game` as the table's game at the record's current version."""
        self._games[table.id] = (table.version, game)
        self._games.move_to_end(table.id)
        while len(self._games) > self.capacity:
            evicted, _ = self._games.popitem(last=False)
            self._snapshot_ply.pop(evicted, None)

    def forget(self, table_id: int) -> None:
        self._games.pop(table_id, None)

    async def maybe_snapshot(self, table_id: int, game: Game) -> None:
        """Save a snapshot when enough actions have been logged since the last one."""
        ply = len(game.log)
        if ply - self._snapshot_ply.get(table_id, 0) < self.snapshot_every:
            return
        await self.store.save_snapshot(table_id, ply, ENGINE_VERSION, pickle.dumps(game))
        self._snapshot_ply[table_id] = ply

    def snapshot_rolled_back(self, table_id: int, ply: int) -> None:
        if self._snapshot_ply.get(table_id, 0) > ply:
            self._snapshot_ply[table_id] = 0
