"""A whole 2-player Tronimoes game through Discord, from `/tileref new` to the final score, and
the player-facing paths around it: autocomplete, Show hand, typed moves, refusals."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from bot.core.records import FINISHED, PLAYING
from bot.core.records import User as RefereeUser
from bot.core.replies import plain
from tests.bot.adapters.discordbot.harness import Harness, hand_images, running
from tests.bot.referees import losing
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User

MENTION = re.compile(r"<@(\d+)>")


def pinged(message: RecordedMessage) -> set[int]:
    """Users the message actually notifies (Discord's `mentions`, after allowed_mentions)."""
    return {int(u["id"]) for u in message.payload.get("mentions", [])}


async def play_one(h: Harness, thread: Channel, users: dict[int, User], step: int,
                   paths: Counter[str]) -> list[RecordedMessage]:
    """Play the first legal action of the (first) seat the game waits for, by a path chosen by
    the action and the step: /move, /draw, /pass, the Ready button, or typing it."""
    s = h.s
    game = await h.game(thread)
    seat = game.to_move()[0]
    user = users[seat]
    action = game.legal_actions(seat)[0]
    word = action.split()[0] if not action[0].isdigit() else "lay"
    if action == "ready" and step % 2:
        paths["ready button"] += 1
        latest = next(m for m in reversed(s.messages)
                      if m.channel_id == thread.id and any(b.label == "Ready" for b in m.buttons()))
        return await (await s.click(user, latest, label="Ready")).replies(1)
    if step % 7 == 3 or action == "ready":
        paths[f"typed {word}"] += 1
        said = await s.say(user, thread, action.upper())
        return [await said.reply()]
    paths[f"/{word}"] += 1
    if action == "draw":
        return await (await s.slash(user, thread, "draw")).replies(2)
    if action.startswith("pass"):
        foot = action.split()[1:]
        handle = await s.slash(user, thread, "pass", **({"foot": foot[0]} if foot else {}))
        return await handle.replies(1)
    return await (await s.slash(user, thread, "move", text=action)).replies(1)


async def test_a_two_player_game_from_new_to_final_score(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob)
    assert thread.name == "Tronimoes · alice" and thread.parent_id == s.channel.id
    assert "Tronimoes begins: alice, bob" in opening.content and len(opening.png_images()) == 1
    users = {0: s.alice, 1: s.bob}
    ids = {s.alice.id, s.bob.id}
    publics = [opening]
    paths: Counter[str] = Counter()
    for step in range(2000):
        if (await tileref.table(thread)).status != PLAYING:
            break
        answers = await play_one(tileref, thread, users, step, paths)
        public = [m for m in answers if not m.ephemeral]
        assert len(public) == 1, [m.content for m in answers]
        publics += public
        for secret in (m for m in answers if m.ephemeral):
            assert secret.content.startswith("You drew")
        if step % 25 == 0 and public[0].buttons():  # now and then each player looks at their own hand
            for user in (s.alice, s.bob):
                shown = await (await s.click(user, public[0], label="Show hand")).reply()
                mine = await tileref.referee.hand(tileref.place(thread), _user(user))
                assert shown.ephemeral and mine.caller and shown.content == plain(mine.caller.text)
    table = await tileref.table(thread)
    assert table.status == FINISHED
    final = publics[-1]
    game = await tileref.game(thread)
    winners = " and ".join(table.seats[w].name for w in game.outcome().winners)
    assert f"🏆 {winners} wins!" in final.content or f"🏆 {winners} share the win!" in final.content
    assert "Final scores:" in final.content and final.content.count("🏆") == 1
    assert [b.label for b in final.buttons()] == ["Rematch"] and len(final.png_images()) == 1  # no Show hand
    assert "📈 Ratings: " in final.content
    for message in publics[:-1]:
        # one message per move: the board, what happened, and a ping for the player whose turn
        # begins (nobody after their own draw or double)
        assert len(message.png_images()) == 1, message.content
        assert message.button("Show hand").custom_id == f"tileref:hand:{table.id}"
        assert pinged(message) <= ids and pinged(message) <= {int(i) for i in MENTION.findall(message.content)}
        if "plays again" in message.content and "🏁" not in message.content:
            assert not pinged(message), message.content
    assert sum(bool(pinged(m)) for m in publics) > len(publics) // 2
    history = await (await s.slash(s.carol, thread, "history")).reply()
    assert history.ephemeral and f"of {len(await tileref.referee.store.actions(table.id))}" in history.content
    assert_hands_stayed_private(s, {s.alice.id, s.bob.id})
    every = {"/lay", "/draw", "/pass", "typed lay", "typed draw", "typed ready", "ready button"}
    assert every <= set(paths), paths
    assert any("🏁" in m.content for m in publics)  # rounds ended on the way
    drawn = [m for m in s.messages if m.guild_id is None]
    assert drawn and all(m.content.startswith("You drew") for m in drawn)  # typed draws: told by DM
    assert {s.channels[m.channel_id].recipient for m in drawn} <= {s.alice, s.bob}
    s.assert_clean()


def assert_hands_stayed_private(s: DiscordStandIn, players: set[int]) -> None:
    """Every hand image or hand text went out ephemerally to a player (or by DM to one)."""
    for message in s.messages:
        if hand_images(message) or "Your hand" in message.content or "You drew" in message.content:
            if message.guild_id is None:
                assert s.channels[message.channel_id].recipient.id in players  # type: ignore[union-attr]
                assert not hand_images(message)
            else:
                assert message.ephemeral, message.content
                assert s.interaction_responses[message.interaction_id or 0].user_id in players


async def test_autocomplete_offers_legal_moves_matching_what_was_typed(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    legal = game.legal_actions(0)
    everything = await s.autocomplete(s.alice, thread, "move", text="")
    assert 0 < len(everything) <= 25 and all(c["value"] in legal for c in everything)
    prefix = legal[-1][:4]
    matching = await s.autocomplete(s.alice, thread, "move", text=prefix)
    expected = [a for a in legal if a.startswith(prefix)][:25]
    assert [c["value"] for c in matching][:len(expected)] == expected
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in matching)
    assert await s.autocomplete(s.bob, thread, "move", text="") == []  # not bob's turn: nothing legal
    assert await s.autocomplete(s.carol, thread, "move", text="") == []  # not playing


async def test_show_hand_is_ephemeral_and_only_for_its_owner(tileref: Harness) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob)
    for user in (s.alice, s.bob):
        shown = await (await s.click(user, opening, label="Show hand")).reply()
        assert shown.ephemeral and len(shown.png_images()) == 1
        assert hand_images(shown) == ["tronimoes-hand.png"]
        mine = await tileref.referee.hand(tileref.place(thread), _user(user))
        assert mine.caller is not None and shown.content == plain(mine.caller.text)
        assert s.interaction_responses[shown.interaction_id or 0].user_id == user.id
    refused = await (await s.click(s.carol, opening, label="Show hand")).reply()
    assert refused.ephemeral and not refused.attachments and "not playing" in refused.content
    hand = await (await s.slash(s.bob, thread, "hand")).reply()
    assert hand.ephemeral and hand_images(hand)
    assert_hands_stayed_private(s, {s.alice.id, s.bob.id})


def _user(user: User) -> RefereeUser:
    return RefereeUser(f"discord:{user.id}", user.name)


async def test_typed_moves_chatter_is_ignored_and_refusals_are_answered(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    mark = s.mark()
    await s.say(s.alice, thread, "good luck everyone!")  # chat from the player to move
    for chat in ("take", "pick", "d", "go", "next", "r", "👍", "ok 5"):  # not the game's words: chat
        await s.say(s.alice, thread, chat)
    early = await s.say(s.bob, thread, "**draw**")  # a move, but it is not bob's turn: a reaction
    await s.say(s.carol, thread, "3:5 c4 d4")  # not a player
    illegal = await s.say(s.alice, thread, "0:0 a1 a2")
    answer = await illegal.reply()
    # the thread hears only that it was refused; the reason (about alice's hand) goes to her alone
    assert answer.content == "That move was refused; I sent you the reason privately."
    assert answer.payload["message_reference"]["message_id"] == str(illegal.message.id)
    assert [m for m in s.messages[mark:] if m.kind == "create" and m.guild_id is not None] == [answer]
    reason = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    assert "You do not have 0:0" in reason.content and s.channels[reason.channel_id].recipient is s.alice
    assert s.live_message(thread.id, early.message.id).reactions == {"⏳": {s.bot_user.id}}
    assert s.live_message(thread.id, illegal.message.id).reactions == {"❌": {s.bot_user.id}}
    assert len(await tileref.referee.store.actions((await tileref.table(thread)).id)) == len(game.log)
    legal = game.legal_actions(0)[0]
    played = await (await s.say(s.alice, thread, legal)).reply(predicate=lambda m: "lays" in m.content)
    assert "alice lays" in played.content and played.png_images() and played.button("Show hand")
    assert s.bob.id in pinged(played)


async def test_a_refused_move_gets_its_reason_ephemerally(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    refused = await (await s.slash(s.alice, thread, "move", text="6:6 a1 a2")).reply()
    assert refused.ephemeral and refused.content[0].isupper()
    assert "6:6" in refused.content
    unreadable = await (await s.slash(s.alice, thread, "move", text="hello there")).reply()
    assert unreadable.ephemeral and unreadable.content
    not_yours = await (await s.slash(s.bob, thread, "draw")).reply()
    assert not_yours.ephemeral and "turn" in not_yours.content.lower()


async def test_without_the_content_intent_mentions_still_play(standin: DiscordStandIn, tmp_path: Path) -> None:
    s = standin
    async with running(s, tmp_path / "t.sqlite3", message_content=False) as tileref:
        assert not tileref.bot.intents.message_content  # type: ignore[attr-defined]
        thread, _ = await tileref.open_table(s.alice, s.bob)
        game = await tileref.game(thread)
        mark = s.mark()
        await s.say(s.alice, thread, game.legal_actions(0)[0])  # the bot cannot read it: nothing happens
        said = await s.say(s.alice, thread, f"{s.bot_user.mention} {game.legal_actions(0)[0]}")
        played = await said.reply()
        assert "alice lays" in played.content and played.png_images()
        assert [m.id for m in s.messages[mark:] if m.kind == "create"] == [played.id]
        nonsense = await s.say(s.bob, thread, f"{s.bot_user.mention} what now?")
        answer = await nonsense.reply()
        assert answer.payload["message_reference"]["message_id"] == str(nonsense.message.id)
        assert answer.content.startswith("I can't read") and "`draw`" in answer.content
    s.assert_clean()


async def test_a_typed_draw_is_told_by_dm_or_not_at_all(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    played = await (await s.say(s.alice, thread, "draw")).reply()
    assert "alice draws a tile" in played.content and "You drew" not in played.content
    dm = await s.wait_for_message(predicate=lambda m: m.guild_id is None)
    hand = (await tileref.game(thread)).view(0)["hand"]
    assert dm.content.startswith("You drew ") and dm.content.removeprefix("You drew ").rstrip(".") in hand
    assert s.channels[dm.channel_id].recipient is s.alice
    # bob does not take DMs: his draw is played all the same, and nothing is said in public
    game = await tileref.game(thread)
    await (await s.say(s.alice, thread, game.legal_actions(0)[0])).reply()
    s.close_dms(s.bob)
    mark = s.mark()
    played = await (await s.say(s.bob, thread, "draw")).reply()
    assert "bob draws a tile" in played.content
    await s.wait_until(lambda: any("50007" in e for e in s.errors), timeout=5, what="the refused DM")
    assert not [m for m in s.messages[mark:] if "You drew" in m.content]
    s.errors.clear()


async def test_a_refused_mention_move_gives_its_reason_to_the_player_alone(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    mark = s.mark()
    said = await s.say(s.alice, thread, f"{s.bot_user.mention} 0:0 a1 a2")
    answer = await said.reply()
    assert answer.content == "That move was refused; I sent you the reason privately."
    reason = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    assert "You do not have 0:0" in reason.content and s.channels[reason.channel_id].recipient is s.alice
    assert not [m for m in s.messages[mark:] if m.guild_id is not None and "0:0" in m.content]


async def test_a_refused_mention_move_in_tetromic_keeps_the_hand_private(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tetromic")
    mark = s.mark()
    said = await s.say(s.bob, thread, f"{s.bot_user.mention} play T-u 2,3")
    answer = await said.reply()
    assert answer.content == "That move was refused; I sent you the reason privately."
    reason = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    assert "hold no T" in reason.content and s.channels[reason.channel_id].recipient is s.bob
    assert not [m for m in s.messages[mark:] if m.guild_id is not None and "hold" in m.content]


async def test_a_typed_move_whose_commit_was_not_confirmed_is_reported_stored_and_announced(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    losing(tileref.referee.store, "commit")  # the database wrote the move; its answer was lost
    mark = s.mark()
    await s.say(s.alice, thread, "draw")
    told = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "stored" in m.content, since=mark)
    assert told.content.startswith("✅ Your move was stored") and s.channels[told.channel_id].recipient is s.alice
    assert not [m for m in s.messages[mark:] if "went wrong" in m.content or "refused" in m.content]
    await tileref.clock.advance(tileref.referee.delivery_lease + 11)
    await tileref.referee.outbox.sweep()
    announced = await s.wait_for_message(thread, lambda m: "alice draws a tile" in m.content, since=mark)
    assert announced.png_images()
