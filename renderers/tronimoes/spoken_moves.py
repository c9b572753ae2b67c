"""Tronimoes moves grouped to be read aloud: the lays by the line end they go on ("on your line,
end d4, needs 4: 4:2 d5, then d6, e5"), then the spacer, then drawing, passing and ready."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.tronimoes.placement import lay_table
from renderers.common import N_, say
from renderers.spoken import Group, clean, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group a line end the lays go on, the spacer's, and the rest."""
    table: Any = game
    grid = table.grid
    placed = lay_table(table, seat)
    ends = {line["line"]: line["open"] for line in game.view(seat)["lines"]}

    def title(action: str) -> str:
        words = action.split(" ")
        if words[0] == "spacer":
            return say(N_("the spacer, from a line end six squares"))
        if action not in placed:
            return say(N_("other moves"))
        key, needs, first = placed[action].line, int(words[0].split(":")[0]), grid.parse_square(words[1])
        if key is None:
            return say(N_("a new free line off the spacer, needs {number}")).format(number=needs)
        label = clean(say(table.line_label(key, seat)))
        end = next((square for square in ends.get(key, []) if grid.adjacent(first, grid.parse_square(square))), None)
        if end is None:
            return say(N_("on {line}, needs {number}")).format(line=label, number=needs)
        return say(N_("on {line}, end {square}, needs {number}")).format(line=label, square=end, number=needs)

    def prefix_words(action: str) -> int:
        """Lays share their tile and first square, spacers their first end, passes the word."""
        first = action.split(" ")[0]
        return 2 if first == "spacer" or ":" in first else 1 if first == "pass" else 0

    actions = game.legal_actions(seat)
    lays = [a for a in actions if ":" in a.split(" ")[0]]
    spacers = [a for a in actions if a.startswith("spacer ")]
    rest = [a for a in actions if a not in lays and a not in spacers]
    return grouped(lays + spacers + rest, title, prefix_words)
