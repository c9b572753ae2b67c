"""Turning the referee's `Reply` into Discord messages.

- `public` goes to the table's thread as one message (board image attached, the players the
  game waits for mentioned; nobody else is pinged: `allowed_mentions` lists only them);
- `caller` goes only to whoever issued the command: ephemerally in an interaction;
- `private[seat]` is a seat's secret (a drawn tile): ephemerally to the caller in an
  interaction; without an interaction (a typed move, the clock) by DM, skipped if DMs are closed.

Public messages are built from `Reply.public` only, which never holds private events.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.adapters.discordbot.context import snowflake
from bot.adapters.discordbot.permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    can_post,
    lacking,
    refused_for_permission,
    tell_missing,
)
from bot.core.replies import (
    Attachment,
    Message,
    Reply,
    as_sentence,
    render_commands,
    render_links,
    render_mentions,
    render_names,
)

log = logging.getLogger(__name__)

LIMIT = 2000
NO_PINGS = discord.AllowedMentions.none()


def escaped(name: str) -> str:
    """A player's name as Discord text: markdown and mentions in it shown as typed."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def render(text: str) -> str:
    """Mention tokens as Discord mentions for Discord users, as bold names for anyone else; name
    tokens as escaped names; command tokens as slash commands. Time tokens are Discord's own
    (`<t:…:R>`) and stay as they are."""

    def one(user_id: str, name: str) -> str:
        snow = snowflake(user_id)
        return f"<@{snow}>" if snow is not None else f"**{escaped(name)}**"

    text = render_commands(text, lambda name: f"/{name}")
    return render_names(render_mentions(render_links(text, jump_link), one), escaped)


def jump_link(place: str, guild: str) -> str:
    """The address that opens a table's thread (`discord:<thread>` on `discord:<server>`)."""
    thread, server = snowflake(place), snowflake(guild)
    return f"https://discord.com/channels/{server}/{thread}" if thread is not None and server is not None else ""


def split(text: str, limit: int = LIMIT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at line ends where possible."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    if current or not pieces:
        pieces.append(current)
    return pieces


def trim(text: str, limit: int = LIMIT) -> str:
    """`text` cut to one message: middle lines dropped, the first and last kept."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    head, tail = lines[:1], lines[1:]
    marker = "…"
    while tail and len("\n".join([*head, marker, *tail])) > limit:
        tail.pop(0)
    result = "\n".join([*head, marker, *tail])
    return result if len(result) <= limit else text[: limit - 1] + marker


def files(attachments: Sequence[Attachment]) -> list[discord.File]:
    """Fresh `discord.File`s (a File can be sent once)."""
    return [discord.File(io.BytesIO(a.data), filename=a.filename, description=a.description or None)
            for a in attachments]


def pinging(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Allowed mentions: exactly these referee users (the ones the game waits for)."""
    users = [discord.Object(s) for u in user_ids if (s := snowflake(u)) is not None]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def capitalised(text: str) -> str:
    """A refusal's reason as a sentence (`as_sentence`: what a player types, a name or a mention
    it begins with stays as written). Give it the text before `render`, tokens and all."""
    return as_sentence(text)


@dataclass
class Outgoing:
    """One Discord message to send: text (≤ 2000), files, buttons, who may be pinged. `nonce`
    (≤ 25 characters), when set, is sent with `enforce_nonce` by `post` and `direct`: Discord
    then returns the message already created with it instead of posting it twice."""

    text: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=lambda: NO_PINGS)
    embeds: list[discord.Embed] = field(default_factory=list)
    nonce: str = ""
    silent: bool = False
    """Sent without a notification (`/notify quiet`; `post` and `direct` only)."""

    def kwargs(self) -> dict[str, Any]:
        """Arguments for `send`/`send_message`/`followup.send`; text beyond Discord's limit is
        cut (`trim`), so no message is ever refused for its length."""
        out: dict[str, Any] = {"content": trim(self.text) if self.text else None, "allowed_mentions": self.mentions}
        if self.attachments:
            out["files"] = files(self.attachments)
        if self.view is not None:
            out["view"] = self.view
        if self.embeds:
            out["embeds"] = self.embeds
        return out


def public_message(reply: Reply, view: discord.ui.View | None = None) -> Outgoing | None:
    """The one public message of a reply (text trimmed to fit), pinging the players it waits for."""
    if reply.public is None:
        return None
    return Outgoing(trim(render(reply.public.text)), list(reply.public.attachments), view, pinging(reply.mentions),
                    nonce=reply.public.nonce)


def personal(message: Message | None, *, refusal: bool = False) -> list[Outgoing]:
    """A message for one person, split to fit; files on the first piece; nobody pinged."""
    if message is None or (not message.text and not message.attachments):
        return []
    text = render(capitalised(message.text) if refusal else message.text)
    pieces = split(text) if text else [""]
    out = [Outgoing(piece, nonce=piece_nonce(message.nonce, n)) for n, piece in enumerate(pieces)]
    out[0].attachments = list(message.attachments)
    return out


def piece_nonce(nonce: str, piece: int) -> str:
    """The nonce of the `piece`-th message a long message is split into ("" stays "")."""
    return nonce if not nonce or piece == 0 else f"{nonce}:{piece}"[:25]


def sending(outgoing: Outgoing) -> dict[str, Any]:
    """Arguments for `Messageable.send`: `Outgoing.kwargs` and its nonce, if it has one."""
    kwargs = outgoing.kwargs()
    if outgoing.nonce:
        kwargs["nonce"] = outgoing.nonce  # discord.py sends it with enforce_nonce
    if outgoing.silent:
        kwargs["silent"] = True
    return kwargs


async def post(channel: discord.abc.Messageable, outgoing: Outgoing, *,
               reference: discord.Message | None = None) -> discord.Message:
    """Send a message to a channel (optionally as a reply to `reference`). Parts that need a
    permission the bot lacks there (files: Attach Files; embeds: Embed Links; the reply: Read
    Message History) are left out, as the bot's cached permissions say or as Discord's refusal
    shows, and the table is told once. Raises if it cannot be sent even so (the bot may not post
    there at all) or fails otherwise."""
    parts = {ATTACH_FILES: bool(outgoing.attachments), EMBED_LINKS: bool(outgoing.embeds),
             READ_MESSAGE_HISTORY: reference is not None}
    missing = lacking(channel, files=parts[ATTACH_FILES], embeds=parts[EMBED_LINKS], reply=parts[READ_MESSAGE_HISTORY])
    try:
        sent = await channel.send(**_send_arguments(outgoing, reference, missing))
    except discord.HTTPException as error:
        if not refused_for_permission(error) or not can_post(channel):
            raise
        known = lacking(channel, files=parts[ATTACH_FILES], embeds=parts[EMBED_LINKS],
                        reply=parts[READ_MESSAGE_HISTORY])
        # what the bot knows of its permissions may be behind Discord's: without a better
        # explanation, leave out every part that needs more than posting
        retry = known if known != missing else [name for name, present in parts.items() if present]
        if retry == missing:
            raise
        sent = await channel.send(**_send_arguments(outgoing, reference, retry))
        missing = known
    if missing:
        await tell_missing(channel, missing)
    return sent


def _send_arguments(outgoing: Outgoing, reference: discord.Message | None, missing: list[str]) -> dict[str, Any]:
    """`Messageable.send`'s arguments, without the parts that need a permission in `missing`."""
    if ATTACH_FILES in missing or EMBED_LINKS in missing:
        outgoing = dataclasses.replace(outgoing, attachments=[] if ATTACH_FILES in missing else outgoing.attachments,
                                       embeds=[] if EMBED_LINKS in missing else outgoing.embeds)
    kwargs = sending(outgoing)
    if reference is not None and READ_MESSAGE_HISTORY not in missing:
        kwargs["reference"] = reference
        kwargs["mention_author"] = False
    return kwargs


async def direct(client: discord.Client, user_id: str | None, messages: Sequence[Outgoing], *,
                 silent: bool = False) -> bool:
    """DM a referee user (`silent`: without a notification); False (and nothing raised) if they
    are not on Discord or refuse DMs."""
    snow = snowflake(user_id)
    if snow is None or not messages:
        return False
    try:
        user = client.get_user(snow) or await client.fetch_user(snow)
        for outgoing in messages:
            await user.send(**sending(dataclasses.replace(outgoing, silent=outgoing.silent or silent)))
    except (discord.Forbidden, discord.NotFound):
        log.info("could not DM %s (DMs closed or user gone)", user_id)
        return False
    except discord.HTTPException:
        log.warning("DM to %s failed", user_id, exc_info=True)
        return False
    return True
