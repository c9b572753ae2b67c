"""Tronimoes moves grouped to be read aloud: the lays by the line end they go on ("on your line,
end d4, needs 4: 4:2 d5, then d6, e5"), then the spacer, then drawing, passing and ready."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from renderers.common import N_, say
from renderers.spoken import Group, clean, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group a line end the lays go on, the spacer's, and the rest."""
    table: Any = game
    view = game.view(seat)
    grid = table.grid
    lines = [line for line in view["lines"] if not line["dead"]]

    def title(action: str) -> str:
        words = action.split(" ")
        if words[0] == "spacer":
            return say(N_("the spacer, from a line end six squares"))
        if ":" not in words[0] or len(words) < 3:
            return say(N_("other moves"))
        first, needs = grid.parse_square(words[1]), int(words[0].split(":")[0])
        near = [(line, end) for line in lines for end in line["open"]
                if line["next"] == needs and grid.adjacent(first, grid.parse_square(end))]
        if len({line["line"] for line, _ in near}) == 1:
            line, end = near[0]
            label = clean(say(table.line_label(line["line"], seat)))
            return say(N_("on {line}, end {square}, needs {number}")).format(line=label, square=end, number=needs)
        if near:
            return say(N_("next to {square}, needs {number}")).format(square=near[0][1], number=needs)
        return say(N_("from {square}, with a {number}")).format(square=words[1], number=needs)

    def prefix_words(action: str) -> int:
        """Lays share their tile and first square, spacers their first end, passes the word."""
        first = action.split(" ")[0]
        return 2 if first == "spacer" or ":" in first else 1 if first == "pass" else 0

    actions = game.legal_actions(seat)
    lays = [a for a in actions if ":" in a.split(" ")[0]]
    spacers = [a for a in actions if a.startswith("spacer ")]
    rest = [a for a in actions if a not in lays and a not in spacers]
    return grouped(lays + spacers + rest, title, prefix_words)
