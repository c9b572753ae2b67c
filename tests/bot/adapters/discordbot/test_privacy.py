"""/privacy through the real client and the Discord stand-in: what is kept, the export as a file,
and forgetting, asked to confirm, the game then naming a former
player."""

from __future__ import annotations

import json

from tests.bot.adapters.discordbot.harness import Harness, confirmed


async def test_privacy_tells_exports_and_forgets_after_a_confirmation(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    told = await (await s.slash(s.alice, s.channel, "privacy")).reply()
    assert told.ephemeral and "What tileref keeps about you" in told.content and "(seats: 1; tables: 1," in told.content

    exported = await (await s.slash(s.alice, s.channel, "privacy", what="export")).reply()
    assert exported.ephemeral and [name for name, _ in exported.attachments] == ["tileref-my-data.json"]
    data = json.loads(exported.attachments[0][1])
    assert data["user"] == f"discord:{s.alice.id}" and [row["name"] for row in data["seats"]] == ["alice"]
    assert str(s.bob.id) not in exported.attachments[0][1].decode()

    asked = await (await s.slash(s.alice, s.channel, "privacy", what="forget")).reply()
    assert asked.ephemeral and asked.button("Forget me") and asked.button("Cancel")
    refused = await (await s.click(s.alice, asked, label="Forget me")).reply()
    assert "Not done" in refused.content and "unfinished tables" in refused.content

    await confirmed(s, s.alice, thread, "resign")
    asked = await (await s.slash(s.alice, s.channel, "privacy", what="forget")).reply()
    done = await (await s.click(s.alice, asked, label="Forget me")).reply()
    assert "Forgotten: your name and ids are gone (tables: 1;" in done.content and not done.buttons()
    table = await tileref.referee.store.table_at(f"discord:{thread.id}")
    assert [seat.name for seat in table.seats] == ["a former player", "bob"]
    again = await (await s.slash(s.alice, s.channel, "privacy")).reply()
    assert "(seats: 0; tables: 0," in again.content
