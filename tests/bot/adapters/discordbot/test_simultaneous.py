"""A game where players act at the same time (Tetromic), through Discord: three players draw in
any order, place pieces out of turn, several at once; a fourth joins the running game; the phase
clock skips whoever missed it and opens the next phase (at `absent=skip`, the late player's next
phase is then skipped at once too)."""

from __future__ import annotations

from tests.bot.adapters.discordbot.harness import Harness


async def test_three_players_act_at_once_a_fourth_joins_and_the_phase_clock_skips_the_late(tileref: Harness) -> None:
    s, clock = tileref.s, tileref.clock
    thread, opening = await tileref.open_table(s.alice, s.bob, s.carol, game="tetromic", turn_time="1h",
                                               options="absent=skip")
    assert "Phase 1" in opening.content and "Waiting for" in opening.content
    game = await tileref.game(thread)
    assert game.to_move() == (0, 1, 2)

    drew = await (await s.say(s.alice, thread, "draw")).reply()  # typed, in any order
    assert "alice draws 1 piece" in drew.content
    drew = await (await s.slash(s.bob, thread, "draw")).replies(2)
    assert any("You drew" in m.content and m.ephemeral for m in drew)

    game = await tileref.game(thread)
    kind = game.seats[0].hand[0]
    first = next(a for a in game.legal_actions(0) if a.startswith("play ") and a.split()[1][0] in kind + "JZ")
    placed = await (await s.slash(s.alice, thread, "move", text=f"{first}; play O 9,9")).replies(2)
    public = next(m for m in placed if not m.ephemeral)
    note = next(m for m in placed if m.ephemeral)
    assert "alice places" in public.content
    assert note.content.startswith(f"Done: `{first}`. Not done: `play O 9,9`")

    joined = await (await s.click(s.mod, public, label="Join")).replies(1)  # mod was not playing: joins now
    assert any("joined the game" in m.content for m in joined)
    game = await tileref.game(thread)
    assert game.players == 4 and game.to_move() == (2,)

    mark = s.mark()
    await clock.advance(3600 + 1)
    await tileref.referee.timers.idle()
    skipped = await s.wait_for_message(thread, lambda m: "ran out of time" in m.content, since=mark)
    assert "carol ran out of time: their turns are skipped" in skipped.content and "Phase 2" in skipped.content
    game = await tileref.game(thread)  # at four seats, `absent=skip`: her phase 2 is skipped at once as well
    assert game.phase == 2 and game.to_move() == (0, 1, 3)
    actions = await tileref.referee.store.actions((await tileref.table(thread)).id)
    assert [a.action for a in actions if a.actor == "absent"] == ["skip", "skip"]
