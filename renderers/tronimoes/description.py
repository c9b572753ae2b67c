"""The Tronimoes board in words (see `renderers.description`): each line's owner, its open end
squares and the number they need, the chicken-footed players and their foot squares, the dead
lines, the spacer and the free lines, and how many tiles each hand and the bag hold."""

from __future__ import annotations

from typing import Any

from engine import Game
from renderers.common import N_, say
from renderers.description import Part, seat_name


def _line_name(game: Game, line: Any) -> str:
    if isinstance(line, int):
        return say(N_("{seat}'s line")).format(seat=seat_name(game.names, line))
    return say(N_("free line {number}")).format(number=str(line).removeprefix("free"))


def _tiles(count: int) -> str:
    return say(N_("1 tile")) if count == 1 else say(N_("{count} tiles")).format(count=count)


def _open(entry: dict[str, Any]) -> str:
    squares = " ".join(entry["open"]) or "-"
    if not entry["started"]:
        return say(N_("not started, lays next to the leader at {squares}, needs {pips}")).format(
            squares=squares, pips=entry["next"])
    if len(entry["open"]) > 1:
        return say(N_("open ends {squares} need {pips}")).format(squares=squares, pips=entry["next"])
    return say(N_("open end {squares} needs {pips}")).format(squares=squares, pips=entry["next"])


def describe_parts(game: Game, view: dict[str, Any]) -> list[Part]:
    """The parts of the description, in the order a player needs them."""
    seats = view["seats"]
    leader = next((e for e in view["board"] if e["line"] == "leader"), None)
    round_items = [say(N_("round {round}")).format(round=view["round"])]
    if leader is not None:
        round_items.append(say(N_("leader {tile} at {squares}")).format(tile=leader["tile"],
                                                                       squares=" ".join(leader["at"])))
    result = view.get("round_result")
    if result:
        deltas = ", ".join(f"{s['name']} {delta:+d}" for s, delta in zip(seats, result["deltas"], strict=False))
        round_items.append(say(N_("round {round} is over: {how} ({deltas})")).format(
            round=result["round"], how=say(result["how"]), deltas=deltas))
    if view.get("spacer"):
        first, last = view["spacer"]
        round_items.append(say(N_("the spacer lies from {first} to {last}: the only tile to lay is a double "
                                  "next to {last}, starting a free line")).format(first=first, last=last))
    living, dead = [], []
    for entry in view["lines"]:
        name = _line_name(game, entry["line"])
        if entry["dead"]:
            dead.append(f"{name}, {_tiles(entry['length'])}")
            continue
        text = f"{name}: {_open(entry)}, {_tiles(entry['length'])}"
        owner = entry["owner"]
        if owner is not None and seats[owner]["footed"]:
            text += say(N_(" (chicken-footed: others may lay on it)"))
        living.append(text)
    feet = [say(N_("{seat}, foot square {square}")).format(seat=seat_name(game.names, i), square=s["foot"])
            if s["foot"] else seat_name(game.names, i)
            for i, s in enumerate(seats) if s["footed"]]
    dead_players = [seat_name(game.names, i) for i, s in enumerate(seats) if s["dead"]]
    counts = [f"{s['name']} {s['hand_size']}" for s in seats]
    counts.append(say(N_("the bag {count}")).format(count=view["bag_size"]))
    return [
        Part(N_("Round"), round_items, N_("round details")),
        Part(N_("Lines"), living, N_("lines")),
        Part(N_("Chicken-footed"), feet, N_("chicken-footed players")),
        Part(N_("Dead lines"), dead, N_("dead lines")),
        Part(N_("Dead players"), dead_players, N_("dead players")),
        Part(N_("Tiles in hand"), counts, N_("tile counts")),
    ]
