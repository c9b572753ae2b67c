"""`/tournament` through the real discord.py client and the Discord stand-in: a moderator creates
a round robin, players sign up with the announcement's button, it starts by itself, each game gets
its own thread pinging its players, results close the round and the next one opens; withdrawals,
the moderators' confirmations, standings and the list; and the refusals."""

from __future__ import annotations

from tests.bot.adapters.discordbot.harness import Harness
from tests.standin import Channel


async def _advance(h: Harness, seconds: float) -> None:
    await h.clock.advance(seconds)
    await h.bot.tournament_runner.run_due()  # type: ignore[attr-defined]


async def test_a_round_robin_runs_in_discord_from_its_announcement_to_its_second_round(tileref: Harness) -> None:
    s = tileref.s
    made = await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="round_robin",
                                start="1h", name="Winter Cup")).reply()
    assert made.ephemeral and "Tournament #1 created" in made.content
    announcement = await s.wait_for_message(s.channel, lambda m: "Winter Cup" in m.content and bool(m.buttons()))
    assert "round robin of Tromino Go" in announcement.content and "scored as a draw" in announcement.content

    for user in (s.alice, s.bob, s.carol, s.mod):
        signed = await (await s.click(user, announcement, label="Sign up")).reply()
        assert signed.ephemeral and "You are in Winter Cup" in signed.content, signed.content
    again = await (await s.click(s.alice, announcement, label="Sign up")).reply()
    assert again.ephemeral and "already in Winter Cup" in again.content

    listed = await (await s.slash(s.bob, s.channel, "tournament list")).reply()
    assert listed.ephemeral and "#1 **Winter Cup**" in listed.content

    await _advance(tileref, 3600)
    pairings = await s.wait_for_message(s.channel, lambda m: "round 1" in m.content and "Board 2" in m.content)
    assert "deadline" in pairings.content
    threads: list[Channel] = await s.wait_until(
        lambda: [t for t in s.threads if t.name.startswith("Winter Cup · R1")] or None
        if len([t for t in s.threads if t.name.startswith("Winter Cup · R1")]) == 2 else None,
        timeout=10, what="two board threads")
    for thread in threads:
        ping = await s.wait_for_message(thread, lambda m: "round 1, board" in m.content, since=0)
        assert ping.content.count("<@") == 2
        await s.wait_for_message(thread, lambda m: "begins" in m.content, since=0)

    late = await (await s.click(s.carol, announcement, label="Sign up")).reply()
    assert late.ephemeral and "closed" in late.content

    view = await tileref.referee.store.tournaments.view(1)
    for board in view.round(1).boards:
        second = view.entrant(board.players[1])
        loser = next(u for u in (s.alice, s.bob, s.carol, s.mod) if f"discord:{u.id}" == second.user_id)
        thread = next(t for t in threads if f"discord:{t.id}" == board.place)
        preview = await (await s.slash(loser, thread, "resign")).reply()
        await (await s.click(loser, preview, label="Confirm")).replies(2)
    await _advance(tileref, 1)
    standings = await s.wait_for_message(s.channel, lambda m: "standings after round 1" in m.content, since=0)
    assert "— 1" in standings.content
    await s.wait_for_message(s.channel, lambda m: "round 2" in m.content and "Board 1" in m.content, since=0)

    shown = await (await s.slash(s.alice, s.channel, "tournament standings", id=1)).reply()
    assert shown.ephemeral and "Winter Cup" in shown.content

    ask = await (await s.slash(s.mod, s.channel, "tournament pause", id=1)).reply()
    assert ask.ephemeral and ask.button("Confirm") and "Pause tournament #1?" in ask.content
    await (await s.click(s.mod, ask, label="Confirm")).replies(1)
    assert (await tileref.referee.store.tournaments.get(1)).status == "paused"
    refused = await (await s.slash(s.alice, s.channel, "tournament end", id=1)).reply()
    assert refused.ephemeral and "Only a moderator" in refused.content

    left = await (await s.slash(s.carol, s.channel, "tournament withdraw")).reply()
    assert left.ephemeral and "withdrew from Winter Cup" in left.content


async def test_bad_tournaments_are_refused_saying_what_to_type(tileref: Harness) -> None:
    s = tileref.s
    nope = await (await s.slash(s.alice, s.channel, "tournament new", game="tromino_go", format="swiss")).reply()
    assert nope.ephemeral and "Only a moderator can create a tournament" in nope.content
    rounds = await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="round_robin",
                                  rounds=20)).reply()
    assert rounds.ephemeral and "1 to 15 rounds, not 20" in rounds.content
    pods = await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="pods",
                                seats=4)).reply()
    assert pods.ephemeral and "Tromino Go pods" in pods.content
    clock = await (await s.slash(s.mod, s.channel, "tournament new", game="tronimoes", format="pods", seats=4,
                                 clock="soon")).reply()
    assert clock.ephemeral and "soon" in clock.content
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    inside = await (await s.slash(s.mod, thread, "tournament new", game="tromino_go", format="swiss")).reply()
    assert inside.ephemeral and "in a text channel" in inside.content
    assert await tileref.referee.store.tournaments.listed(f"discord:{s.guild.id}") == []


async def test_anyone_exports_a_round_robin_as_a_fide_report_only_they_see(tileref: Harness) -> None:
    s = tileref.s
    await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="round_robin",
                         start="1h", name="Winter Cup")).reply()
    announcement = await s.wait_for_message(s.channel, lambda m: "Winter Cup" in m.content and bool(m.buttons()))
    for user in (s.alice, s.bob):
        await (await s.click(user, announcement, label="Sign up")).reply()
    exported = await (await s.slash(s.carol, s.channel, "tournament export", id=1)).reply()
    assert exported.ephemeral and "FIDE report of tournament #1" in exported.content
    [(name, data)] = exported.attachments
    assert name == "winter-cup-1.trf"
    text = data.decode("utf-8")
    assert text.startswith("012 Winter Cup (Tromino Go)")
    assert sum(1 for line in text.splitlines() if line.startswith("001 ")) == 2


async def test_a_pod_event_or_unknown_tournament_is_not_exported_and_says_where_to_look(tileref: Harness) -> None:
    s = tileref.s
    await (await s.slash(s.mod, s.channel, "tournament new", game="tronimoes", format="pods", seats=4,
                         name="Pods Night")).reply()
    pods = await (await s.slash(s.alice, s.channel, "tournament export", id=1)).reply()
    assert pods.ephemeral and not pods.attachments
    assert "Only a two-player Swiss or round robin" in pods.content and "/tournament standings" in pods.content
    unknown = await (await s.slash(s.alice, s.channel, "tournament export", id=9)).reply()
    assert unknown.ephemeral and "There is no tournament #9" in unknown.content
