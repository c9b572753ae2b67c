"""The Tronix table in words (see `renderers.description`): the phase and the teams' piles, the
open lines with the colour and cell of each free end (the empty cell it runs into), the circuits
one card from closing (the cells where one card closes a circuit, and the patterns that do), and
the locked card of God Mode."""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.tronix.cards import COLOURS, PATTERNS, Cell, segment_ports, step, term
from engine.tronix.lines import Line, line_through, trace
from renderers.common import N_, say
from renderers.description import Part, seat_name

_COLOUR_WORDS = {"green": N_("green"), "pink": N_("pink")}


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _free_ends(table: dict[Cell, str], line: Line) -> list[tuple[Cell, str, int]]:
    """(card, colour, port) of every end of `line` that runs into an empty cell."""
    ends = []
    for cell, colour in line.segments:
        for port in sorted(segment_ports(table[cell], colour)):
            if step(cell, port) not in table:
                ends.append((cell, colour, port))
    return ends


def _closing_cards(table: dict[Cell, str], ends: list[tuple[Cell, str, int]]) -> list[str]:
    """Every empty cell where one card closes a circuit, with the patterns that do (and the
    colour of the card's line that closes it, and how many cards the circuit holds), trying each
    pattern in each empty cell that two or more open ends run into."""
    facing: dict[Cell, int] = {}
    for cell, _colour, port in ends:
        target = step(cell, port)
        facing[target] = facing.get(target, 0) + 1
    found = []
    for target in sorted(c for c, count in facing.items() if count >= 2):
        ways = []
        for pattern in PATTERNS:
            trial = {**table, target: pattern}
            for colour in COLOURS:
                line = line_through(trial, (target, colour))
                if line.closed:
                    ways.append(say(N_("{pattern} ({colour}, {count} cards)")).format(
                        pattern=say(term(pattern)), colour=say(_COLOUR_WORDS[colour]), count=len(line.cells())))
        if ways:
            found.append(say(N_("a card at {cell} closes one: {ways}")).format(cell=_cell(target),
                                                                             ways=", ".join(ways)))
    return found


def describe_parts(game: Game, view: dict[str, Any]) -> list[Part]:
    """The parts of the description, in the order a player needs them."""
    table: dict[Cell, str] = {(e["at"][0], e["at"][1]): e["pattern"] for e in view["table"]}
    names = [s["name"] for s in view["seats"]]
    phase_items = []
    if view["phase"] == "placement":
        phase_items.append(say(N_("placement: each turn lays cards from the hand")))
    elif view["phase"] == "god":
        phase_items.append(say(N_("God Mode: each turn moves or turns a card on the table")))
    if view.get("actions_left", 0) > 1 and view.get("turn") is not None:
        phase_items.append(say(N_("{seat} has {count} actions left this turn")).format(
            seat=seat_name(names, view["turn"]), count=view["actions_left"]))
    if view.get("locked"):
        phase_items.append(say(N_("the locked card (moved last, may not move) is at {cell}")).format(
            cell=_cell(tuple(view["locked"]))))
    piles = view.get("piles", {})
    phase_items.append(say(N_("score piles: green {green}, pink {pink}")).format(
        green=piles.get("green", 0), pink=piles.get("pink", 0)))
    phase_items.append(say(N_("{count} cards on the table")).format(count=len(table)))
    lines, ends = [], []
    for line in sorted((ln for ln in trace(table) if not ln.closed), key=lambda ln: -len(ln.segments)):
        line_ends = _free_ends(table, line)
        ends.extend(line_ends)
        shown = ", ".join(say(N_("{colour} at {card} into {cell}")).format(
            colour=say(_COLOUR_WORDS[colour]), card=_cell(cell), cell=_cell(step(cell, port)))
            for cell, colour, port in line_ends)
        count = len(line.cells())
        template = N_("1 card: {ends}") if count == 1 else N_("{count} cards: {ends}")
        lines.append(say(template).format(count=count, ends=shown))
    closing = _closing_cards(table, ends)
    teams = [say(N_("{name} {team}, 1 card in hand") if s["hand_size"] == 1 else
                 N_("{name} {team}, {count} cards in hand")).format(
        name=s["name"], team=say(_COLOUR_WORDS.get(s["team"], s["team"])), count=s["hand_size"])
        for s in view["seats"]]
    return [
        Part(N_("Phase"), phase_items, N_("phase details")),
        Part(N_("Circuits one card from closing"), closing, N_("circuits one card from closing")),
        Part(N_("Open lines, longest first, by the colour of each free end"), lines, N_("open lines")),
        Part(N_("Players"), teams, N_("players")),
    ]
