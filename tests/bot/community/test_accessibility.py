"""Text-first play: a player who chose it is sent, privately with each turn of theirs, the board
in words as they see it and their legal moves grouped, in the table's language; nobody else gets
them, the public announcement never holds a hand, and AI seats get nothing."""

from __future__ import annotations

from bot.core.clock import ManualClock
from engine.tronimoes.board import tile_name
from tests.bot.referees import ALICE, BOB, PLACE, running_referee
from tests.bot.screen_reader_player import moves_of_group

MOVES = "Your moves:"


async def test_a_turn_brings_the_board_in_words_and_the_moves_to_who_chose_it_alone(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_text_play(ALICE.id, True)
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
        reply = await referee.start(PLACE, ALICE)
        for _ in range(12):
            table, game = await referee.view(PLACE)  # type: ignore[misc]
            alice = table.seat_of(ALICE.id)
            told = reply.private.get(alice)
            if alice in game.to_move():
                assert told is not None and MOVES in told.text and "Tronimoes board." in told.text
                hand = game.view(alice)["hand"]
                assert "Your hand: " + "; ".join(tile_name(t) if not isinstance(t, str) else t for t in hand) \
                    in told.text
                move = moves_of_group(told.text.split(MOVES)[1].strip().splitlines()[0])[0]
            else:
                assert told is None or MOVES not in told.text
                move = game.legal_actions(game.to_move()[0])[0]
            bob_told = reply.private.get(1 - alice)
            assert bob_told is None or MOVES not in bob_told.text  # bob did not choose it
            assert reply.public is not None and "Your hand" not in reply.public.text
            mover = ALICE if alice in game.to_move() else BOB
            reply = await referee.act(PLACE, mover, move)
            assert reply.ok, (move, reply.caller.text if reply.caller else "")


async def test_a_spanish_table_says_the_turn_in_spanish_with_spanish_notation(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_text_play(ALICE.id, True)
        await referee.create(PLACE, ALICE, "tronimoes", options="lang=es")
        await referee.join(PLACE, BOB)
        reply = await referee.start(PLACE, ALICE)
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        alice = table.seat_of(ALICE.id)
        if alice not in game.to_move():
            reply = await referee.act(PLACE, BOB, "robar")
        told = reply.private[alice].text
        assert "Tus jugadas:" in told and "otras jugadas: robar" in told and "Your moves" not in told


async def test_an_ai_seat_is_never_sent_its_turn_in_words(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.create(PLACE, ALICE, "tromino_go")
        await referee.add_ai(PLACE, ALICE, "easy")
        await referee.store.standings.set_text_play(ALICE.id, True)
        reply = await referee.start(PLACE, ALICE)
        table, _game = await referee.view(PLACE)  # type: ignore[misc]
        ai = next(seat for seat, s in enumerate(table.seats) if s.is_ai)
        assert ai not in reply.private
