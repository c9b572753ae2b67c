"""Reply -> Discord message pieces: mentions, the 2000-character limit, who may be pinged."""

from __future__ import annotations

from bot.adapters.discordbot.delivery import capitalised, personal, pinging, public_message, render, split, trim
from bot.core.replies import Attachment, Message, Reply, mention


def test_mentions_become_discord_mentions_for_discord_users_only() -> None:
    text = f"It's {mention('discord:42', 'bob')}'s turn; {mention('console:me', 'me')} waits."
    assert render(text) == "It's <@42>'s turn; **me** waits."


def test_long_texts_are_split_at_line_ends_and_trimmed_to_one_message() -> None:
    lines = [f"line {i:04} " + "x" * 80 for i in range(60)]
    text = "\n".join(lines)
    pieces = split(text)
    assert all(len(p) <= 2000 for p in pieces) and "\n".join(pieces) == text
    assert split("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]
    trimmed = trim(text)
    assert len(trimmed) <= 2000 and trimmed.startswith(lines[0]) and trimmed.endswith(lines[-1]) and "…" in trimmed


def test_only_the_waiting_players_are_pinged() -> None:
    reply = Reply(public=Message(f"{mention('discord:7', 'al')} and @everyone", [Attachment("b.png", b"png")]),
                  mentions=["discord:7", "console:x"])
    public = public_message(reply)
    assert public is not None and public.text == "<@7> and @everyone"
    allowed = public.mentions.to_dict()
    assert allowed["users"] == [7] and allowed["parse"] == [] and not allowed.get("replied_user")
    assert pinging([]).to_dict()["users"] == []


def test_personal_messages_carry_their_files_on_the_first_piece() -> None:
    message = Message("hand\n" + "z" * 2500, [Attachment("tronimoes-hand.png", b"png")])
    pieces = personal(message)
    assert [len(p.text) for p in pieces] == [4, 2000, 500]
    assert pieces[0].attachments and not pieces[1].attachments and not pieces[2].attachments
    assert personal(None) == [] and personal(Message()) == []
    assert capitalised("you are not playing at this table") == "You are not playing at this table."
    assert capitalised("say `draw`") == "Say `draw`."
    assert capitalised("done!") == "Done!"


def test_a_command_token_is_a_slash_command_on_discord():
    assert render("see `<c:board>` or <c:rules>") == "see `/board` or /rules"
