"""Boards in words through Discord: every move's board picture carries the board in words as its
attachment description (what a screen reader says for it), and `/board describe` answers the
caller alone with the whole description, their own hand included and nobody else's."""

from __future__ import annotations

import random

import renderers
from bot.adapters.discordbot.context import user_key
from bot.core.records import User as RefereeUser
from engine.ai import GreedyAgent
from tests.bot.adapters.discordbot.harness import Harness


async def test_each_moves_board_picture_carries_the_board_in_words(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob, game="tronix")
    described = [a["description"] for a in opening.payload["attachments"] if a["filename"].endswith(".png")]
    assert described and described[0] == renderers.describe_within(await tileref.game(thread))
    table = await tileref.table(thread)
    users = {table.seat_of(user_key(u.id)): u for u in (s.alice, s.bob)}
    agent = GreedyAgent()
    for _ in range(6):
        game = await tileref.game(thread)
        seat = game.to_move()[0]
        answers = await (await s.slash(users[seat], thread, "move", text=agent.choose(game, seat))).replies(1)
        public = next(m for m in answers if not m.ephemeral)
        pictures = [a for a in public.payload["attachments"] if a["filename"].endswith(".png")]
        after = await tileref.game(thread)
        assert pictures and pictures[0]["description"] == renderers.describe_within(after)
        assert "Tronix board. " in pictures[0]["description"] and len(pictures[0]["description"]) <= 1024
    s.assert_clean()


async def test_board_describe_answers_privately_with_the_whole_board_and_only_the_callers_hand(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="triominoes")
    table = await tileref.table(thread)
    alice = table.seat_of(user_key(s.alice.id))
    assert alice is not None
    answers = await (await s.slash(s.alice, thread, "board", describe=True)).replies(1)
    assert answers and all(m.ephemeral for m in answers) and not any(m.attachments for m in answers)
    said = "\n".join(m.content for m in answers)
    game = await tileref.game(thread)
    assert said == renderers.describe(game, alice)
    assert "Open spots" in said and "Your hand: " in said
    for tile in game.view(1 - alice)["hand"]:
        assert tile not in said.split("Your hand: ")[1].split("\n")[0]
    spectator = await (await s.slash(s.carol, thread, "board", describe=True)).replies(1)
    assert all(m.ephemeral for m in spectator) and "Your hand" not in "\n".join(m.content for m in spectator)
    s.assert_clean()


async def test_a_description_longer_than_a_message_comes_whole_over_several_private_messages(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tronix")
    rng = random.Random(4)
    while len(renderers.describe(game := await tileref.game(thread))) <= 2000:
        seat = game.to_move()[0]
        user = RefereeUser(f"discord:{(s.alice, s.bob)[seat].id}", ("alice", "bob")[seat])
        assert (await tileref.referee.act(tileref.place(thread), user, rng.choice(game.legal_actions(seat)))).ok
    answers = await (await s.slash(s.bob, thread, "board", describe=True)).replies(2)
    assert len(answers) >= 2 and all(m.ephemeral and len(m.content) <= 2000 for m in answers)
    game, table = await tileref.game(thread), await tileref.table(thread)
    assert "\n".join(m.content for m in answers) == renderers.describe(game, table.seat_of(user_key(s.bob.id)))
