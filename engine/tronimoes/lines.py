"""Tronimoes lines and their ends (rules §3, §4): the tile that ends a line, the order a seat's
lines are tried in, what each line is called, and how a line dies (cut off, ouroboros) and who
scores for it. Every function works on a game through the `Table` protocol."""

from __future__ import annotations

import re

from engine.core import N_, Event, IllegalMove, Term, event, phrase, quoted, refuse
from engine.digits import whole_number
from engine.tronimoes.state import LEADER, Line, LineKey, Placed, Table, free_line_key


def head(table: Table, line: Line) -> Placed:
    """The last tile of a line; a player line with no tiles yet ends at the round leader."""
    return table.board[line.tiles[-1]] if line.tiles else table.board[0]


def lines_in_priority(table: Table, seat: int) -> list[Line]:
    """Own line, then other players' lines in seat order, then free lines in order."""
    others = [table.lines[s] for s in range(table.players) if s != seat]
    free = [table.lines[free_line_key(n)] for n in range(1, table.free_lines + 1)]
    return [table.lines[seat], *others, *free]


def line_label(table: Table, key: LineKey, viewer: int | None = None) -> Term:
    """A line named for the player `viewer`: "your line", "bob's line", "free line 2" (said in
    the table's language)."""
    if isinstance(key, str):
        return phrase(N_("free line {number}"), number=key[4:]) if key != LEADER else Term(N_("the round leader"))
    if key == viewer:
        return Term(N_("your line"))
    return phrase(N_("{player}'s line"), player=table.names[key])


def line_token(table: Table, key: LineKey | None) -> str:
    """How a line is named after `on` in notation: a player's name token, or freeN."""
    if key is None or isinstance(key, str):
        return str(key)
    return table.line_tokens[key]


RESERVED_TOKENS = {"me", "mine", "own", "leader", "draw", "pass", "spacer", "ready", "on", "free"}


def seat_tokens(names: list[str]) -> list[str]:
    """A one-word, unique, lower-case name per seat for `on <line>`; `p<n>` when a name gives none."""
    tokens: list[str] = []
    for index, name in enumerate(names):
        token = re.sub(r"[^a-z0-9_]", "", name.lower())
        if (not token or token in RESERVED_TOKENS or token in tokens
                or re.fullmatch(r"free[0-9]*|f[0-9]+|p[0-9]+|seat[0-9]+|player[0-9]+|[a-z][0-9]{1,2}|[0-9]+", token)):
            token = f"p{index + 1}"
        tokens.append(token)
    return tokens


def resolve_line(table: Table, seat: int, text: str) -> LineKey | None:
    """The line `text` (after `on`) names for `seat`; IllegalMove lists the lines there are when
    it names none, or more than one."""
    wanted = re.sub(r"\s+", " ", text.strip().lower())
    compact = wanted.replace(" ", "")
    if compact in ("me", "mine", "own", "myline", "myown", "yours", "mía", "mia", "mi", "milínea", "milinea"):
        return seat
    free = re.fullmatch(r"(?:free|f|freeline|libre|línealibre|linealibre)([0-9]+)", compact)
    if free:
        number = whole_number(free.group(1)) or 0
        if not 1 <= number <= table.free_lines:
            shown = quoted(free.group(1).lstrip("0") or "0")
            if not table.free_lines:
                raise refuse(IllegalMove, N_("there is no free line {number} yet"), number=shown)
            raise refuse(IllegalMove, N_("there is no free line {number}; free lines so far: {lines}"),
                         number=shown, lines=", ".join(f"free{n}" for n in range(1, table.free_lines + 1)))
        return free_line_key(number)
    for index, (token, name) in enumerate(zip(table.line_tokens, table.names, strict=True)):
        if compact in (token, name.lower().replace(" ", "")) or wanted == name.lower():
            return index
    numbered = re.fullmatch(r"(?:p|seat|player)?([0-9]+)", compact)
    seat_number = whole_number(numbered.group(1)) if numbered else None
    if seat_number is not None and 1 <= seat_number <= table.players:
        return seat_number - 1
    starting = {index for index, (token, name) in enumerate(zip(table.line_tokens, table.names, strict=True))
                if compact and (token.startswith(compact) or name.lower().replace(" ", "").startswith(compact))}
    if len(starting) == 1:
        return starting.pop()
    if len(starting) > 1:
        raise refuse(IllegalMove, N_("'{text}' could be several lines: {lines}; type more of the name"),
                     text=quoted(text), lines=", ".join(table.line_tokens[i] for i in sorted(starting)))
    known = [*table.line_tokens, *(f"free{n}" for n in range(1, table.free_lines + 1))]
    raise refuse(IllegalMove, N_("there is no line called '{text}'; lines here: {lines}"), text=quoted(text),
                 lines=", ".join(known))


def feet(table: Table) -> dict[int, int]:
    """Reserved foot squares of living chicken-footed players whose line has not started,
    each with the seat that reserved it."""
    if "feet" not in table.cache:
        table.cache["feet"] = {
            s.foot: seat for seat, s in enumerate(table.seats)
            if s.foot is not None and s.footed and not s.dead and not table.lines[seat].tiles}
    reserved: dict[int, int] = table.cache["feet"]
    return reserved


# ---- how lines die (§4) ----------------------------------------------------------------


def ouroboros(table: Table, seat: int, line: Line, placed: Placed) -> list[Event]:
    """§4a: the new open end meets a matching open end of a footed line, the mover's own line
    or a free line: those lines die, and the line the tile joined dies with any player line."""
    wanted = placed.next_pips
    ends = placed.open_squares
    adjacent = table.grid.neighbour_sets
    free_hit: list[LineKey] = []
    players_hit: list[LineKey] = []
    for other in table.lines.values():
        if other is line or other.dead:
            continue
        if not other.is_free and other.key != seat and not table.seats[int(other.key)].footed:
            continue
        end = head(table, other)
        if end is placed or end.next_pips != wanted:
            continue
        if any(b in adjacent[a] for a in ends for b in end.open_squares):
            (free_hit if other.is_free else players_hit).append(other.key)
    events = []
    for key in free_hit:
        events += kill_free_line(table, table.lines[key], "ouroboros")
    if players_hit:
        victims = sorted(set(players_hit) | ({line.key} if not line.is_free else set()))
        for victim in victims:
            events += kill(table, int(victim), seat, "ouroboros")
    return events


def is_cut_off(table: Table, line: Line) -> bool:
    """§4b: no open end has an empty domino slot beside it. Pips are ignored."""
    occupied = table.occupied
    neighbours = table.grid.neighbours
    for end in head(table, line).open_squares:
        for near in neighbours[end]:
            if not occupied[near] and any(not occupied[far] for far in neighbours[near]):
                return False
    return True


def cut_offs(table: Table, mover: int) -> list[Event]:
    """Kill every living line that is now cut off: free lines first, then players' lines (the
    mover scores for each other player's line)."""
    events = []
    for number in range(1, table.free_lines + 1):
        line = table.lines[free_line_key(number)]
        if not line.dead and is_cut_off(table, line):
            events += kill_free_line(table, line, "cut off")
    for seat in range(table.players):
        if not table.seats[seat].dead and is_cut_off(table, table.lines[seat]):
            events += kill(table, seat, mover, "cut off")
    return events


def kill(table: Table, victim: int, killer: int, how: str) -> list[Event]:
    """The victim's line dies: +1 to the killer and −1 to the victim, unless they are the same."""
    mark_dead(table, victim)
    name, killer_name = table.names[victim], table.names[killer]
    if victim == killer:
        template = N_("{victim} boxed in their own line: it is dead (net 0).")
    else:
        table.seats[victim].score -= 1
        table.seats[killer].score += 1
        table.seats[killer].kills += 1
        template = (N_("{killer} closed an ouroboros on {victim}'s line: +1 {killer}, −1 {victim}.")
                    if how == "ouroboros" else N_("{killer} cut off {victim}'s line: +1 {killer}, −1 {victim}."))
    return [event("kill", template, (killer, victim), {"killer": killer, "victim": victim, "how": how,
                                                        "reaction": "skull"}, killer=killer_name, victim=name)]


def kill_free_line(table: Table, line: Line, how: str) -> list[Event]:
    """A free line dies; nobody scores."""
    line.dead = True
    for index in line.tiles:
        table.board[index].dead = True
    template = (N_("Free line {number} swallowed its own tail (ouroboros): it is dead, and nobody scores.")
                if how == "ouroboros" else N_("Free line {number} is cut off: it is dead, and nobody scores."))
    return [event("free_line_dead", template, (), {"line": line.key}, number=str(line.key)[4:])]


def mark_dead(table: Table, seat: int) -> None:
    """The seat and its line are dead, and so is every tile on that line."""
    table.seats[seat].dead = True
    line = table.lines[seat]
    line.dead = True
    for index in line.tiles:
        table.board[index].dead = True
