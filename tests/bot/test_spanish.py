"""A Spanish table of every game, played in the terminal: everything the bot says is Spanish
(events, refusals, help, rules, hints, the hand, the board, the history, the end of the game)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys

import pytest

from bot.adapters.console import ConsoleSession, local_user
from bot.core.clock import ManualClock
from bot.core.i18n import speaking
from bot.service.lobby import BOT_NAMES
from engine import GAMES
from tests.bot.referees import ALICE, BOB, MOD, PLACE, running_referee, text
from tests.bot.spanish import english_in

NAMES = ["Ana", *(f"{n} (bot)" for n in BOT_NAMES)]
PLAYERS = {"tronimoes": ["me", "bot", "greedy"], "tromino_go": ["me", "bot"], "triominoes": ["me", "bot"],
           "tronix": ["me", "bot"], "tetromic": ["me", "bot"]}
MOVES = 12


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_spanish_console_table_says_nothing_in_english(tmp_path, game):
    out: list[str] = []
    script = ["ayuda", "reglas", "pistas", "mano", "tablero", "historial", "banana", "pistas po"]
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        user = local_user("Ana")
        moves = 0

        async def ask(prompt: str) -> str | None:
            nonlocal moves
            if script:
                return script.pop(0)
            hints = await referee.suggestions(place, user, "", limit=100)
            if hints and moves < MOVES:
                moves += 1
                return hints[-1] if game == "tromino_go" else hints[0]
            if moves >= MOVES and "rendirse" not in asked:
                asked.append("rendirse")
                return "rendirse"
            if asked[-1] == "rendirse":
                asked.append("sí")
                return "sí"
            moves += 1
            return "salir" if moves > 3 * MOVES else (hints[0] if hints else "tablero")

        asked: list[str] = [""]
        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game(game, PLAYERS[game], "lang=es")
        assert place is not None
        await session.play(place)
    printed = "\n".join(out)
    english = english_in(printed, NAMES)
    assert not english, "\n".join(english)
    assert "La partida ha terminado" in printed or "Fin de la partida" in printed or "gana" in printed


# ---- levels, moderators, nouns and numbers at a Spanish table --------------------------------------------


async def test_a_spanish_lobby_names_bot_levels_in_spanish_and_reads_them_typed_either_way(tmp_path):
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, "tronimoes", options="lang=es, ai_level=difícil")).ok
        seated = text(await referee.add_ai(PLACE, ALICE))
        assert "(IA difícil) se sienta" in seated, seated
        for typed, said in (("fácil", "fácil"), ("Facil", "fácil"), ("easy", "fácil"), ("al azar", "al azar")):
            reply = await referee.add_ai(PLACE, ALICE, typed)
            assert f"(IA {said}) se sienta" in text(reply), text(reply)
        table = await referee.table_at(PLACE)
        assert [s.agent for s in table.seats[1:]] == ["hard", "easy", "easy", "easy", "random"]
        refused = text(await referee.add_ai(PLACE, ALICE, "banana"))
        assert "elige entre fácil, normal, difícil (o voraz, al azar)" in refused, refused
        assert not english_in(refused.replace("banana", ""), NAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_moderators_forced_pass_at_a_spanish_table_names_the_moves_as_the_history_does(tmp_path, game):
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, game, options="lang=es")).ok
        assert (await referee.join(PLACE, BOB)).ok
        assert (await referee.start(PLACE, ALICE)).ok
        table = await referee.table_at(PLACE)
        before = len(await referee.store.actions(table.id))
        forced = text(await referee.force_pass(PLACE, MOD))
        actions = [a.action for a in (await referee.store.actions(table.id))[before:]]
        history = text(await referee.history(PLACE))
    assert actions, forced
    for action in actions:  # Tronimoes' `robar` and `pasar d4`, Tronix's `poner 0,0 NE`, Tetromic's `saltar`…
        spoken = GAMES[game].spoken(action, "es")
        assert f"`{spoken}`" in forced and f"`{spoken}`" in history, (forced, history)
        if spoken != action:
            assert f"`{action}`" not in forced, forced
    assert not english_in(forced, [*NAMES, "mod", "alice", "bob", GAMES[game].title]), forced


async def test_a_tronix_table_calls_its_cards_cards_in_the_history_and_on_its_page(tmp_path):
    from bot.adapters.web.pages import page
    from bot.media.spectator import Timeline

    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        assert (await referee.create(PLACE, ALICE, "tronix", options="lang=es")).ok
        assert (await referee.join(PLACE, BOB)).ok
        assert (await referee.start(PLACE, ALICE)).ok
        for _move in range(3):
            table, game = await referee.view(PLACE)
            seat = game.to_move()[0]
            user = ALICE if table.seats[seat].user_id == ALICE.id else BOB
            assert (await referee.act(PLACE, user, game.legal_actions(seat)[0])).ok
        assert (await referee.rollback(PLACE, MOD, 2)).ok
        history = text(await referee.history(PLACE))
        table = await referee.table_at(PLACE)
        html = page(Timeline(table, await referee.store.actions(table.id)).spectacle(), "token", "es")
    assert "⏪ la partida se hizo retroceder hasta aquí" in history, history  # every card is dealt: none shuffled
    assert "ficha" not in history.lower()
    assert "ficha" not in html.lower() and "⏪ la partida se hizo retroceder hasta aquí" in html
    assert re.search(r"<td>\d+ cartas?</td>", html), html
    assert "<code>poner " in html and "<code>play " not in html  # the moves in the table's notation


async def test_numbers_agree_with_their_nouns_at_a_spanish_table(tmp_path):
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        one = text(await referee.create("test:one", ALICE, "tromino_go", options="lang=es"))
        two = text(await referee.create("test:two", ALICE, "tromino_go", options="lang=es", seat_creator=False))
        early = text(await referee.start("test:one", ALICE))
    assert "(falta al menos 1 jugador)" in one, one
    assert "(faltan al menos 2 jugadores)" in two, two
    assert "necesita al menos 2 jugadores; hay 1 sentado" in early, early


def test_a_tronix_circuit_with_one_shared_card_says_it_in_the_singular():
    from bot.words import narration
    from tests.engine.test_tronix import at

    game = at([(1, 1, "EW"), (2, 1, "NW"), (2, 0, "SW"), (1, 0, "SE"), (0, 2, "NE"), (1, 2, "NW")])
    events = game.apply(0, "play 0,1 SE")
    with speaking("es"):
        spanish = narration.what_happened(events)
    assert "1 compartida se queda en la mesa" in spanish, spanish
    assert "1 shared card stays on the table" in narration.what_happened(events)


def test_a_taken_web_port_is_said_in_the_tables_language(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**{k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
               "TILEREF_DATABASE": str(tmp_path / "cli.sqlite3"), "TILEREF_WEB": f"127.0.0.1:{port}"}
        result = subprocess.run([sys.executable, "-m", "bot", "play", "tronimoes", "--players", "me,bot", "--lang",
                                 "es", "--ai-seconds", "0"], input="salir\n", capture_output=True, text=True,
                                env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (f"La página web no pudo escuchar en 127.0.0.1:{port} (otro programa está usando ese puerto); pon en "
            "TILEREF_WEB otro host:puerto, u off. La partida sigue sin ella.") in result.stderr, result.stderr
    assert not english_in(result.stderr, NAMES), result.stderr


async def test_a_spanish_tables_ratings_name_the_bots_by_their_spanish_level(tmp_path):
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, "tromino_go", options="lang=es")).ok
        assert (await referee.add_ai(PLACE, ALICE, "easy")).ok
        assert (await referee.start(PLACE, ALICE)).ok
        await referee.ai.idle()
        ended = text(await referee.resign(PLACE, ALICE))
    assert "📈 Puntuaciones:" in ended and "IA (fácil)" in ended and "AI (easy)" not in ended, ended
