"""Why a typed lay is refused, in the board's own terms.

`explain_lay` is called only after the lay matched no legal move. It tries the lay against every
line it could have been meant for, and reports the reason from the attempt that got furthest:
touching a line's open end, then being allowed on that line, then matching its pips, then the
foot, reserved-foot and no-blocking rules.
"""

from __future__ import annotations

from engine.core import N_, Term, any_of, phrase
from engine.tronimoes.board import tile_name
from engine.tronimoes.lines import head, line_label, lines_in_priority
from engine.tronimoes.notation import LayRequest
from engine.tronimoes.placement import (
    blocking_problem,
    free_line_problem,
    permission_problem,
    reserved_problem,
    square_problem,
)
from engine.tronimoes.state import Line, LineKey, Table

TOUCHES, ALLOWED, MATCHES, PLACED = 1, 2, 3, 4


def explain_lay(game: Table, seat: int, request: LayRequest, line_key: LineKey | None) -> Term:
    """The reason the requested lay is illegal for `seat` now."""
    if game.spacer is not None:
        return _explain_free_line_leader(game, seat, request)
    squares = request.squares
    if request.tile is None:
        where = " ".join(game.grid.name(s) for s in squares)
        return phrase(N_("none of your tiles can be laid at {squares}. {hint}"), squares=where,
                      hint=own_line_hint(game, seat))
    name = tile_name(request.tile)
    if len(squares) < 2:
        if squares:
            return phrase(N_("{tile} cannot be laid covering {square} on a line you may play on now. {hint}"),
                          tile=name, square=game.grid.name(squares[0]), hint=own_line_hint(game, seat))
        return phrase(N_("{tile} cannot be laid anywhere on a line you may play on now. {hint}"),
                      tile=name, hint=own_line_hint(game, seat))
    best: tuple[int, int, Term] | None = None
    lines = lines_in_priority(game, seat)
    if line_key is not None:
        lines = [line for line in lines if line.key == line_key]
    first, second = squares
    for priority, line in enumerate(lines):
        for match, other in ((first, second), (second, first)):
            attempt = _attempt(game, seat, line, request.tile, match, other)
            if attempt and (best is None or (attempt[0], -priority) > (best[0], -best[1])):
                best = (attempt[0], priority, attempt[1])
    if best is not None:
        return best[2]
    where = f"{game.grid.name(first)} {game.grid.name(second)}"
    target = line_label(game, line_key, seat) if line_key is not None else Term(N_("any line you may play on"))
    return phrase(N_("{tile} at {squares} does not touch the open end of {line}. {hint}"), tile=name,
                  squares=where, line=target, hint=own_line_hint(game, seat))


def _attempt(game: Table, seat: int, line: Line, t: tuple[int, int], match: int,
             other: int) -> tuple[int, Term] | None:
    """How far laying `t` with its matching half on `match` gets on `line`, and why it stops."""
    end = head(game, line)
    if not any(game.grid.adjacent(match, square) for square in end.open_squares):
        return None
    permission = permission_problem(game, seat, line)
    if permission:
        return TOUCHES, permission
    wanted = end.next_pips
    if wanted not in t:
        return ALLOWED, phrase(N_("{tile} does not match the {pips} at the end of {line} ({squares})"),
                               tile=tile_name(t), pips=wanted, line=line_label(game, line.key, seat),
                               squares=any_of([game.grid.name(s) for s in end.open_squares]))
    problem = square_problem(game, seat, line, match, other)
    if problem:
        return MATCHES, problem
    return PLACED, phrase(N_("{tile} cannot go there on {line}"), tile=tile_name(t),
                          line=line_label(game, line.key, seat))


def _explain_free_line_leader(game: Table, seat: int, request: LayRequest) -> Term:
    assert game.spacer is not None
    top = game.highest_leader
    far = game.spacer[1]
    far_name = game.grid.name(far)
    problem = free_line_problem(game, seat)
    if problem:
        return problem
    t = request.tile
    if t is None or t[0] != t[1] or t[0] <= top:
        return phrase(N_("the spacer is down: the only tile you may lay now is a free-line leader, a double higher "
                         "than {top}:{top} touching {square} (or lay the spacer elsewhere, or pass)"),
                      top=top, square=far_name)
    if len(request.squares) < 2:
        return phrase(N_("lay {tile} with one half touching {square}, the spacer's far end"), tile=tile_name(t),
                      square=far_name)
    run = set(game.grid.line_between(*game.spacer) or ())
    a, b = request.squares
    if a in run or b in run:
        return phrase(N_("a free-line leader goes off the end of the spacer, not on it"))
    if not (game.grid.adjacent(a, far) or game.grid.adjacent(b, far)):
        return phrase(N_("a free-line leader must touch {square}, the spacer's far end"), square=far_name)
    return (reserved_problem(game, None, (a, b)) or blocking_problem(game, seat, None, (a, b))
            or phrase(N_("{tile} cannot start a free line there"), tile=tile_name(t)))


def own_line_hint(game: Table, seat: int) -> Term:
    """Where the player's own line can be extended, in one sentence."""
    me = game.seats[seat]
    line = game.lines[seat]
    if line.dead or me.dead:
        return phrase(N_("Your line is dead."))
    end = head(game, line)
    ends = any_of([game.grid.name(s) for s in end.open_squares])
    if not line.tiles:
        if me.footed and me.foot is not None:
            return phrase(N_("Your line starts from the round leader at {squares} (a {pips}), through your foot "
                             "square {square}."), squares=ends, pips=end.next_pips, square=game.grid.name(me.foot))
        return phrase(N_("Your line starts from the round leader at {squares} (a {pips})."), squares=ends,
                      pips=end.next_pips)
    return phrase(N_("Your line's open end is {squares} (a {pips})."), squares=ends, pips=end.next_pips)
