"""The standing "your turn" list and commands wherever the player is, through the real client and
the Discord stand-in: `/notify list` posts one quiet DM and edits it as games start and stop
waiting for the player; `/notify quiet` refuses what it cannot read, saying what to type;
`/games`, `/profile`, `/notify`, `/vacation` and `/back` answer in the bot's DMs and in people's
own group DMs (a user install), with the player's games on every server."""

from __future__ import annotations

from pathlib import Path

from tests.bot.adapters.discordbot.harness import Harness, running
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User

SILENT = 1 << 12
"""Discord's flag for a message that notifies nobody."""


def dm_messages(h: Harness, user: User) -> list[RecordedMessage]:
    """The bot's own messages in its DM with `user` (not the answers to commands used there)."""
    channel = h.s.dm_channel(user)
    return [] if channel is None else [m for m in h.s.messages if m.channel_id == channel.id
                                       and m.interaction_id is None and not m.ephemeral]


def list_now(h: Harness, user: User) -> RecordedMessage:
    """The player's list as it now reads (its last version)."""
    created = [m for m in dm_messages(h, user) if m.kind == "create"]
    assert len(created) == 1, [m.content for m in created]
    return [m for m in dm_messages(h, user) if m.id == created[0].id][-1]


async def move_first(h: Harness, thread: Channel, users: dict[int, User]) -> User:
    game = await h.game(thread)
    seat = game.to_move()[0]
    await (await h.s.slash(users[seat], thread, "move", text=game.legal_actions(seat)[0])).replies(1)
    return users[seat]


async def test_the_list_of_turns_is_one_quiet_dm_edited_as_games_go(tileref: Harness) -> None:
    s = tileref.s
    said = await (await s.slash(s.bob, s.channel, "notify list", keep="on")).reply()
    assert said.ephemeral and "direct messages" in said.content
    first = list_now(tileref, s.bob)
    assert "No game is waiting for you" in first.content and first.flags & SILENT
    assert f"/channels/@me/{first.channel_id}/{first.id}" in said.content

    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tromino_go", turn_time="2h")
    jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
    users = {0: s.alice, 1: s.bob}
    for _step in range(5):
        game = await tileref.game(thread)
        bob_waits = 1 in game.to_move()
        await s.wait_until(lambda w=bob_waits: (jump in list_now(tileref, s.bob).content) == w, timeout=5,
                           what="bob's list to show the table exactly while it waits for him")
        shown = list_now(tileref, s.bob).content
        if bob_waits:
            assert "Waiting for you" in shown and "**Tromino Go**: your turn, ends <t:" in shown
        else:
            assert "No game is waiting for you" in shown
        await move_first(tileref, thread, users)
    bobs = dm_messages(tileref, s.bob)
    assert len([m for m in bobs if m.kind == "create"]) == 1  # never a new DM a turn
    assert len([m for m in bobs if m.kind == "edit"]) >= 4
    assert not any(f"<@{s.bob.id}>" in m.content for m in bobs)

    off = await (await s.slash(s.bob, s.channel, "notify list", keep="off")).reply()
    assert off.ephemeral and "no longer kept up to date" in off.content
    assert "`/notify list keep:on` brings it back" in list_now(tileref, s.bob).content
    again = await (await s.slash(s.bob, s.channel, "notify list", keep="on")).reply()
    back = list_now(tileref, s.bob).content  # the same message, as the games now stand
    assert again.ephemeral and "no longer kept" not in back
    assert ("Waiting for you" in back) == (1 in (await tileref.game(thread)).to_move())


async def test_quiet_hours_refuse_what_they_cannot_read_saying_what_to_type(tileref: Harness) -> None:
    s = tileref.s
    async def quiet(**options: str) -> str:
        answer = await (await s.slash(s.alice, s.channel, "notify quiet", **options)).reply()
        assert answer.ephemeral
        return answer.content

    assert "like Europe/Madrid" in await quiet(**{"from": "23:00", "to": "08:00", "tz": "Madrid"})
    assert "24-hour clock, like 23:00" in await quiet(**{"from": "11pm", "to": "08:00", "tz": "Europe/Madrid"})
    assert "/notify quiet from:23:00 to:08:00 tz:Europe/Madrid" in await quiet(**{"from": "23:00"})
    assert await tileref.referee.store.standings.player_choices(["discord:" + str(s.alice.id)]) == {}
    done = await quiet(**{"from": "23:00", "to": "8", "tz": "europe/madrid"})
    assert "from 23:00 to 08:00 (Europe/Madrid time)" in done
    choices = await tileref.referee.store.standings.player_choices(["discord:" + str(s.alice.id)])
    assert choices["discord:" + str(s.alice.id)].quiet == "23:00-08:00 Europe/Madrid"
    assert "No more quiet hours" in await quiet(**{"from": "off"})


async def test_games_profile_and_notify_answer_in_dms_and_group_dms(standin: DiscordStandIn, tmp_path: Path) -> None:
    s = standin
    async with running(s, tmp_path / "tileref.sqlite3", guild_ids=[]) as h:  # global commands, as deployed
        thread, _opening = await h.open_table(s.alice, s.bob, game="tromino_go", turn_time="2h")
        jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
        game = await h.game(thread)
        waiting = {0: s.alice, 1: s.bob}[game.to_move()[0]]

        in_dm = await (await s.slash(waiting, s.dm(waiting), "games")).reply()
        assert in_dm.ephemeral and in_dm.content.startswith("⏳ **Waiting for you**") and jump in in_dm.content
        group = s.group_dm(s.alice, s.bob, s.carol)
        for user in (s.alice, s.bob):
            answer = await (await s.slash(user, group, "games")).reply()
            assert answer.ephemeral and jump in answer.content
        nothing = await (await s.slash(s.carol, group, "games")).reply()
        assert "no unfinished games on the servers we share" in nothing.content

        profile = await (await s.slash(s.carol, group, "profile", user=s.bob)).reply()
        assert profile.ephemeral and "has not finished a rated game yet" in profile.content
        per_server = await (await s.slash(s.bob, s.dm(s.bob), "notify dm", when="on")).reply()
        assert per_server.ephemeral and "server by server" in per_server.content
        quiet = await (await s.slash(s.carol, group, "notify quiet", **{"from": "22:30", "to": "07:00",
                                                                         "tz": "America/Mexico_City"})).reply()
        assert quiet.ephemeral and "from 22:30 to 07:00" in quiet.content
        listed = await (await s.slash(s.bob, group, "notify list", keep="on")).reply()
        assert listed.ephemeral and "direct messages" in listed.content
        assert (jump in list_now(h, s.bob).content) == (waiting is s.bob)

        here = await (await s.slash(waiting, s.channel, "games")).reply()  # on the server: its games
        assert jump in here.content

        vacation = await (await s.slash(s.alice, s.dm(s.alice), "vacation", **{"from": "tomorrow",
                                                                                "to": "tomorrow"})).reply()
        assert vacation.ephemeral and jump in vacation.content and "1 day" in vacation.content
        back = await (await s.slash(s.bob, group, "back")).reply()
        assert back.ephemeral and "not away at any table" in back.content
        try:
            await s.slash(s.alice, group, "leaderboard", game="tromino_go")
        except PermissionError:
            pass  # a server's leaderboard stays on its server
        else:
            raise AssertionError("/leaderboard answered in a group DM")
    s.assert_clean()


async def test_a_private_note_in_quiet_hours_comes_without_a_notification(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tronimoes", turn_time="1d")
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    mover = {0: s.alice, 1: s.bob}[seat]
    assert "draw" in game.legal_actions(seat)
    clock_hour = int(tileref.clock.now() // 3600 % 24)  # quiet from this hour (UTC) for two hours
    await tileref.referee.store.standings.set_quiet(f"discord:{mover.id}", f"{clock_hour:02d}:00-"
                                                    f"{(clock_hour + 2) % 24:02d}:00 UTC")
    mark = s.mark()
    await s.say(mover, thread, "draw")
    dm = await s.wait_until(lambda: s.dm_channel(mover), timeout=5, what="a DM channel")
    note = await s.wait_for_message(dm, lambda m: "drew" in m.content.lower(), since=mark)
    assert note.flags & SILENT
