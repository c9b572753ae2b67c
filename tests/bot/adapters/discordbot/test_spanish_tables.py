"""A Spanish table of every game through Discord: a Spanish client opens it, the players move
with what autocomplete offers (Spanish notation), ask for help, the rules, the board, the
history, try /draw, /pass and /skip and a move the rules refuse, and one resigns. Nothing the bot
says, in the channel or the thread, publicly or privately, is English."""

from __future__ import annotations

import pytest

from engine import GAMES
from tests.bot.adapters.discordbot.harness import Harness, confirmed
from tests.bot.spanish import english_in

NAMES = ["alice", "bob"]
MOVES = 6


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_spanish_discord_table_says_nothing_in_english(tileref: Harness, game: str) -> None:
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game, locale="es-ES")).reply()
    assert "abre una mesa" in announced.content
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Unirse")).reply()
    await (await s.click(s.alice, lobby, label="Empezar")).replies(2)
    users = (s.alice, s.bob)
    for command in ("help", "rules", "board", "history", "draw", "pass", "skip"):
        await (await s.slash(s.alice, thread, command)).reply()
    await (await s.slash(s.alice, thread, "move", text="banana")).reply()
    for _ in range(MOVES):
        game_now = await tileref.game(thread)
        if game_now.outcome() is not None:
            break
        seat = game_now.to_move()[0]
        offered = await s.autocomplete(users[seat], thread, "move", text="")
        assert offered, "autocomplete offers the legal moves"
        await (await s.slash(users[seat], thread, "move", text=offered[0]["value"])).replies(1)
    await confirmed(s, s.bob, thread, "resign")
    said = [m.content for m in s.messages if m.author_id == s.bot_user.id and m.channel_id in (thread.id, s.channel.id)]
    english = [line for text in said for line in english_in(text, NAMES)]
    assert not english, "\n".join(english)
    assert any("gana" in text or "Puntuación final" in text for text in said)


async def spanish_table(tileref: Harness, game: str, *, start: bool = True):
    """A table of `game` opened by a Spanish client (alice), bob seated; started unless `start` is
    False. Returns the thread and the lobby message (or the opening board if started)."""
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game, locale="es-ES")).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Unirse")).reply()
    if not start:
        return thread, lobby
    answers = await (await s.click(s.alice, lobby, label="Empezar")).replies(2)
    return thread, next(m for m in answers if m.id != lobby.id)


async def test_the_add_bot_buttons_and_the_seat_name_the_level_in_spanish(tileref: Harness) -> None:
    s = tileref.s
    thread, lobby = await spanish_table(tileref, "tronimoes", start=False)
    assert [b.label for b in lobby.buttons()] == ["Unirse", "Salir", "Añadir bot", "Añadir bot: fácil",
                                                 "Añadir bot: difícil", "Empezar"]
    seated = await (await s.click(s.alice, lobby, label="Añadir bot: fácil")).reply()
    assert "(IA fácil) se sienta" in seated.content, seated.content
    assert seated.button("Añadir bot: difícil")
    seated = await (await s.click(s.alice, seated, label="Añadir bot: difícil")).reply()
    assert "(IA difícil) se sienta" in seated.content, seated.content
    assert [seat.agent for seat in (await tileref.table(thread)).seats[2:]] == ["easy", "hard"]


async def test_a_moderators_forced_pass_names_the_moves_in_spanish_notation(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await spanish_table(tileref, "tronimoes")
    forced = await (await s.slash(s.mod, thread, "mod forcepass")).reply()
    assert "forzó un pase de alice (`robar` y `pasar " in forced.content, forced.content
    assert "`draw`" not in forced.content and "`pass " not in forced.content
    history = await (await s.slash(s.alice, thread, "history")).reply()
    assert "`robar`" in history.content and "(por un moderador)" in history.content, history.content


async def test_a_spanish_tronix_table_never_calls_its_cards_tiles(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await spanish_table(tileref, "tronix")
    users = (s.alice, s.bob)
    for _ in range(4):
        seat = (await tileref.game(thread)).to_move()[0]
        offered = await s.autocomplete(users[seat], thread, "move", text="")
        await (await s.slash(users[seat], thread, "move", text=offered[0]["value"])).replies(1)
    preview, _ = await confirmed(s, s.mod, thread, "mod rollback", to=2)
    history = await (await s.slash(s.alice, thread, "history")).reply()
    assert "⏪ la partida se hizo retroceder hasta aquí" in history.content, history.content
    await (await s.slash(s.alice, thread, "hand")).reply()
    said = [m.content for m in s.messages if m.author_id == s.bot_user.id
            and m.channel_id in (thread.id, s.channel.id)]
    assert preview.content.startswith("¿Volver a la jugada 2?") and "poner " in preview.content
    assert not [text for text in said if "ficha" in text.lower()], [t for t in said if "ficha" in t.lower()]
    described = [a.get("description") or "" for a in opening.payload["attachments"]]
    assert len(described) == 1 and described[0].startswith("Tablero de Tronix. "), opening.payload
    assert "cartas en la mano" in described[0] and "ficha" not in described[0].lower(), described
