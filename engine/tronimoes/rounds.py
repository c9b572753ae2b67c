"""Tronimoes rounds and their scoring (rules §2, §4): the order seats move in, how a round is
dealt and its leader elected, how it ends (+2 to its winner) and how the game ends after the 0:0
round. Every function works on a game through the `Table` protocol."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import N_, Event, Outcome, Term, event, join_names, phrase
from engine.tronimoes.board import HAND_SIZE, Tile
from engine.tronimoes.lines import mark_dead
from engine.tronimoes.state import BETWEEN_ROUNDS, LEADER, OVER, PLAYING, Line, Placed, Table


def active_seats(table: Table) -> list[int]:
    """The seats still in the game."""
    return [i for i, s in enumerate(table.seats) if not s.resigned]


def next_seat(table: Table, seat: int) -> int:
    """The next seat after `seat` still in the game (`seat` itself when it is the only one)."""
    for step in range(1, table.players + 1):
        candidate = (seat + step) % table.players
        if not table.seats[candidate].resigned:
            return candidate
    return seat


def waiting_seats(table: Table) -> tuple[int, ...]:
    """Between rounds: the seats still in the game that are not ready yet."""
    return tuple(i for i, s in enumerate(table.seats) if not s.ready and not s.resigned)


def advance(table: Table) -> None:
    """The turn passes to the next seat still in the game."""
    table.seats[table.turn].drew = False
    table.turns += 1
    table.turn = next_seat(table, table.turn)
    table.seats[table.turn].drew = False


def outcome(table: Table) -> Outcome | None:
    """The result once the game is over: the highest total among the seats still in it wins."""
    if table.phase != OVER:
        return None
    scores = tuple(float(s.score) for s in table.seats)
    candidates = [i for i, s in enumerate(table.seats) if not s.resigned]
    if not candidates:
        return Outcome(scores, (), table.end_reason)
    best = max(table.seats[i].score for i in candidates)
    winners = tuple(i for i in candidates if table.seats[i].score == best)
    return Outcome(scores, winners, table.end_reason)


def end_round(table: Table, winner: int | None, how: Term) -> list[Event]:
    """Close the round: +2 to the winner, everyone else's line dies without penalty."""
    if winner is not None:
        table.seats[winner].score += 2
    for seat, s in enumerate(table.seats):
        if seat != winner and not s.dead:
            mark_dead(table, seat)
    table.spacer = None
    deltas = [s.score - s.round_start_score for s in table.seats]
    totals = [s.score for s in table.seats]
    leader = table.leaders[-1]
    template = (N_("Round {round} (led by {leader}:{leader}) is over: {how} (+2 {player}). Totals: {totals}.")
                if winner is not None else
                N_("Round {round} (led by {leader}:{leader}) is over: {how}; nobody wins the round. Totals: {totals}."))
    table.round_result = {"round": table.round, "leader": leader, "winner": winner, "how": how,
                          "deltas": deltas, "totals": totals}
    events = [event("round_end", template, tuple(range(table.players)), {**table.round_result, "reaction": "victory"},
                    round=table.round, leader=leader, how=how,
                    player=table.names[winner] if winner is not None else "",
                    totals=", ".join(f"{n} {t}" for n, t in zip(table.names, totals, strict=True)))]
    if leader == 0:
        events += end_game(table, Term(N_("the 0:0 round is over")))
    else:
        table.phase = BETWEEN_ROUNDS
        for s in table.seats:
            s.ready = s.resigned
        events.append(event("between_rounds", N_("Type `ready` when you want the next round to start."),
                            waiting_seats(table)))
    return events


def end_game(table: Table, reason: Term) -> list[Event]:
    """The game is over for `reason`; the event names the winners."""
    table.phase = OVER
    table.end_reason = reason
    result = outcome(table)
    assert result is not None
    if not result.winners:
        return [event("game_end", N_("Game over: {reason}."), (), result.to_json(), reason=reason)]
    template = (N_("Game over ({reason}): {players} wins with {score}.") if len(result.winners) == 1
                else N_("Game over ({reason}): {players} share the win with {score}."))
    return [event("game_end", template, result.winners, result.to_json(), reason=reason,
                  players=join_names([table.names[w] for w in result.winners]),
                  score=table.seats[result.winners[0]].score)]


def start_round(table: Table, deck: list[Tile]) -> list[Event]:
    """Deal `deck` in its order and elect the round leader (§2).

    The leader is the highest double below the previous round's leader held by anyone, in seat
    order; while nobody holds one, everyone draws a tile and the search starts again. If the
    bag runs out during those draws the round cannot start and the game ends."""
    previous = table.leaders[-1] if table.leaders else table.max_pips + 1
    active = active_seats(table)
    hands: dict[int, list[Tile]] = {}
    for index, seat in enumerate(active):
        hands[seat] = deck[index * HAND_SIZE:(index + 1) * HAND_SIZE]
    bag = deck[len(active) * HAND_SIZE:]
    number = table.round + 1
    draws = 0
    while (found := find_leader(hands, active, previous)) is None:
        for seat in active:
            if not bag:
                return end_game(table, phrase(N_("round {round} could not start: the bag ran out while everyone "
                                                 "drew for a leader"), round=number))
            hands[seat].append(bag.pop(0))
        draws += 1
    holder, value = found
    hands[holder].remove((value, value))

    table.board, table.occupied = [], bytearray(table.grid.size)
    table.lines = {seat: Line(seat) for seat in range(table.players)}
    table.free_lines = 0
    table.spacer, table.passes, table.last, table.round_result = None, 0, None, None
    for seat, s in enumerate(table.seats):
        s.hand = hands.get(seat, [])
        s.dead, s.footed, s.foot, s.drew, s.kills = s.resigned, False, None, False, 0
        s.ready, s.round_start_score = True, s.score
        table.lines[seat].dead = s.resigned
    table.bag = bag
    table.round = number
    table.turns += 1
    table.board.append(Placed((value, value), table.grid.leader_squares, LEADER, None))
    for square in table.grid.leader_squares:
        table.occupied[square] = 1
    table.leaders.append(value)
    table.highest_leader = value
    table.phase = PLAYING
    table.turn = next_seat(table, holder)
    if not draws:
        template = N_("Round {round}: {leader} leads with {tile}; {player} moves first.")
    elif draws == 1:
        template = N_("Round {round}: {leader} leads with {tile} after everyone drew {count} tile; "
                      "{player} moves first.")
    else:
        template = N_("Round {round}: {leader} leads with {tile} after everyone drew {count} tiles; "
                      "{player} moves first.")
    return [event("round_start", template, (holder,), {"round": number, "leader": value, "holder": holder,
                                                      "draws": draws},
                  round=number, leader=table.names[holder], tile=f"{value}:{value}", count=draws,
                  player=table.names[table.turn])]


def find_leader(hands: Mapping[int, list[Tile]], seats: list[int], previous: int) -> tuple[int, int] | None:
    """The first seat, in seat order, holding the highest double below `previous`."""
    for value in range(previous - 1, -1, -1):
        for seat in seats:
            if (value, value) in hands[seat]:
                return seat, value
    return None
