"""A Triominoes round through Discord, from `/tileref new` to the end of the round: plays sent
with `/move` and typed in the thread (a tile and a spot number, as read off the picture), the
suggestions filtered by what was typed, draws and passes made by the referee when nothing fits,
`/hand` private, a refused draw explained privately, the round's payout announced; suggestions
show each tile as it is in the hand, then turned as the placement needs."""

from __future__ import annotations

from engine.ai import GreedyAgent
from engine.triominoes import Triominoes
from tests.bot.adapters.discordbot.harness import Harness


async def test_a_triominoes_round_from_new_to_its_end(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob, game="triominoes")
    assert "Triominoes begins" in opening.content and "Round 1" in opening.content and opening.png_images()
    users = (s.alice, s.bob)
    agent = GreedyAgent()
    ended = None
    typed = refused = False
    for step in range(120):
        game = await tileref.game(thread)
        assert isinstance(game, Triominoes)
        if game.round > 1 or game.outcome() is not None:
            break
        seat = game.to_move()[0]
        user = users[seat]
        action = agent.choose(game, seat)
        if not refused and action not in ("draw", "pass") and game.board.cells:
            refused = True  # a tile fits, so /draw is refused, privately, and nothing changes
            answer = await (await s.slash(user, thread, "draw")).reply()
            assert answer.ephemeral and "may not draw" in answer.content
            hand = await (await s.slash(user, thread, "hand")).reply()
            assert hand.ephemeral and hand.png_images() and "Your hand" in hand.content
            tile = action.split()[0]
            choices = await s.autocomplete(user, thread, "move", text="".join(sorted(tile.replace("-", ""))))
            assert 0 < len(choices) <= 25 and all(sorted(c["value"].split()[0]) == sorted(tile) for c in choices)
            held = set(game.view(seat)["hand"])  # shown as in the hand, turned as the placement needs
            assert all(c["name"] == game.describe_action(seat, c["value"]) for c in choices)
            assert all(c["name"].split()[0] in held for c in choices)
        cell = action.split()[1] if " " in action else None
        spots = game.view(None)["spots"]
        if not typed and cell in spots and step > 0:
            typed = True
            numbers = "".join(sorted(action.split()[0].replace("-", "")))
            said = await s.say(user, thread, f"{numbers} at {spots.index(cell) + 1}")
            answers = [await said.reply()]
        else:
            answers = await (await s.slash(user, thread, "move", text=action)).replies(1)
        public = next(m for m in answers if not m.ephemeral)
        assert public.png_images(), public.content
        if "wins round 1" in public.content or "Round 1 is blocked" in public.content:
            ended = public
    assert typed and refused
    game = await tileref.game(thread)
    assert game.round == 2 and ended is not None
    assert "Totals:" in ended.content and "Round 2:" in ended.content
    s.assert_clean()
