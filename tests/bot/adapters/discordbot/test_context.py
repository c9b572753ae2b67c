"""Discord ids inside the referee's user ids: `discord:<digits 0 to 9>` only."""

from __future__ import annotations

from bot.adapters.discordbot.context import snowflake


def test_a_discord_user_id_gives_its_snowflake_and_anything_else_none():
    assert snowflake("discord:1234") == 1234
    for other in (None, "", "discord:", "console:1", "discord:²", "discord:１２", "discord:12a"):
        assert snowflake(other) is None
