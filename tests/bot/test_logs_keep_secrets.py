"""No log line holds a hand, a bag, a seed or a token: a short game of every game is played
through the real referee (a person against an AI seat, a moderator's rollback, a turn that times
out, the private hand asked for, the watch link given, a resignation) with every logger at DEBUG
and the JSON format on, as `tileref` configures them, and the logs are searched for each.

What is searched, per game (a sound search needs strings that cannot occur by chance):
- Tronimoes and Triominoes: every tile that was ever in a hand or the bag (pool), at any ply of
  the game as replayed from its log, in each way it can be written (`3:5` and `5:3`; `1-2-4` and
  its rotations and mirror images), as a whole token (not inside a longer number such as a time).
  Tiles once hidden and later played are searched too: the logs name no move at all.
- Tetromic: its hidden pieces are single letters (T, L, …), which cannot be told from words, so
  only the seeds and the token are searched; Tromino Go has no hidden pieces; Tronix deals every
  card and all its cards look alike (`cx`): nothing there to search for either.
- Every game: the table's seed and each chance entry's seed (a rollback reshuffles with a fresh
  one), large numbers so that they cannot occur by chance, and the table's watch-page token."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from bot.core.clock import ManualClock
from bot.media.watching import WATCH
from bot.service.referee import Referee
from bot.storage.loader import new_game, replay
from engine import GAMES
from tests.bot.referees import ALICE, MOD, PLACE, running_referee, text

SEED = 918_273_645  # games are seeded SEED, SEED + 1, …: numbers no log line holds by chance
MOVES = 8  # the person's moves before the rollback, and again after it
HIDDEN_KEYS = ("hand", "bag", "pool")


@pytest.fixture
def json_logs(configured_logs):
    """Every logger at DEBUG, in JSON, into a buffer (as `tileref` sets them up); put back after."""
    return configured_logs("json")


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_log_line_holds_a_hidden_piece_a_seed_or_a_token(tmp_path, json_logs, game):
    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock, seed=SEED) as referee:
        referee.public_url = "https://watch.example"
        assert (await referee.create(PLACE, ALICE, game, turn_time="5m")).ok
        assert (await referee.add_ai(PLACE, ALICE, "greedy")).ok
        assert (await referee.start(PLACE, ALICE)).ok
        assert (await referee.watch(PLACE, ALICE)).ok
        await play(referee, MOVES)
        await referee.hand(PLACE, ALICE)
        table = await referee.table_at(PLACE)
        length = len(await referee.store.actions(table.id))
        reply = await referee.rollback(PLACE, MOD, max(1, length - 3), reopen=table.status != "playing")
        assert reply.ok, text(reply)
        await play(referee, MOVES)
        await clock.advance(6 * 60)  # the person's turn times out: a clock duty acts for them
        await referee.timers.idle()
        await referee.ai.idle()
        if (await referee.table_at(PLACE)).status == "playing":
            assert (await referee.resign(PLACE, ALICE)).ok
        await referee.ai.idle()
        table = await referee.table_at(PLACE)
        actions = await referee.store.actions(table.id)
    lines = json_logs.getvalue().splitlines()
    records = [json.loads(line) for line in lines]
    assert any(r["logger"] == "bot.commands" and r["table"] == table.id for r in records), lines[:20]

    secrets = {str(table.seed), table.meta[WATCH]}
    secrets |= {a.action.split()[1] for a in actions if a.chance}
    assert len(secrets) >= 3, secrets  # the seed, the token and the rollback's chance seed
    written = "\n".join(lines)
    for secret in secrets:
        assert secret not in written, secret
    hidden = hidden_pieces(table, actions)
    if game in ("tronimoes", "triominoes"):
        assert len(hidden) > 20, hidden
    for piece in hidden:
        found = re.search(rf"(?<![\w:\-]){re.escape(piece)}(?![\w:\-])", written)
        assert found is None, (piece, written[max(0, found.start() - 300):found.end() + 300])


async def play(referee: Referee, moves: int) -> None:
    """The person makes `moves` moves (the first legal one that does not give up), waiting for
    the AI seat when it is the only one to move."""
    made = 0
    for _step in range(10 * moves):
        if made >= moves:
            return
        view = await referee.view(PLACE)
        assert view is not None
        table, game = view
        if table.status != "playing":
            return
        waiting = game.to_move()
        mine = [s for s in waiting if table.seats[s].user_id == ALICE.id]
        if not mine:
            await referee.ai.idle()
            continue
        legal = [a for a in game.legal_actions(mine[0]) if not a.startswith(("concede", "resign", "forfeit"))]
        assert legal, game.legal_actions(mine[0])
        assert (await referee.act(PLACE, ALICE, legal[-1])).ok
        made += 1


def hidden_pieces(table, actions) -> set[str]:
    """Every way of writing every piece that was in a hand or the bag at some ply of the game
    (replayed from its log), for the games whose pieces are distinguishable strings: Tronimoes'
    `a:b` tiles and Triominoes' `a-b-c` tiles; none for the others (see the module's docstring)."""
    if table.game not in ("tronimoes", "triominoes"):
        return set()
    seen: set[str] = set()
    for ply in range(len(actions) + 1):
        game = new_game(table)
        replay(game, actions[:ply])
        position = game.to_position()
        for seat in position["seats"]:
            seen.update(seat.get("hand", []))
        for key in HIDDEN_KEYS:
            if isinstance(position.get(key), list):
                seen.update(position[key])
    written: set[str] = set()
    for piece in seen:
        separator = ":" if ":" in piece else "-"
        numbers = piece.split(separator)
        written |= {separator.join(order) for order in itertools.permutations(numbers)}
    return written
