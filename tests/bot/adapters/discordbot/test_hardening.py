"""What players and moderators found: names shown as typed, long input not echoed back, private
things kept private, the lobby kept up to date, history pages, hands on and off turn."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.core.records import User as RefereeUser
from tests.bot.adapters.discordbot.harness import Harness, running
from tests.standin import DiscordStandIn


async def test_a_lobby_kick_updates_the_lobby_message_in_place(tileref: Harness) -> None:
    s = tileref.s
    thread, lobby = await tileref.open_table(s.alice, s.bob, start=False)
    mark = s.mark()
    preview = await (await s.slash(s.mod, thread, "mod kick", player=s.bob)).reply()
    assert "Remove bob from the table?" in preview.content
    await (await s.click(s.mod, preview, label="Confirm")).replies(1)
    edited = await s.wait_for_message(thread, lambda m: m.id == lobby.id and m.kind == "edit", since=mark)
    assert "bob" not in edited.content.split("\n", 1)[1] and "players (1/6): alice" in edited.content
    assert not [m for m in s.messages[mark:] if m.kind == "create" and not m.ephemeral]


async def test_a_creator_who_left_the_lobby_cannot_start_it_or_add_bots_but_who_sat_longest_can(
        tileref: Harness) -> None:
    s = tileref.s
    thread, lobby = await tileref.open_table(s.alice, s.bob, s.carol, start=False)
    for user, label in ((s.carol, "Start"), (s.bob, "Add bot")):  # seated, but not the creator
        refused = await (await s.click(user, lobby, label=label)).reply()
        assert refused.ephemeral and refused.content.startswith("Only alice or a moderator can")
    lobby = await (await s.click(s.alice, lobby, label="Leave")).reply()
    for user, label in ((s.alice, "Add bot"), (s.alice, "Start"), (s.carol, "Start")):
        refused = await (await s.click(user, lobby, label=label)).reply()
        assert refused.ephemeral and refused.content.startswith("Only bob or a moderator can"), refused.content
    table = await tileref.table(thread)
    assert table.status == "lobby" and [seat.name for seat in table.seats] == ["bob", "carol"]
    lobby = await (await s.click(s.bob, lobby, label="Add bot")).reply()
    assert "(bot)" in lobby.content
    await (await s.click(s.bob, lobby, label="Start")).replies(2)
    assert (await tileref.table(thread)).status == "playing"


async def test_a_forced_pass_tells_the_player_privately_what_they_drew(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    mark = s.mark()
    forced = await (await s.slash(s.mod, thread, "mod forcepass")).reply()
    assert "forced a pass" in forced.content and "You drew" not in forced.content
    drew = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "You drew" in m.content, since=mark)
    assert s.channels[drew.channel_id].recipient is s.alice
    assert not [m for m in s.messages[mark:] if "You drew" in m.content and m.guild_id is not None]


async def test_names_are_shown_as_typed_never_as_markdown_or_mentions(standin: DiscordStandIn, tmp_path) -> None:
    s = standin
    zoe = s.add_user("**Zoë**")
    trick = s.add_user("<@discord:1|x> @everyone")
    async with running(s, tmp_path / "t.sqlite3") as tileref:
        thread, lobby = await tileref.open_table(zoe, trick, start=False)
        assert "\\*\\*Zoë\\*\\*" in lobby.content
        assert "<@1>" not in lobby.content and "@\u200beveryone" in lobby.content
        await (await s.click(zoe, lobby, label="Start")).replies(2)
        board = await (await s.slash(zoe, thread, "board")).reply()
        assert "\\*\\*Zoë\\*\\*" in board.content or f"<@{zoe.id}>" in board.content
        assert not board.payload.get("mention_everyone") and "<@1>" not in board.content
        table = await tileref.table(thread)
        assert [seat.name for seat in table.seats] == ["**Zoë**", "‹@discord:1¦x› @everyone"]
    s.assert_clean()


async def test_a_huge_move_is_not_echoed_back(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    refused = await (await s.slash(s.alice, thread, "move", text="x" * 6000)).replies(1)
    assert len(refused) == 1 and len(refused[0].content) < 300 and "x" * 120 not in refused[0].content


async def test_history_pages_go_back_in_time_and_a_missing_page_says_so(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    for _ in range(30):
        game = await tileref.game(thread)
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        user = RefereeUser(f"discord:{(s.alice, s.bob)[seat].id}", ("alice", "bob")[seat])
        await tileref.referee.act(tileref.place(thread), user, game.legal_actions(seat)[0])
    first = await (await s.slash(s.alice, thread, "history")).reply()
    second = await (await s.slash(s.alice, thread, "history", page=2)).reply()
    assert "(page 1 of 2)" in first.content and "(page 2 of 2)" in second.content
    assert "Moves 1–" in second.content and first.content != second.content
    missing = await (await s.slash(s.alice, thread, "history", page=3)).reply()
    assert missing.ephemeral and "2 pages" in missing.content


async def test_the_hand_marks_playable_tiles_only_on_your_turn(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    mine = await (await s.slash(s.alice, thread, "hand")).reply()
    theirs = await (await s.slash(s.bob, thread, "hand")).reply()
    assert "can be played now" in mine.content
    assert "can be played now" not in theirs.content and "**" not in theirs.content



async def test_a_spanish_client_opens_a_table_that_speaks_spanish(tileref: Harness) -> None:
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", locale="es-ES")).reply()
    assert "abre una mesa de **Tronimoes**" in announced.content
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    assert "abrió una mesa de Tronimoes" in lobby.content
    assert [b.label for b in lobby.buttons()] == ["Unirse", "Salir", "Añadir bot", "Añadir bot: fácil",
                                                 "Añadir bot: difícil", "Empezar"]
    lobby = await (await s.click(s.bob, lobby, label="Unirse")).reply()  # bob's client is in English
    assert "se unió" in lobby.content
    answers = await (await s.click(s.alice, lobby, label="Empezar")).replies(2)
    opening = next(m for m in answers if m.id != lobby.id)
    assert "Empieza Tronimoes" in opening.content and "Le toca a" in opening.content
    assert opening.button("Ver mano")
    board = await (await s.slash(s.bob, thread, "board")).reply()
    assert "Le toca a" in board.content
    refused = await (await s.slash(s.carol, thread, "hand")).reply()
    assert refused.content.startswith("No juegas en esta mesa")


async def test_spanish_clients_read_the_slash_commands_in_spanish(tileref: Harness) -> None:
    commands = {c["name"]: c for c in tileref.s.guild_commands[tileref.s.guild.id]}
    move = commands["move"]
    assert move["description"].startswith("Play a move")
    assert move["description_localizations"]["es-ES"].startswith("Hacer una jugada")
    assert move["options"][0]["description_localizations"]["es-419"].startswith("Tu jugada")


LONG = "y" * 5900


@pytest.mark.parametrize(("options", "reason"), [
    ({"options": LONG}, "options are written key=value"),
    ({"options": LONG + "=1"}, "Unknown option 'yyy"),
    ({"options": "ouroboros=" + LONG}, "option ouroboros takes on or off"),
    ({"turn_time": LONG}, "is not a duration"),
])
async def test_long_input_to_tileref_new_gets_its_real_reason_with_a_short_excerpt(
        tileref: Harness, options: dict, reason: str) -> None:
    s = tileref.s
    mark = s.mark()
    handle = await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", **options)
    await handle.replies(1)
    await asyncio.sleep(0.5)
    answers = await handle.replies(1)
    content = answers[0].content
    assert len(answers) == 1 and answers[0].ephemeral and reason.lower() in content.lower(), content
    assert "y" * 80 not in answers[0].content and "…" in answers[0].content
    assert len(answers[0].content) <= 2000 and "went wrong" not in answers[0].content
    assert not s.errors and not [m for m in s.messages[mark:] if m.kind == "create" and not m.ephemeral]


@pytest.mark.parametrize(("option", "reason"), [("turn_time", "is not a duration"),
                                                ("reminders", "is not a duration"),
                                                ("allowed_games", "unknown game")])
async def test_long_input_to_settings_is_answered_once_with_a_short_excerpt(
        tileref: Harness, option: str, reason: str) -> None:
    s = tileref.s
    s.set_permissions(s.carol, discord.Permissions(manage_guild=True, manage_threads=True, send_messages=True))
    handle = await s.slash(s.carol, s.channel, "settings", **{option: LONG})
    await handle.replies(1)
    await asyncio.sleep(0.5)  # a reply split in pieces would have sent the others by now
    answers = await handle.replies(1)
    assert len(answers) == 1 and reason.lower() in answers[0].content.lower() and "y" * 80 not in answers[0].content


def test_every_message_is_cut_to_discords_limit() -> None:
    from bot.adapters.discordbot.delivery import Outgoing

    assert len(Outgoing("line\n" * 1000).kwargs()["content"]) <= 2000
