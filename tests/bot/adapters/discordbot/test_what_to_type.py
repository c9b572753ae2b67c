"""Discord says what to type: every turn message ends with how to move in that game, `/help`
gives the commands of the game in this thread, `/draw`, `/pass` and `/skip` answer with the
game's own way (or that it has none), and `/rules` writes player counts properly."""

from __future__ import annotations

import discord

from tests.bot.adapters.discordbot.harness import Harness

MANAGER = discord.Permissions(manage_guild=True, manage_threads=True, send_messages=True)


async def test_every_turn_message_ends_with_how_to_move_in_that_game(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    assert opening.content.splitlines()[-1] == "✏️ Type a move like `play 2,-1 SW`, or use /move."
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    move = game.legal_actions(seat)[0]
    answers = await (await s.slash((s.alice, s.bob)[seat], thread, "move", text=move)).replies(1)
    public = next(m for m in answers if not m.ephemeral)
    assert public.content.splitlines()[-1] == "✏️ Type a move like `play 2,-1 SW`, or use /move."


async def test_draw_in_tromino_go_says_the_game_has_no_drawing_instead_of_misreading_it(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    drawn = await (await s.slash(s.alice, thread, "draw")).reply()
    assert drawn.ephemeral and "Tromino Go has no drawing" in drawn.content and "can't read" not in drawn.content
    mover = (s.alice, s.bob)[(await tileref.game(thread)).to_move()[0]]
    passed = await (await s.slash(mover, thread, "pass")).reply()
    assert "the referee passes for you" in passed.content and "concede 2" in passed.content
    skipped = await (await s.slash(s.alice, thread, "skip")).reply()
    assert "Tromino Go has no skip" in skipped.content
    assert len((await tileref.game(thread)).log) == 0


async def test_draw_and_pass_play_the_games_own_moves_and_skip_says_how(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    user = (s.alice, s.bob)[game.to_move()[0]]
    answers = await (await s.slash(user, thread, "draw")).replies(1)
    assert any("draws a tile" in m.content for m in answers)
    skipped = await (await s.slash(user, thread, "skip")).reply()
    assert skipped.ephemeral and "Tronimoes has no skip: `draw` once, then lay a tile or `pass`." in skipped.content


async def test_help_gives_the_commands_of_the_game_in_this_thread(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tetromic")
    helped = await (await s.slash(s.carol, thread, "help")).reply()
    assert helped.ephemeral and "**Tetromic**" in helped.content
    assert "`/draw` → `draw`" in helped.content and "`/skip` → `skip`" in helped.content
    assert "/pass" not in helped.content and "play T-u 2,3" in helped.content
    nowhere = await (await s.slash(s.carol, s.channel, "help")).reply()
    assert "There is no game in this thread" in nowhere.content
    for said in (helped, nowhere):  # and what the ratings mean, wherever it is asked
        assert "start at 1000 and move by whom you finished ahead of and behind. A win never lowers yours; a loss " \
            "never raises it in a game of two sides" in said.content
        assert "leaving a game always lowers it" in said.content and "provisional for the first 5 games" in said.content


async def test_rules_write_player_counts_properly(tileref: Harness) -> None:
    s = tileref.s
    for game, count in (("tromino_go", "2 players."), ("tronimoes", "1–6 players."),
                        ("tronix", "2, 4, 6, 8, 10, 12, 14, 16 players.")):
        await (await s.slash(s.carol, s.channel, "rules", game=game)).replies(1)
        await s.wait_for_message(s.channel, lambda m, count=count: count in m.content)
        said = "\n".join(m.content for m in s.messages if m.author_id == s.bot_user.id)
        assert "–2 players" not in said


async def test_autocomplete_at_a_spanish_table_offers_spanish_moves_for_spanish_verbs(tileref: Harness) -> None:
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronix", locale="es-ES")).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Unirse")).reply()
    await (await s.click(s.alice, lobby, label="Empezar")).replies(2)
    game = await tileref.game(thread)
    user = (s.alice, s.bob)[game.to_move()[0]]
    offered = await s.autocomplete(user, thread, "move", text="poner")
    assert offered and all(choice["name"].startswith("poner 0,0 ") for choice in offered)
    assert {choice["name"].split()[-1] for choice in offered} <= {"NE", "SE", "SO", "NO", "NS", "EO"}


async def test_the_channel_announcement_speaks_the_servers_language(tileref: Harness) -> None:
    s = tileref.s
    s.set_permissions(s.carol, MANAGER)
    await (await s.slash(s.carol, s.channel, "settings", language="es")).reply()
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
    assert "abre una mesa de **Tronimoes**" in announced.content


async def test_a_refusal_keeps_what_the_player_types_as_they_type_it(tileref: Harness) -> None:
    """A refusal reads as a sentence, but a cell, an option or a code it begins with is written as
    the player types it ("r9c9 does not…", never "R9c9 does not…")."""
    s = tileref.s
    for options, begins in (("ai_seconds=99", "ai_seconds "), ("lang=xx", "`lang` is the table's language"),
                            ("rated=maybe", "`rated` is on or off")):
        refused = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", options=options)).reply()
        assert refused.ephemeral and refused.content.startswith(begins), refused.content
    thread, _ = await tileref.open_table(s.alice, s.bob, game="triominoes")
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    await (await s.slash((s.alice, s.bob)[seat], thread, "move", text=game.legal_actions(seat)[0])).replies(1)
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    tile = "-".join(map(str, game.seats[seat].hand[0]))
    refused = await (await s.slash((s.alice, s.bob)[seat], thread, "move", text=f"{tile} r9c9")).reply()
    assert refused.ephemeral and refused.content.startswith("r9c9 does not share an edge with any tile")
