"""What the referee answers: public text and images, a note for the caller alone, private
messages per seat, and the engine's events. Transports turn a Reply into messages.

Text may contain mention tokens `<@user-id|name>`; each transport renders them (Discord as a real
mention, the console as the name) with `render_mentions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Event


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    description: str = ""


@dataclass
class Message:
    text: str = ""
    attachments: list[Attachment] = field(default_factory=list)


@dataclass
class Reply:
    """The answer to one command. `ok` is False for a refusal, whose reason is in `caller`.

    `public` goes to everyone at the table's place; `caller` only to whoever issued the command;
    `private[seat]` only to that seat's player (a drawn tile, a hand). `mentions` are the user
    ids the game now waits for."""

    ok: bool = True
    public: Message | None = None
    caller: Message | None = None
    private: dict[int, Message] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    table_id: int | None = None
    place: str | None = None
    mentions: list[str] = field(default_factory=list)
    ply: int | None = None
    status: str | None = None
    unreadable: bool = False
    """A refused move that could not be read as a move at all (chat, not a move)."""

    @property
    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.to is None]


def refusal(text: str, *, table_id: int | None = None, place: str | None = None,
            attachments: list[Attachment] | None = None) -> Reply:
    """A refused command: nothing changed, and only the caller is told why."""
    return Reply(ok=False, caller=Message(text, attachments or []), table_id=table_id, place=place)


def mention(user_id: str, name: str) -> str:
    """A token for `user_id` that transports render as a mention."""
    return f"<@{user_id}|{name.replace('>', '').replace('|', '')}>"


_MENTION = re.compile(r"<@([^|>]+)\|([^>]*)>")


def render_mentions(text: str, render: Callable[[str, str], str]) -> str:
    """Replace each mention token with `render(user_id, name)`."""
    return _MENTION.sub(lambda m: render(m.group(1), m.group(2)), text)


def plain(text: str) -> str:
    """Mention tokens replaced by names."""
    return render_mentions(text, lambda _user, name: name)
