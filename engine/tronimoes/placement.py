"""Where a Tronimoes seat may lay, and why not (rules §3, §5, §6): permission to use a line, the
foot, reserved-foot and no-blocking rules, every legal lay, the spacer and free-line leaders, and
passing. Every function works on a game through the `Table` protocol; derived facts are kept in
`table.cache`, which the game empties on every change."""

from __future__ import annotations

from engine.core import N_, IllegalMove, Term, join_names, phrase, refuse, refused
from engine.tronimoes import notation
from engine.tronimoes.blocking import Claimant, blocking_region, most_first_tiles
from engine.tronimoes.board import Tile
from engine.tronimoes.lines import feet, head, line_label, line_token, lines_in_priority
from engine.tronimoes.state import Lay, Line, LineKey, Pass, PlaceSpacer, Table

SPACER_LENGTH = 6


# ---- lays (§3, §5) ---------------------------------------------------------------------


def permission_problem(table: Table, seat: int, line: Line) -> Term | None:
    """Why `seat` may not use `line` at all now, or None."""
    me = table.seats[seat]
    if table.spacer is not None:
        far = table.grid.name(table.spacer[1])
        return phrase(N_("the spacer is down: the only tile you may lay now is a free-line leader, a double "
                         "higher than {top}:{top} touching {square}"), top=table.highest_leader, square=far)
    if line.key == seat:
        if line.dead or me.dead:
            return phrase(N_("your line is dead; you may still play on free lines and on chicken-footed "
                             "players' lines"))
        return None
    if line.dead:
        return phrase(N_("{line} is dead"), line=line_label(table, line.key))
    if me.restricted:
        return phrase(N_("you are chicken-footed: you may only play on your own line until you lay a tile on it"))
    if line.is_free:
        return None
    owner = table.seats[int(line.key)]
    if not owner.footed:
        return phrase(N_("{player}'s line is not chicken-footed, so only {player} may play on it"), player=owner.name)
    return None


def foot_problem(table: Table, seat: int, line: Line, match: int, other: int) -> Term | None:
    """The foot rule: a footed player's unstarted line starts through their foot square."""
    if line.is_free or line.tiles:
        return None
    owner = table.seats[int(line.key)]
    foot = owner.foot
    if not owner.footed or foot is None:
        return None
    if seat == line.key:
        if foot not in (match, other):
            return phrase(N_("your first tile must cover your foot square {square}"), square=table.grid.name(foot))
    elif match != foot:
        return phrase(N_("{player}'s line must start through their foot square {square}, with the matching half "
                         "on it"), player=owner.name, square=table.grid.name(foot))
    return None


def reserved_problem(table: Table, line_key: LineKey | None, squares: tuple[int, ...]) -> Term | None:
    """Another player's foot square may only be covered by a tile on that player's line."""
    reserved = feet(table)
    for square in squares:
        owner = reserved.get(square)
        if owner is not None and owner != line_key:
            name = table.names[owner]
            return phrase(N_("{square} is {player}'s foot square: only a tile on {player}'s line may cover it"),
                          square=table.grid.name(square), player=name)
    return None


def _claimants(table: Table, seat: int) -> tuple[Claimant, ...]:
    key = ("claimants", seat)
    if key not in table.cache:
        table.cache[key] = tuple(
            Claimant(other, s.foot if s.footed else None)
            for other, s in enumerate(table.seats)
            if other != seat and not s.dead and not s.resigned and not table.lines[other].tiles)
    result: tuple[Claimant, ...] = table.cache[key]
    return result


def blocking_problem(table: Table, seat: int, line_key: LineKey | None, squares: tuple[int, int]) -> Term | None:
    """The no-blocking rule (§5): a lay may not take away any other unstarted player's room for
    a first tile. Counted exactly: the most unstarted players who could lay a first tile at
    once must not go down."""
    claimants = _claimants(table, seat)
    if not claimants:
        return None
    region_key = ("region", seat)
    if region_key not in table.cache:
        table.cache[region_key] = blocking_region(table.grid, claimants)
    region = table.cache[region_key]
    if squares[0] not in region and squares[1] not in region:
        return None
    protected = tuple(c for c in claimants if c.seat != line_key)
    if not protected:
        return None
    reserved = feet(table)
    before_key = ("packing", protected)
    if before_key not in table.cache:
        table.cache[before_key] = most_first_tiles(table.grid, table.occupied, protected, reserved)
    before = table.cache[before_key]
    for square in squares:
        table.occupied[square] = 1
    try:
        after = most_first_tiles(table.grid, table.occupied, protected, reserved)
    finally:
        for square in squares:
            table.occupied[square] = 0
    if after >= before:
        return None
    names = [table.names[c.seat] for c in protected]
    if len(names) == 1:
        return phrase(N_("that would leave {player} no room to lay the first tile of their line"), player=names[0])
    return phrase(N_("that would leave {players} without room for the first tiles of their lines (everyone must "
                     "be able to start their line)"), players=join_names(names))


def square_problem(table: Table, seat: int, line: Line, match: int, other: int) -> Term | None:
    """Problems of a lay that depend only on its squares and line, not on the tile."""
    return (foot_problem(table, seat, line, match, other)
            or reserved_problem(table, line.key, (match, other))
            or blocking_problem(table, seat, line.key, (match, other)))


def legal_lays(table: Table, seat: int) -> list[Lay]:
    """Every legal lay for `seat` if it were their turn, in line priority order."""
    key = ("lays", seat)
    if key in table.cache:
        cached: list[Lay] = table.cache[key]
        return cached
    me = table.seats[seat]
    lays: list[Lay] = []
    if table.spacer is not None:
        lays = leader_lays(table, seat, table.spacer)
    else:
        hand = sorted(set(me.hand))
        occupied = table.occupied
        neighbours = table.grid.neighbours
        for line in lines_in_priority(table, seat):
            if permission_problem(table, seat, line):
                continue
            end = head(table, line)
            wanted = end.next_pips
            tiles = [t for t in hand if wanted in t]
            if not tiles:
                continue
            fits: dict[tuple[int, int], bool] = {}
            for open_square in end.open_squares:
                for match in neighbours[open_square]:
                    if occupied[match]:
                        continue
                    for other in neighbours[match]:
                        if not occupied[other] and (match, other) not in fits:
                            fits[(match, other)] = square_problem(table, seat, line, match, other) is None
            found = []
            for (match, other), ok in fits.items():
                if not ok:
                    continue
                for t in tiles:
                    if t[0] == t[1]:
                        if fits.get((other, match)) and other < match:
                            continue
                        found.append(Lay(t, (match, other), (wanted, wanted), line.key))
                    else:
                        rest = t[1] if t[0] == wanted else t[0]
                        found.append(Lay(t, (match, other), (wanted, rest), line.key))
            found.sort(key=lambda lay: (lay.tile, lay.pips, lay.squares))
            lays.extend(found)
    table.cache[key] = lays
    return lays


def lay_table(table: Table, seat: int) -> dict[str, Lay]:
    """Canonical text -> lay, for every legal lay. A placement that fits several lines is
    written plainly for the first line in priority and with `on <line>` for the others."""
    key = ("table", seat)
    if key in table.cache:
        cached: dict[str, Lay] = table.cache[key]
        return cached
    texts: dict[str, Lay] = {}
    default_line: dict[frozenset[tuple[int, int]], LineKey | None] = {}
    for lay in legal_lays(table, seat):
        placement = lay.placement
        if placement not in default_line:
            default_line[placement] = lay.line
            suffix = None
        else:
            suffix = line_token(table, lay.line)
        texts[notation.write(lay, table.grid, suffix)] = lay
    table.cache[key] = texts
    return texts


# ---- free lines (§6) -------------------------------------------------------------------


def free_line_problem(table: Table, seat: int) -> Term | None:
    """Why `seat` cannot start a free line at all now, or None."""
    me = table.seats[seat]
    if me.restricted:
        return phrase(N_("you are chicken-footed: you may not start a free line until you lay a tile on your line"))
    if not table.lines[seat].tiles:
        return phrase(N_("start your own line before you start a free line"))
    if not leader_doubles(table, seat):
        top = table.highest_leader
        return phrase(N_("a free line needs a double higher than {top}:{top}, the highest leader this round, and "
                         "you have none"), top=top)
    return None


def leader_doubles(table: Table, seat: int) -> list[Tile]:
    """The doubles in `seat`'s hand higher than every leader this round."""
    return sorted({t for t in table.seats[seat].hand if t[0] == t[1] and t[0] > table.highest_leader})


def leader_lays(table: Table, seat: int, spacer: tuple[int, int]) -> list[Lay]:
    """Free-line leaders `seat` could lay off the far end of `spacer`."""
    if free_line_problem(table, seat):
        return []
    doubles = leader_doubles(table, seat)
    run = set(table.grid.line_between(*spacer) or ())
    far = spacer[1]
    lays: list[Lay] = []
    for first in table.grid.neighbours[far]:
        if table.occupied[first] or first in run:
            continue
        for second in table.grid.neighbours[first]:
            if table.occupied[second] or second in run:
                continue
            squares = (first, second)
            if reserved_problem(table, None, squares) or blocking_problem(table, seat, None, squares):
                continue
            lays.extend(Lay(d, squares, d, None, starts_free_line=True) for d in doubles)
    lays.sort(key=lambda lay: (lay.tile, lay.squares))
    return lays


def spacer_starts(table: Table) -> dict[int, LineKey]:
    """Empty squares next to the open end of a living started player line or a living free
    line, each with the line it starts from (§6, §10.2)."""
    starts: dict[int, LineKey] = {}
    for line in table.lines.values():
        if line.dead or not line.tiles:
            continue
        for end in head(table, line).open_squares:
            for square in table.grid.neighbours[end]:
                if not table.occupied[square]:
                    starts.setdefault(square, line.key)
    return starts


def spacer_moves(table: Table, seat: int) -> list[PlaceSpacer]:
    """Every legal spacer for `seat`: from an open end, with room for a leader off its far end."""
    key = ("spacers", seat)
    if key in table.cache:
        cached: list[PlaceSpacer] = table.cache[key]
        return cached
    moves = []
    if free_line_problem(table, seat) is None:
        for start in sorted(spacer_starts(table)):
            for end in spacer_ends(table, start):
                if leader_lays(table, seat, (start, end)):
                    moves.append(PlaceSpacer(start, end))
    table.cache[key] = moves
    return moves


def spacer_ends(table: Table, start: int) -> list[int]:
    """Far ends of straight 6-square runs of empty squares from `start`."""
    x, y = table.grid.xy(start)
    ends = []
    for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        fx, fy = x + dx * (SPACER_LENGTH - 1), y + dy * (SPACER_LENGTH - 1)
        if not table.grid.on_board(fx, fy):
            continue
        run = table.grid.line_between(start, table.grid.square(fx, fy)) or []
        if all(not table.occupied[s] for s in run):
            ends.append(table.grid.square(fx, fy))
    return sorted(ends)


def check_spacer(table: Table, seat: int, request: PlaceSpacer) -> PlaceSpacer:
    """The legal spacer `request` names (its ends in the right order); IllegalMove says why it
    cannot go there."""
    problem = free_line_problem(table, seat)
    if problem:
        raise refused(IllegalMove, problem)
    a, b = request.start, request.end
    run = table.grid.line_between(a, b)
    an, bn = table.grid.name(a), table.grid.name(b)
    if run is None:
        raise refuse(IllegalMove, N_("the spacer must lie in a straight line: {a} and {b} are not in one row or "
                                     "column"), a=an, b=bn)
    if len(run) != SPACER_LENGTH:
        raise refuse(IllegalMove, N_("the spacer spans exactly 6 squares; {a} to {b} is {count}"), a=an, b=bn,
                     count=len(run))
    taken = [table.grid.name(s) for s in run if table.occupied[s]]
    if taken:
        template = (N_("the spacer's squares must all be empty: {squares} is taken") if len(taken) == 1
                    else N_("the spacer's squares must all be empty: {squares} are taken"))
        raise refuse(IllegalMove, template, squares=", ".join(taken))
    starts = spacer_starts(table)
    orders = [(a, b)] if a in starts else []
    if b in starts:
        orders.append((b, a))
    if not orders:
        raise refuse(IllegalMove, N_("a spacer must start next to the open end of a living line; neither {a} nor "
                                     "{b} is"), a=an, b=bn)
    for start, end in orders:
        if leader_lays(table, seat, (start, end)):
            return PlaceSpacer(start, end)
    far = table.grid.name(orders[0][1])
    raise refuse(IllegalMove, N_("no double of yours could start a free line off {square}: there is no room for it "
                                 "there"), square=far)


# ---- passing (§5) ----------------------------------------------------------------------


def needs_foot(table: Table, seat: int) -> bool:
    """Passing would make `seat` chicken-footed before their line has started."""
    me = table.seats[seat]
    return not me.dead and not me.footed and not table.lines[seat].tiles


def foot_squares(table: Table, seat: int) -> list[int]:
    """Legal foot squares: next to the leader, empty, with an empty neighbour, and not
    another player's foot (unless every candidate is one)."""
    candidates = []
    for square in sorted(table.grid.leader_surround):
        if table.occupied[square]:
            continue
        if any(not table.occupied[n] for n in table.grid.neighbours[square]):
            candidates.append(square)
    reserved = feet(table)
    free = [s for s in candidates if s not in reserved]
    return free or candidates


def pass_moves(table: Table, seat: int, *, after_draw: bool = False) -> list[Pass]:
    """The passes `seat` may make now (after drawing, or with the bag empty); one per foot
    square when passing needs one."""
    me = table.seats[seat]
    if not (me.drew or after_draw or not table.bag):
        return []
    if needs_foot(table, seat):
        squares = foot_squares(table, seat)
        if squares:
            return [Pass(square) for square in squares]
    return [Pass(None)]


def check_pass(table: Table, seat: int, request: Pass) -> Pass:
    """The legal pass `request` names (with the only foot square filled in); IllegalMove says
    what to type instead."""
    me = table.seats[seat]
    if not me.drew and table.bag:
        raise refuse(IllegalMove, N_("you must draw before you pass: type `draw` first"))
    options = pass_moves(table, seat)
    squares = [p.foot for p in options if p.foot is not None]
    if not squares:
        if request.foot is not None:
            if me.dead:
                raise refuse(IllegalMove, N_("your line is dead, so you pass without a foot square: type `pass`"))
            if me.footed:
                raise refuse(IllegalMove, N_("you are already chicken-footed: type `pass`"))
            raise refuse(IllegalMove, N_("your line has started, so there is no foot square to choose: type `pass`"))
        return Pass(None)
    names = ", ".join(table.grid.name(f) for f in squares)
    if request.foot is None:
        if len(squares) == 1:
            return Pass(squares[0])
        raise refuse(IllegalMove, N_("passing makes you chicken-footed before your line has started: choose a foot "
                                     "square next to the leader for your first tile, e.g. `pass {square}` (free: "
                                     "{squares})"), square=table.grid.name(squares[0]), squares=names)
    if request.foot in squares:
        return Pass(request.foot)
    square = table.grid.name(request.foot)
    if request.foot not in table.grid.leader_surround:
        reason = phrase(N_("{square} is not next to the round leader"), square=square)
    elif table.occupied[request.foot]:
        reason = phrase(N_("{square} is taken"), square=square)
    elif request.foot in feet(table):
        reason = phrase(N_("{square} is already {player}'s foot square"), square=square,
                        player=table.names[feet(table)[request.foot]])
    else:
        reason = phrase(N_("{square} has no empty square beside it, so you could never lay a tile through it "
                           "(leave yourself at least one open square next to the foot)"), square=square)
    raise refuse(IllegalMove, N_("{reason}; choose one of {squares}"), reason=reason, squares=names)
