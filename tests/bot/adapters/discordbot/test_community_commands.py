"""What carries over between games, through the real client and the Discord stand-in: /notify and
the DM a turn brings, /games, the ratings line of a finished game, /leaderboard, /profile and the
Rematch button."""

from __future__ import annotations

from tests.bot.adapters.discordbot.harness import Harness, confirmed
from tests.standin import Channel, RecordedMessage, User


def dms(h: Harness, user: User) -> list[RecordedMessage]:
    channel = h.s.dm_channel(user)
    return [] if channel is None else [m for m in h.s.messages if m.channel_id == channel.id]


async def move_first(h: Harness, thread: Channel, users: dict[int, User]) -> User:
    """The seat the game waits for plays its first legal move by /move; returns who moved."""
    game = await h.game(thread)
    seat = game.to_move()[0]
    await (await h.s.slash(users[seat], thread, "move", text=game.legal_actions(seat)[0])).replies(1)
    return users[seat]


async def test_notify_games_ratings_leaderboard_profile_and_rematch(tileref: Harness) -> None:
    s = tileref.s
    said = await (await s.slash(s.bob, s.channel, "notify dm", when="on")).reply()
    assert said.ephemeral and "direct message" in said.content
    off = await (await s.slash(s.alice, s.channel, "notify dm", when="off")).reply()
    assert off.ephemeral and "No more direct messages" in off.content

    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tromino_go", turn_time="2h")
    users = {0: s.alice, 1: s.bob}
    jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
    if (await tileref.game(thread)).to_move()[0] == 1:  # bob plays first: his first turn began at Start
        await s.wait_until(lambda: len(dms(tileref, s.bob)) == 1, timeout=5, what="bob's DM at the start")
    for _step in range(4):
        before = len(dms(tileref, s.bob))
        mover = await move_first(tileref, thread, users)
        if mover is s.alice:  # bob's turn begins: one DM, with the way there and the deadline
            await s.wait_until(lambda b=before: len(dms(tileref, s.bob)) == b + 1, timeout=5, what="bob's DM")
            note = dms(tileref, s.bob)[-1].content
            assert "Your turn in **Tromino Go**" in note and jump in note and "<t:" in note
        else:
            assert len(dms(tileref, s.bob)) == before
    assert dms(tileref, s.alice) == []  # alice turned them off

    game = await tileref.game(thread)
    waiting = game.to_move()[0]
    listed = await (await s.slash(users[waiting], s.channel, "games")).reply()
    assert listed.ephemeral and listed.content.startswith("⏳ **Waiting for you**") and jump in listed.content
    theirs = await (await s.slash(users[1 - waiting], s.channel, "games")).reply()
    assert theirs.ephemeral and "Waiting for others" in theirs.content and "Waiting for you" not in theirs.content
    nothing = await (await s.slash(s.carol, s.channel, "games")).reply()
    assert nothing.ephemeral and "no unfinished games" in nothing.content

    _preview, final = await confirmed(s, s.bob, thread, "resign")
    assert "📈 Ratings: alice 1105 (+105) provisional · bob 895 (−105) provisional" in final.content
    assert final.button("Rematch")

    board = await (await s.slash(s.alice, s.channel, "leaderboard", game="tromino_go")).reply()
    assert board.ephemeral and "Tromino Go leaderboard" in board.content
    assert board.content.index("1. alice") < board.content.index("2. bob") and "You: 1. alice" in board.content
    assert "1. alice **1105** (provisional) · 1 game: 1 won, 0 drawn, 0 lost" in board.content
    assert "A win never lowers yours" in board.content
    empty = await (await s.slash(s.alice, s.channel, "leaderboard", game="tetromic")).reply()
    assert empty.ephemeral and "Nobody has a Tetromic rating" in empty.content
    far = await (await s.slash(s.alice, s.channel, "leaderboard", game="tromino_go", page=3)).reply()
    assert far.ephemeral and "has 1 page" in far.content

    mine = await (await s.slash(s.carol, s.channel, "profile", user=s.bob)).reply()
    assert mine.ephemeral and "**Tromino Go**: **895** (provisional) · 1 game: 0 won, 0 drawn, 1 lost" in mine.content
    assert "2 of 2" in mine.content and jump in mine.content
    assert "hand" not in mine.content.lower()

    clicked = await s.click(s.alice, final, label="Rematch")
    told = await clicked.reply()
    assert not told.ephemeral and "opened a rematch" in told.content
    rematch = await s.wait_for_thread(lambda t: t.id != thread.id and "rematch" in t.name)
    lobby = await s.wait_for_message(rematch, lambda m: bool(m.buttons()))
    assert f"<@{s.bob.id}>" in lobby.content and "invites" in lobby.content
    again = await (await s.click(s.alice, final, label="Rematch")).reply()
    assert again.ephemeral and "already open" in again.content
    handle = await s.click(s.bob, lobby, label="Join")
    started = await handle.replies(2)
    assert any("Tromino Go begins: alice, bob" in m.content for m in started)
    table = await tileref.table(rematch)
    assert table.status == "playing" and [seat.name for seat in table.seats] == ["alice", "bob"]


async def play_to_the_end(h: Harness, thread: Channel, users: dict[int, User]) -> RecordedMessage:
    """Every move by /move (the first legal one) until the game ends; returns the last answer."""
    while True:
        game = await h.game(thread)
        seat = game.to_move()[0]
        answer = await (await h.s.slash(users[seat], thread, "move", text=game.legal_actions(seat)[0])).reply()
        if (await h.game(thread)).outcome() is not None:
            return answer


async def test_a_win_and_a_draw_show_apart_in_the_leaderboard_and_the_profiles(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tronix")
    _preview, won = await confirmed(s, s.bob, thread, "resign")
    assert "📈 Ratings: alice 1105 (+105) provisional · bob 895 (−105) provisional" in won.content
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tronix", options="deck_size=4 quiet_limit=2")
    table = await tileref.table(thread)
    drawn = await play_to_the_end(tileref, thread, {seat.seat: s.alice if seat.name == "alice" else s.bob
                                                    for seat in table.seats})
    outcome = (await tileref.game(thread)).outcome()
    assert outcome is not None and set(outcome.winners) == {0, 1}  # a God Mode stalemate, both piles empty
    ended = drawn.content if "📈 Ratings" in drawn.content else (
        await s.wait_for_message(thread, lambda m: "📈 Ratings" in m.content)).content
    # the favourite drew: she loses what he gains, and it shows as that
    assert "📈 Ratings: alice 1085 (−20) provisional · bob 915 (+20) provisional" in ended

    board = await (await s.slash(s.carol, s.channel, "leaderboard", game="tronix")).reply()
    assert board.ephemeral
    assert "1. alice" in board.content and "2 games: 1 won, 1 drawn, 0 lost" in board.content
    assert "2. bob" in board.content and "2 games: 0 won, 1 drawn, 1 lost" in board.content
    for user, record in ((s.alice, "2 games: 1 won, 1 drawn, 0 lost"), (s.bob, "2 games: 0 won, 1 drawn, 1 lost")):
        profile = await (await s.slash(s.carol, s.channel, "profile", user=user)).reply()
        assert profile.ephemeral and "**Tronix**: " in profile.content and record in profile.content
