"""A Tromino Go round through Discord, from `/tileref new` to the end of the round: every play
sent with `/move`, the board drawn each time, the round's end announced with the TGpoints."""

from __future__ import annotations

from engine.ai import GreedyAgent
from tests.bot.adapters.discordbot.harness import Harness, confirmed


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


async def test_a_refusal_names_the_trominoes_in_the_case_the_board_shows(tileref: Harness) -> None:
    """The round's first player plays capitals, the other lower case (rules §1.1): a refusal that
    begins with the mover's letter keeps its case (`b`, not "B must touch A")."""
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    game = await tileref.game(thread)
    first = (s.alice, s.bob)[game.to_move()[0]]
    second = s.bob if first is s.alice else s.alice
    await (await s.slash(first, thread, "move", text="play SW")).replies(1)
    refused = await (await s.slash(second, thread, "move", text="play 2,0 NW")).reply()
    assert refused.ephemeral
    assert refused.content == "`b` must touch `A` along 2 units of edge; 2,0 NW touches it along 1."


async def test_typed_pass_and_slash_pass_say_the_same(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    mover = (s.alice, s.bob)[(await tileref.game(thread)).to_move()[0]]
    slashed = await (await s.slash(mover, thread, "pass")).reply()
    assert slashed.ephemeral
    mark = s.mark()
    typed = await s.say(mover, thread, "pass")
    answer = await typed.reply()
    assert answer.content == "That move was refused; I sent you the reason privately."
    reason = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    assert reason.content.endswith(f"was refused: {slashed.content}")
    assert slashed.content.startswith("You never pass yourself: when nothing is legal the referee passes for you.")
    assert len((await tileref.game(thread)).log) == 0


async def test_a_resignation_says_who_left(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    _preview, final = await confirmed(s, s.bob, thread, "resign")
    assert "🚪 bob leaves the game." in final.content and "🏆 alice wins!" in final.content
