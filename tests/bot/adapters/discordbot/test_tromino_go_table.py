"""A Tromino Go round through Discord, from `/tileref new` to the end of the round: every play
sent with `/move`, the board drawn each time, the round's end announced with the TGpoints."""

from __future__ import annotations

from engine.ai import GreedyAgent
from tests.bot.adapters.discordbot.harness import Harness


async def test_a_tromino_go_round_from_new_to_its_end(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob, game="tromino_go", options="max_moving_turns=6")
    assert "Round 1" in opening.content and "plays first" in opening.content and opening.png_images()
    table = await tileref.table(thread)
    assert table.turn_seconds == 72 * 3600  # the game's own default
    agent = GreedyAgent()
    ended = None
    for _ in range(80):
        game = await tileref.game(thread)
        if game.round > 1 or game.outcome() is not None:
            break
        seat = game.to_move()[0]
        user = (s.alice, s.bob)[seat]
        choices = [a for a in game.legal_actions(seat) if a.split()[0] in ("play", "move")]
        action = agent.choose(game, seat) if choices else "pass"
        action = action if action in choices else choices[0]
        answers = await (await s.slash(user, thread, "move", text=action)).replies(1)
        public = next(m for m in answers if not m.ephemeral)
        assert public.png_images(), public.content
        if "Round 1 goes to" in public.content or "Round 1 is a tie" in public.content:
            ended = public
    game = await tileref.game(thread)
    assert game.round == 2 and ended is not None
    assert "Round 2:" in ended.content
    s.assert_clean()
