"""What a spectator may know of a table, at any ply: derived from the action log and the
spectator's view only, so it never holds a hand, the order of a pile or a seed.

A `Timeline` is one table's log replayed once: every entry's public events as sentences in the
table's language, and copies of the game every `CHECKPOINT_EVERY` plies, so the game at any ply
is a short replay away. `Spectacle` is one moment of it as a page shows it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.core.absence import stood_in
from bot.core.i18n import _, current_language, speaking
from bot.core.records import ActionRecord, TableRecord
from bot.core.replies import plain
from bot.storage.loader import new_game
from bot.words import narration
from bot.words.wording import shuffled_line
from engine import Game
from engine.core import JOIN, RESIGN, Event

CHECKPOINT_EVERY = 16
HIDDEN_SEAT_KEYS = ("hand",)
"""Keys of a seat in a position that hold what only that seat sees: shown as a count."""
HIDDEN_PILES = ("bag", "pool", "well", "queue", "deck", "draw_pile")
"""Keys of a position that hold an unseen pile in its order: shown as a count."""
ROUND_ENDS = ("round_end", "game_end")


@dataclass(frozen=True)
class Entry:
    """One entry of the log as a spectator reads it. `action` is the move in the notation of the
    table's language, as the history writes it ("" for a chance entry, whose seed is never
    shown), or, when `notation` is False, words saying what the seat did (it left the game);
    `events` are the public sentences it caused."""

    ply: int
    seat: int
    who: str
    action: str
    events: tuple[str, ...]
    round_end: bool = False
    notation: bool = True


@dataclass
class Spectacle:
    """One moment of a table as its spectator page shows it."""

    table: TableRecord
    ply: int
    last: int
    game: Game
    entries: list[Entry]
    players: list[dict[str, Any]]
    to_move: list[int]
    result: str | None
    deadlines: dict[int, float] = field(default_factory=dict)
    key: str = ""
    """What names the shown position in addresses (`Timeline.address_key`)."""
    last_key: str = ""
    """What names the newest position (the live stream says what came after it)."""

    @property
    def live(self) -> bool:
        return self.ply == self.last


class Timeline:
    """A table's log, replayed once (see the module's docstring)."""

    def __init__(self, table: TableRecord, actions: list[ActionRecord]) -> None:
        self.table = table
        self.actions = actions
        self.key = log_key(actions)
        self.prefix_keys: list[str] = [_chained(f"{table.id}:{table.seed}", None)]
        """`prefix_keys[p]`: a digest of the log's first `p` entries (see `address_key`)."""
        self.entries: list[Entry] = []
        self._checkpoints: dict[int, Game] = {}
        self.final = new_game(table)
        self._checkpoints[0] = self.final.clone()
        self._replay(actions)

    def _replay(self, actions: list[ActionRecord]) -> None:
        with speaking(self.table.meta.get("lang")):
            for record in actions:
                self.prefix_keys.append(_chained(self.prefix_keys[-1], record))
                events = self.final.replay_one(record.seat, record.action)
                self.entries.append(self._entry(record, events))
                if record.ply % CHECKPOINT_EVERY == 0:
                    self._checkpoints[record.ply] = self.final.clone()

    def extend(self, actions: list[ActionRecord]) -> None:
        """Take in a log that continues this one (`actions` starts with this timeline's)."""
        added = actions[self.length:]
        self.actions = list(actions)
        self.key = log_key(actions)
        self._replay(added)

    def _entry(self, record: ActionRecord, events: list[Event]) -> Entry:
        said = [plain(line) for line in narration.what_happened(events).splitlines() if line]
        if record.chance:
            return Entry(record.ply, -1, "", "", (shuffled_line(type(self.final)),))
        who = self.table.seats[record.seat].name if 0 <= record.seat < len(self.table.seats) else ""
        round_end = any(e.kind in ROUND_ENDS and e.to is None for e in events)
        if record.action == RESIGN or record.action.startswith(JOIN + " "):
            did = _("left the game") if record.action == RESIGN else _("joined the game")
            return Entry(record.ply, record.seat, who, did, tuple(said), round_end, notation=False)
        action = type(self.final).spoken(record.action, current_language())
        return Entry(record.ply, record.seat, who, action, tuple(said), round_end)

    @property
    def length(self) -> int:
        return len(self.actions)

    def address_key(self, ply: int) -> str:
        """What names the position after `ply` entries in an address: the ply and a digest of the
        log up to it (`12-3f9a…`). A rollback and new moves give the same ply another key, so
        whatever is cached under an address is right for good."""
        return f"{ply}-{self.prefix_keys[ply]}"


    def game_at(self, ply: int) -> Game:
        """The game after `ply` entries (0: as dealt), an independent copy."""
        ply = max(0, min(ply, self.length))
        if ply == self.length:
            return self.final.clone()
        start = max(p for p in self._checkpoints if p <= ply)
        game = self._checkpoints[start].clone()
        for record in self.actions[start:ply]:
            game.replay_one(record.seat, record.action)
        return game

    def spectacle(self, ply: int | None = None, deadlines: dict[int, float] | None = None) -> Spectacle:
        """The table at `ply` (None: now) as a spectator sees it; deadlines count only now."""
        shown = self.length if ply is None else max(0, min(ply, self.length))
        game = self.game_at(shown)
        with speaking(self.table.meta.get("lang")):
            result = plain(narration.final_result(self.table, game)) if game.outcome() is not None else None
        return Spectacle(self.table, shown, self.length, game, self.entries,
                         players(self.table, game, now=shown == self.length),
                         list(game.to_move()), result, dict(deadlines or {}) if shown == self.length else {},
                         self.address_key(shown), self.address_key(self.length))


def players(table: TableRecord, game: Game, *, now: bool = True) -> list[dict[str, Any]]:
    """Each seat as a spectator sees it: name, score, tiles in hand (a count, where the game
    has hands), team, whether it left the game, and (`now`: the game as it is now) whether a
    stand-in plays for its absent player."""
    view = game.view(None)
    seats = view.get("seats") if isinstance(view.get("seats"), list) else []
    scores = game.scores()
    shown = []
    for seat in range(game.players):
        seen = seats[seat] if seat < len(seats) and isinstance(seats[seat], dict) else {}
        name = table.seats[seat].name if seat < len(table.seats) else str(seen.get("name", seat + 1))
        shown.append({"seat": seat, "name": name, "score": scores[seat] if seat < len(scores) else 0,
                      "hand": seen.get("hand_size"), "team": seen.get("team"),
                      "resigned": bool(game.is_resigned(seat)),
                      "standin": now and seat < len(table.seats) and stood_in(table, seat)})
    return shown


def public_position(game: Game) -> dict[str, Any]:
    """The game's position (`to_position`) with what a spectator cannot see replaced by counts:
    each seat's hand becomes `hand_size`, each unseen pile `<pile>_size`."""
    position = game.to_position()
    for seat in position.get("seats", []):
        if isinstance(seat, dict):
            for key in HIDDEN_SEAT_KEYS:
                if isinstance(seat.get(key), list):
                    seat[f"{key}_size"] = len(seat.pop(key))
    for key in HIDDEN_PILES:
        if isinstance(position.get(key), list):
            position[f"{key}_size"] = len(position.pop(key))
    return {"game": game.name, "spectator": True, "position": position}


def log_key(actions: list[ActionRecord]) -> str:
    """A digest of a log: equal for the same entries (so a rolled-back log has another key)."""
    digest = hashlib.sha1(usedforsecurity=False)
    for record in actions:
        digest.update(f"{record.ply}|{record.seat}|{record.action}|{record.at}\n".encode())
    return digest.hexdigest()


def common_prefix(keys: list[str], others: list[str]) -> int:
    """How many first entries two logs of a table share, from their `Timeline.prefix_keys`."""
    low, high = 0, min(len(keys), len(others)) - 1
    while low < high:  # the prefixes that match are a run from the start: find its end
        middle = (low + high + 1) // 2
        if keys[middle] == others[middle]:
            low = middle
        else:
            high = middle - 1
    return low


KEY_CHARACTERS = 16
"""Hex digits of a log prefix's digest in an address (64 bits)."""


def _chained(before: str, record: ActionRecord | None) -> str:
    """The digest of a log prefix: the one before it and its last entry (none: the empty log)."""
    text = "" if record is None else f"{record.ply}|{record.seat}|{record.action}|{record.at}"
    return hashlib.sha1(f"{before}\n{text}".encode(), usedforsecurity=False).hexdigest()[:KEY_CHARACTERS]


class Timelines:
    """The timelines of the tables watched lately, rebuilt when a table's log changes."""

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[int, Timeline] = OrderedDict()

    def get(self, table: TableRecord, actions: list[ActionRecord]) -> Timeline:
        """The timeline of `table` with this log (the kept one if its log is the same, or only
        grew: then it is extended)."""
        kept = self._kept.get(table.id)
        if kept is not None and kept.length <= len(actions) and kept.key == log_key(actions[:kept.length]):
            kept.table = table
            if kept.length < len(actions):
                kept.extend(actions)
            self._kept.move_to_end(table.id)
            return kept
        timeline = Timeline(table, actions)
        self._kept[table.id] = timeline
        self._kept.move_to_end(table.id)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)
        return timeline
