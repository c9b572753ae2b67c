"""A whole Tronix table in Spanish through Discord: a Spanish client opens it, two players
place and then move cards in God Mode, typing Spanish notation, to the end of the game; every
message the bot posts in the thread is in Spanish (the lobby, the turns, the game's events, a
refusal, the result), and the picture comes with each move."""

from __future__ import annotations

import re

from engine.ai import GreedyAgent
from engine.tronix import Tronix
from tests.bot.adapters.discordbot.harness import Harness

ENGLISH = re.compile(r"\b(places a card|moves the card|turns the card|Circuit!|God Mode begins|It's|turn\b|"
                     r"wins|draw\b|The game is over|is not next|Final scores|players)", re.IGNORECASE)


def in_spanish(action: str) -> str:
    """A canonical action as a Spanish player types it (`mover 1,0 a 2,1 SO`)."""
    words = action.replace("play ", "poner ").replace("move ", "mover ").replace(" to ", " a ").replace(
        "turn ", "girar ").split()
    words[-1] = words[-1].replace("W", "O")
    return " ".join(words)


async def test_a_spanish_tronix_table_from_new_to_the_final_result(tileref: Harness) -> None:
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronix", locale="es-ES",
                                     options="deck_size=8 quiet_limit=6")).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Unirse")).reply()
    assert "verde" in lobby.content and "rosa" in lobby.content  # the teams, by colour
    answers = await (await s.click(s.alice, lobby, label="Empezar")).replies(2)
    opening = next(m for m in answers if m.id != lobby.id)
    assert "Empieza Tronix" in opening.content and "coloca la primera carta en 0,0" in opening.content
    users = (s.alice, s.bob)
    refused = await (await s.slash(s.alice, thread, "move", text="poner 3,3 NE")).reply()
    assert refused.ephemeral and "La mesa está vacía: la carta va en 0,0" in refused.content
    agent = GreedyAgent()
    for _ in range(60):
        game = await tileref.game(thread)
        assert isinstance(game, Tronix)
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        answers = await (await s.slash(users[seat], thread, "move",
                                       text=in_spanish(agent.choose(game, seat)))).replies(1)
        public = next(m for m in answers if not m.ephemeral)
        assert public.png_images(), public.content
    game = await tileref.game(thread)
    assert game.outcome() is not None
    said = [m.content for m in s.messages if m.channel_id == thread.id and m.author_id == s.bot_user.id]
    assert any("Modo Dios" in text for text in said)
    assert any("Puntuación final" in text for text in said)
    english = [text for text in said if ENGLISH.search(text)]
    assert not english, english
    s.assert_clean()
