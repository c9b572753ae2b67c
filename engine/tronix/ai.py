"""Tronix greedy play (`engine.ai` registers it): the action that wins the seat's team the most
cards minus the other team's (a TRONIX counts like any score, and ends the game); among equals,
the one that leaves the other team the fewest circuits a single card could close (an open line,
mostly of their colour, whose two free ends face the same empty cell), then the one that keeps
the most such chances for the seat's own team, then the one landing among the most cards (a
compact table closes circuits); then the first in canonical order.

Tronix offers thousands of actions in God Mode, so each is judged on the table's patterns alone
(the lines through the card it moves), not by applying it to a copy of the game. Nothing hidden
is looked at: the table is public, and only the seat's own hand decides its placements."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.ai import Heuristics, margin
from engine.core import Game, GameError
from engine.tronix import notation
from engine.tronix.cards import COLOURS, GREEN, KINDS, ORDER, PATTERNS, PINK, PORT_STEP, Cell, neighbours, segment_ports
from engine.tronix.game import GOD, Tronix
from engine.tronix.lines import THROUGH, Line, line_through, shares, trace
from engine.tronix.notation import Move, Play


def gain(before: Game, seat: int, after: Game) -> float:
    """Cards the action won the seat's team minus those it gave the other team."""
    assert isinstance(before, Tronix) and isinstance(after, Tronix)
    mine = before.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    return float((after.piles[mine] - before.piles[mine]) - (after.piles[theirs] - before.piles[theirs]))


def ranked(game: Game, seat: int) -> list[str]:
    assert isinstance(game, Tronix)
    actions = game.legal_actions(seat)
    if len(actions) <= 1:
        return actions
    mine = game.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    table = game.patterns()
    now = closable(table)
    hot = _hot_cells(table, now[theirs] + now[mine])
    keyed = []
    for index, action in enumerate(actions):
        after, landed, left = _patterns_after(table, action)
        won = _won(after, landed, game.phase == GOD)
        score = won[mine] - won[theirs]
        if landed in hot or left in hot:
            chances = closable(after)
            block = (-float(len(chances[theirs])), float(len(chances[mine])))
        else:
            block = (-float(len(now[theirs])), float(len(now[mine])))
        snug = float(sum(1 for n in neighbours(landed) if n in after))
        keyed.append(((float(score), *block, snug), index, action))
    keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
    return [action for _, _, action in keyed]


_read = functools.lru_cache(maxsize=1 << 16)(notation.read)
"""`notation.read`, remembered: the same few thousand action texts come back move after move
(the actions it returns are frozen)."""


def _patterns_after(table: Mapping[Cell, str], action: str) -> tuple[dict[Cell, str], Cell, Cell | None]:
    """The table's patterns after `action`, where its card lands, and the cell it left."""
    move = _read(action)
    after = dict(table)
    if isinstance(move, Play):
        after[move.cell] = move.pattern
        return after, move.cell, None
    if isinstance(move, Move):
        del after[move.source]
        after[move.target] = move.pattern
        return after, move.target, move.source
    after[move.cell] = move.pattern
    return after, move.cell, None


def _won(table: dict[Cell, str], landed: Cell, god: bool) -> dict[str, int]:
    """Cards each team would win: the circuits through the landed card, or, in God Mode with
    none, a TRONIX through it."""
    first = line_through(table, (landed, GREEN))
    lines = [first] if (landed, PINK) in first.segments else [first, line_through(table, (landed, PINK))]
    closed = [line for line in lines if line.closed]
    won = {GREEN: 0, PINK: 0}
    if not closed and god:
        closed = [line for line in lines if not line.closed and 2 <= len(table) <= len(line.segments)
                  and line.cells() == set(table)]
    for colours in shares(closed).values():
        if len(colours) == 1:
            won[next(iter(colours))] += 1
    return won


def _hot_cells(table: Mapping[Cell, str], threats: list[Cell]) -> set[Cell]:
    """Cells where a card landing or leaving may change the closable counts: the threatened
    empty cells and everything around them."""
    hot = set(threats)
    for cell in threats:
        hot.update(neighbours(cell))
    return hot


def closable(table: Mapping[Cell, str]) -> dict[str, list[Cell]]:
    """For each colour, the empty cells where one card could close an open line of mostly that
    colour (both of the line's free ends face the cell)."""
    parent: dict[tuple[Cell, str], tuple[Cell, str]] = {}

    def root(segment: tuple[Cell, str]) -> tuple[Cell, str]:
        while parent[segment] != segment:
            parent[segment] = parent[parent[segment]]
            segment = parent[segment]
        return segment

    entering: dict[Cell, list[tuple[Cell, str]]] = {}
    for cell, pattern in table.items():
        for colour in (GREEN, PINK):
            parent.setdefault((cell, colour), (cell, colour))
        for port, (colour, _) in THROUGH[pattern].items():
            dx, dy = PORT_STEP[port]
            other = (cell[0] + dx, cell[1] + dy)
            facing = table.get(other)
            if facing is None:
                entering.setdefault(other, []).append((cell, colour))
                continue
            partner = (other, THROUGH[facing][(port + 2) % 4][0])
            parent.setdefault(partner, partner)
            a, b = root((cell, colour)), root(partner)
            if a != b:
                parent[a] = b
    greens: dict[tuple[Cell, str], int] = {}
    sizes: dict[tuple[Cell, str], int] = {}
    for segment in parent:
        top = root(segment)
        sizes[top] = sizes.get(top, 0) + 1
        greens[top] = greens.get(top, 0) + (segment[1] == GREEN)
    found: dict[str, list[Cell]] = {GREEN: [], PINK: []}
    for cell, ends in sorted(entering.items()):
        roots = [root(segment) for segment in ends]
        for line in {r for r in roots if roots.count(r) == 2}:
            found[GREEN if 2 * greens[line] >= sizes[line] else PINK].append(cell)
    return found


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    """The same blocking judgement for agents that try actions on a copy (rollouts)."""
    assert isinstance(after, Tronix)
    if after.outcome() is not None:
        return (0.0, 0.0)
    chances = closable(after.patterns())
    mine = after.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    return (-float(len(chances[theirs])), float(len(chances[mine])))


# ---- the planning agent's knowledge: its simulated games and where it judges them -------------


JOINING: dict[frozenset[int], dict[str, str]] = {
    ports: {colour: next(p for p, lines in PATTERNS.items() if lines[COLOURS.index(colour)] == ports)
            for colour in COLOURS}
    for ports in {frozenset(lines[0]) for lines in PATTERNS.values()}}
"""Two ports of a cell -> colour -> the pattern whose line of that colour joins them."""


@dataclass(frozen=True)
class Threat:
    """An open line whose two free ends face the same empty cell: one card there, with a line
    joining `ports`, closes it. `green` and `pink` count the cards the circuit would give each
    colour (cards with both colours on it are shared and count for neither)."""

    cell: Cell
    ports: frozenset[int]
    green: int
    pink: int

    def worth(self, colour: str) -> int:
        """Cards minus cards given away if `colour` closes it with a line of its own colour."""
        if colour == GREEN:
            return self.green + 1 - self.pink
        return self.pink + 1 - self.green


def threats(table: Mapping[Cell, str]) -> list[Threat]:
    """Every open line on the table that one card could close, in reading order of the cells."""
    found = []
    for line in trace(table):
        if line.closed:
            continue
        ends = _free_ends(table, line)
        if ends is None:
            continue
        (cell, port), (other, other_port) = ends
        if cell != other:
            continue
        won = {GREEN: 0, PINK: 0}
        for colours in shares([line]).values():
            if len(colours) == 1:
                won[next(iter(colours))] += 1
        found.append(Threat(cell, frozenset((port, other_port)), won[GREEN], won[PINK]))
    found.sort(key=lambda t: (t.cell[1], t.cell[0]))
    return found


def _free_ends(table: Mapping[Cell, str], line: Line) -> tuple[tuple[Cell, int], tuple[Cell, int]] | None:
    """The empty cells an open line's two ends face, each with the port it enters them by."""
    ends = []
    for segment in (line.segments[0], line.segments[-1]):
        cell, colour = segment
        for port in segment_ports(table[cell], colour):
            dx, dy = PORT_STEP[port]
            facing = (cell[0] + dx, cell[1] + dy)
            if facing not in table:
                ends.append((facing, (port + 2) % 4))
    if len(ends) != 2:  # a one-card line lists both its ends twice
        ends = ends[:2]
    return (ends[0], ends[1]) if len(ends) == 2 else None


def _other(colour: str) -> str:
    return PINK if colour == GREEN else GREEN


def _mostly(line: Line) -> str:
    greens = sum(1 for _, colour in line.segments if colour == GREEN)
    return GREEN if 2 * greens >= len(line.segments) else PINK


def _gap(ends: tuple[tuple[Cell, int], tuple[Cell, int]]) -> int:
    """How far apart the cells an open line's two ends face are (0: one card closes it)."""
    (a, _), (b, _) = ends
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _local(table: dict[Cell, str], landed: Cell, colour: str) -> float:
    """How the lines through the card at `landed` look to `colour`: a circuit is worth its
    cards (won minus given); a line one card could close is worth a little (more if it is
    mostly the seat's colour, less if mostly the other's), and one whose ends face neighbouring
    cells (one card from that) less."""
    first = line_through(table, (landed, GREEN))
    lines = [first] if (landed, PINK) in first.segments else [first, line_through(table, (landed, PINK))]
    closed = [line for line in lines if line.closed]
    if closed:
        won = {GREEN: 0, PINK: 0}
        for colours in shares(closed).values():
            if len(colours) == 1:
                won[next(iter(colours))] += 1
        return 10.0 * (won[colour] - won[_other(colour)])
    value = 0.0
    for line in lines:
        ends = _free_ends(table, line)
        if ends is None:
            continue
        gap = _gap(ends)
        ours = _mostly(line) == colour
        if gap == 0:
            value += 1.0 if ours else -2.0
        elif gap == 1:
            value += 0.4 if ours else -0.2
    return value


def proposals(game: Tronix, seat: int, table: dict[Cell, str], rng: random.Random | None = None) -> list[str]:
    """Actions that bring the two ends of one of the seat's team's open lines together, best
    first: a card on one end turning the line towards the other end (from the hand, or in God
    Mode moved from elsewhere, or the line's last card turned in place). Not always legal (the
    agents check)."""
    mine = game.team_of(seat)
    found: dict[str, float] = {}
    kinds = sorted(set(game.seats[seat].hand))
    movable = _movable(game, table) if game.phase == GOD else []
    for line in trace(table):
        if line.closed or _mostly(line) != mine:
            continue
        ends = _free_ends(table, line)
        if ends is None or not 0 < _gap(ends) <= 3:
            continue
        gap = _gap(ends)
        line_cells = line.cells()
        for (cell, port), (other, _) in (ends, ends[::-1]):
            for out in range(4):
                ahead = (cell[0] + PORT_STEP[out][0], cell[1] + PORT_STEP[out][1])
                if out == port or abs(ahead[0] - other[0]) + abs(ahead[1] - other[1]) >= gap:
                    continue
                pattern = JOINING[frozenset((port, out))][mine]
                if game.phase != GOD:
                    kind = next((k for k in kinds if pattern in KINDS[k]), None)
                    if kind is not None and f"play {kind} {cell[0]},{cell[1]} {pattern}" not in found:
                        table[cell] = pattern
                        found[f"play {kind} {cell[0]},{cell[1]} {pattern}"] = _local(table, cell, mine)
                        del table[cell]
                    continue
                source = next((c for c in movable if c not in line_cells
                               and pattern in KINDS[game.table[c].kind]), None)
                if source is None:
                    continue
                action = f"move {source[0]},{source[1]} to {cell[0]},{cell[1]} {pattern}"
                if action not in found:
                    was = table.pop(source)
                    table[cell] = pattern
                    found[action] = _local(table, cell, mine)
                    del table[cell]
                    table[source] = was
        if game.phase != GOD:
            continue
        for index in (0, -1):
            cell, colour = line.segments[index]
            if cell == game.locked:
                continue
            ports = segment_ports(table[cell], colour)
            inward = [p for p in ports if _facing(cell, p) in table]
            if len(inward) != 1:
                continue
            was = table[cell]
            for out in range(4):
                if out in ports:
                    continue
                pattern = JOINING[frozenset((inward[0], out))][mine]
                if pattern not in KINDS[game.table[cell].kind]:
                    continue
                table[cell] = pattern
                found[f"turn {cell[0]},{cell[1]} {pattern}"] = _local(table, cell, mine)
            table[cell] = was
    noise = rng.random if rng is not None else (lambda: 0.0)
    return sorted(found, key=lambda a: -found[a] - 0.01 * noise())


def _facing(cell: Cell, port: int) -> Cell:
    return cell[0] + PORT_STEP[port][0], cell[1] + PORT_STEP[port][1]


def _movable(game: Tronix, table: dict[Cell, str]) -> list[Cell]:
    """Cards that could leave their cells without cutting the table: those with one neighbour
    (and any card but the locked one, if there is none such)."""
    cells = [c for c in table if c != game.locked]
    leaves = [c for c in cells if sum(1 for n in neighbours(c) if n in table) == 1]
    return leaves or cells


class Rollout:
    """The planning agent's policy for simulated games, judged on the table's patterns: close
    the seat's best circuit if one card can; else fill the cell where the other team could close
    one with a card that does not; else the best of a few random actions (one that sets up a
    circuit of the seat's colour, never one that sets one up for the other team)."""

    samples = 6

    def choose(self, game: Tronix, seat: int, rng: random.Random) -> str:
        table = game.patterns()
        mine = game.team_of(seat)
        open_lines = threats(table)
        best = max(open_lines, key=lambda t: t.worth(mine), default=None)
        if best is not None and best.worth(mine) > 0:
            action = self._fill(game, seat, table, best.cell, [JOINING[best.ports][mine]], rng)
            if action is not None:
                return action
        danger = max(open_lines, key=lambda t: t.worth(_other(mine)), default=None)
        if danger is not None and danger.worth(_other(mine)) > 0:
            closing = set(JOINING[danger.ports].values())
            action = self._fill(game, seat, table, danger.cell, [p for p in ORDER if p not in closing], rng)
            if action is not None:
                return action
        return self._develop(game, seat, table, rng)

    def _fill(self, game: Tronix, seat: int, table: dict[Cell, str], cell: Cell, patterns: list[str],
              rng: random.Random) -> str | None:
        """An action putting a card showing one of `patterns` at the empty `cell`: from the
        hand in the placement phase, moved from elsewhere on the table in God Mode."""
        if game.phase != GOD:
            hand = game.seats[seat].hand
            options = [(kind, p) for p in patterns for kind in sorted(set(hand)) if p in KINDS[kind]]
            if not options:
                return None
            kind, pattern = options[0] if len(patterns) == 1 else rng.choice(options)
            return f"play {kind} {cell[0]},{cell[1]} {pattern}"
        sources = [c for c in table if c != game.locked and c not in neighbours(cell)]
        rng.shuffle(sources)
        for source in sources[:8]:
            allowed = [p for p in patterns if p in KINDS[game.table[source].kind]]
            if not allowed:
                continue
            action = f"move {source[0]},{source[1]} to {cell[0]},{cell[1]} {rng.choice(allowed)}"
            if _legal(game, seat, action):
                return action
        return None

    def _develop(self, game: Tronix, seat: int, table: dict[Cell, str], rng: random.Random) -> str:
        mine = game.team_of(seat)
        sample = self._sample(game, seat, table, rng) + proposals(game, seat, table)[:self.samples]
        tried = sorted(((_tried(table, action, mine), rng.random(), action) for action in sample), reverse=True)
        for _, _, action in tried:
            if _legal(game, seat, action):
                return action
        if game.phase == GOD:  # turning a card in place is always allowed, but for the locked one
            source = rng.choice([c for c in table if c != game.locked])
            pattern = rng.choice([p for p in KINDS[game.table[source].kind] if p != table[source]])
            return f"turn {source[0]},{source[1]} {pattern}"
        return rng.choice(game.legal_actions(seat))

    def _sample(self, game: Tronix, seat: int, table: dict[Cell, str], rng: random.Random) -> list[str]:
        """A few actions, most of them legal, drawn at random."""
        cells = list(table)
        if game.phase != GOD:
            kinds = sorted(set(game.seats[seat].hand))
            if not cells:
                return [f"play {kinds[0]} 0,0 {KINDS[kinds[0]][0]}"]
            found = []
            for _ in range(self.samples):
                x, y = rng.choice(cells)
                nx, ny = rng.choice(neighbours((x, y)))
                if (nx, ny) in table:
                    continue
                kind = rng.choice(kinds)
                found.append(f"play {kind} {nx},{ny} {rng.choice(KINDS[kind])}")
            return found
        found = []
        for _ in range(self.samples):
            source = rng.choice(cells)
            if source == game.locked:
                continue
            patterns = KINDS[game.table[source].kind]
            if rng.random() < 0.3:
                pattern = rng.choice(patterns)
                if pattern != table[source]:
                    found.append(f"turn {source[0]},{source[1]} {pattern}")
                continue
            x, y = rng.choice(cells)
            target = rng.choice(neighbours((x, y)))
            if target not in table and (x, y) != source:
                found.append(f"move {source[0]},{source[1]} to {target[0]},{target[1]} {rng.choice(patterns)}")
        return found


def _tried(table: dict[Cell, str], action: str, colour: str) -> float:
    """`_local` of `action`, tried on the patterns and undone."""
    after, landed, _ = _patterns_after(table, action)
    return _local(after, landed, colour)


def _legal(game: Tronix, seat: int, action: str) -> bool:
    try:
        game.parse(seat, action)
    except GameError:
        return False
    return True


ROLLOUT = Rollout()


def leaf_value(game: Game, seat: int) -> float:
    """What the shared `margin` misses where a simulation stops: a seat's score is its team's,
    so against team-mates its margin is never above 0 (the team's lead is counted here instead);
    and the circuits one card could close: the side about to act takes its best, the other
    side's chances count a little."""
    assert isinstance(game, Tronix)
    mine = game.team_of(seat)
    theirs = _other(mine)
    lead = game.piles[mine] - game.piles[theirs]
    value = lead - margin(game, seat)
    if game.outcome() is not None:
        return value
    waiting = game.to_move()
    open_lines = threats(game.patterns())
    ours = [t.worth(mine) for t in open_lines if t.worth(mine) > 0]
    others = [t.worth(theirs) for t in open_lines if t.worth(theirs) > 0]
    if waiting and game.team_of(waiting[0]) == mine:
        value += 0.8 * max(ours, default=0) + 0.2 * sum(ours) - 0.2 * sum(others)
    else:
        value -= 0.8 * max(others, default=0) + 0.2 * sum(others) - 0.2 * sum(ours)
    return value


__all__ = ["Line", "Threat", "TronixHeuristics", "closable", "gain", "leaf_value", "ranked", "threats",
           "tie_break"]


class TronixHeuristics(Heuristics):
    """Tronix for the shared agents: greedy ranks by the functions above; the planning agent's
    simulated games follow `Rollout` and are judged by `leaf_value`."""

    easy_slips = 0.98
    """Random play won 5 of 20 two-player games against easy at 0.98 (none of 30 at 0.97, 12 of 24 at 0.99)."""

    depth = 10
    candidates = 8
    proposed = 5
    """How many of the planning agent's candidates come from `proposals` (after greedy's favourite)."""

    tie_break = staticmethod(tie_break)
    gain = staticmethod(gain)

    def ranked(self, game: Game, seat: int) -> list[str] | None:
        """Greedy's favourite first (all the greedy agent plays); then, for the planning agent
        to weigh, the actions that bring the ends of the team's open lines together; then the
        rest of greedy's order."""
        assert isinstance(game, Tronix)
        order = ranked(game, seat)
        if len(order) <= 1:
            return order
        table = game.patterns()
        extra: list[str] = []
        for action in proposals(game, seat, table):
            if len(extra) >= self.proposed:
                break
            if _legal(game, seat, action):
                canonical = game.parse(seat, action)
                if canonical != order[0] and canonical not in extra:
                    extra.append(canonical)
        chosen = set(extra)
        return [order[0], *extra, *(action for action in order[1:] if action not in chosen)]

    listed_rollouts = False
    """The rollout writes its actions its own way (`play cx 0,0 NE`), which `apply` reads."""

    def rollout(self, game: Game, seat: int, rng: random.Random) -> str:
        assert isinstance(game, Tronix)
        return ROLLOUT.choose(game, seat, rng)

    def leaf_value(self, game: Game, seat: int) -> float:
        return leaf_value(game, seat)
