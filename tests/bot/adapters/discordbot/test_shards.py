"""Two real bot processes, each holding one of two gateway shards, on one database: each hears
only its own server's events (Discord routes a server to shard `(id >> 22) % 2`), games in both
servers are played through the stand-in, and the slash commands are published once, by the
process holding shard 0."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.adapters.discordbot.bot_process import ROOT
from tests.standin import DiscordStandIn
from tests.standin.model import Member


def start_shard(s: DiscordStandIn, database: str, guilds: str, shard: int, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bot.adapters.discordbot.bot_process", s.api_base, s.gateway_url, database,
         guilds, s.token, str(shard), "2"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("wb"))


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=20) as s:
        yield s


async def test_two_processes_each_serve_the_servers_of_their_shard(standin, database, tmp_path):
    s = standin
    other = s.add_guild("second server")
    while (other.id >> 22) % 2 == (s.guild.id >> 22) % 2:  # a server on the other shard
        other = s.add_guild("second server")
    for user in (s.alice, s.bob):
        other.members[user.id] = Member(user)
    elsewhere = s.add_channel("games", guild=other)
    guilds = f"{s.guild.id},{other.id}"
    logs = [tmp_path / "shard0.log", tmp_path / "shard1.log"]
    processes = [start_shard(s, database, guilds, shard, logs[shard]) for shard in (0, 1)]
    try:
        await s.wait_until(lambda: s.gateway.ready_count >= 2, timeout=30, what="both shards to connect")
        for channel in (s.channel, elsewhere):
            shard = (channel.guild_id >> 22) % 2
            assert s.gateway.session_for(channel.guild_id).shard == (shard, 2)  # routed to its process
            announced = await (await s.slash(s.alice, channel, "tileref new", game="tronimoes")).reply()
            thread = await s.wait_for_thread(lambda t, a=announced: t.id == a.id)
            lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
            lobby = await (await s.click(s.bob, lobby, label="Join")).reply()
            opening = next(m for m in await (await s.click(s.alice, lobby, label="Start")).replies(2)
                           if m.id != lobby.id)
            assert "Tronimoes begins" in opening.content
            for _ in range(3):
                for mover in (s.alice, s.bob):
                    choices = await s.autocomplete(mover, thread, "move", text="")
                    if choices:
                        answers = await (await s.slash(mover, thread, "move", text=choices[0]["value"])).replies(1)
                        assert any(not m.ephemeral for m in answers), [m.content for m in answers]
                        break
        for _ in range(100):  # each process says how many servers it holds once its shard is ready
            if all("servers)" in log.read_text() for log in logs):
                break
            await asyncio.sleep(0.2)
        published = [r for r in s.requests if r.startswith("PUT") and r.endswith("/commands")]
        assert len(published) == 2, published  # once per server, by one process
    except AssertionError as failure:  # with what the processes said, which tells why
        raise AssertionError(f"{failure}\n" + "\n".join(f"--- shard {n} said:\n{log.read_text()[-3000:]}"
                                                     for n, log in enumerate(logs))) from None
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
    said = [log.read_text() for log in logs]
    for shard in (0, 1):  # each process holds the servers of its shard, and only those
        held = sum(1 for g in s.guilds if (g >> 22) % 2 == shard)
        assert f"({held} servers)" in said[shard], said[shard]
    assert "publishes the slash commands" in said[1]
