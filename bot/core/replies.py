"""What the referee answers: public text and images, a note for the caller alone, private
messages per seat, and the engine's events. Transports turn a Reply into messages.

Text may contain four kinds of token, which each transport renders its own way:
* mentions `<@user-id|name>` (Discord: a real mention; the console: the name);
* names `<n:name>`: a player's name, which must never be read as markup (Discord escapes its
  markdown; the console prints it as it is);
* times `<t:1800000000:R>`: a moment, such as a deadline (Discord shows it in each reader's own
  time, counting down; the console says "in 5m");
* links `<l:place|server>`: the way to a table's place (Discord: a jump link to the thread; the
  console: nothing, and a " · " before it goes too);
* commands `<c:board>`: one of tileref's commands, written the way players of the transport type
  it (Discord: `/board`; the console: `board`), so texts kept in the outbox name no transport.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.core.i18n import _
from engine import Event


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    description: str = ""


@dataclass
class Message:
    """`nonce`: for a message that announces an outbox row, a key derived from that row
    (`bot.tables.notices.nonce_of`), the same every time it is sent, so a transport that deduplicates
    by it (Discord's `enforce_nonce`) posts it once however often it is sent."""

    text: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    nonce: str = ""


LONGEST_ANNOUNCEMENT = 1800
"""The most characters of text (tokens as written) one announcement may hold: every transport shows
it whole (Discord cuts at 2,000 rendered characters; a name's escaped markdown may add a few)."""


@dataclass
class Announcement:
    """A move's public message in its two parts: what happened (`story`), and how the game now
    stands (`ending`: whose turn, or the result and what it did to ratings; how to move). A run
    of moves is told as one message: every move's story, then the last one's ending."""

    story: list[str] = field(default_factory=list)
    ending: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(part for part in [*self.story, *self.ending] if part)


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
    notices: list[int] = field(default_factory=list)
    """The outbox entries this reply announces: the transport confirms them once delivered
    (`Tables.delivered`), else they are sent again."""
    stale: bool = False
    """Refused because the game changed since the sender looked."""
    early: bool = False
    """Refused because the game is not waiting for the sender (someone else's turn)."""
    origin: str = ""
    """For an announcement the outbox sends again: the command that first had it delivered
    (`Notice.origin`), so the transport can check whether its public message is already out."""
    committed_at: float | None = None
    """For an announcement the outbox sends again: when it was committed (Unix time)."""
    announcement: Announcement | None = None
    """For a move's announcement: the parts of `public`'s text (see `Announcement`)."""
    withdrawn: str = ""
    """For an announcement of moves that a rollback has undone since (the outbox sends it late):
    its own text, while `public` is the note saying it was not sent. The note goes out only if
    the announcement itself (this text) is not out already."""
    controls: list[str] = field(default_factory=list)
    """The buttons the public message carries, as the game stood when the reply was made
    (`hand`, `ready`, `join`, `rematch`): the transport needs not read the table again."""
    recipients: dict[int, str] = field(default_factory=dict)
    """Who each private part goes to: the user id of each seat in `private` held by a person."""
    quiet: set[str] = field(default_factory=set)
    """Recipients in their quiet hours (`/notify quiet`): their private parts go without a
    notification."""
    lists: dict[str, int | None] = field(default_factory=dict)
    """The players whose standing list of turns (`/notify list`) the transport shows again, each
    with the outbox entry that asks for it (`notices` holds it too; None: none)."""
    lobby: tuple[str, str] | None = None
    """When the reply changes who is away at the table or who stands in for them: the table's
    lobby message as the transport noted it (`bot.core.meta.LOBBY_MESSAGE`) and its new text, for
    the transport to edit it in place, so everyone sees who is away."""

    @property
    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.to is None]


def refusal(text: str, *, table_id: int | None = None, place: str | None = None,
            attachments: list[Attachment] | None = None) -> Reply:
    """A refused command: nothing changed, and only the caller is told why."""
    return Reply(ok=False, caller=Message(text, attachments or []), table_id=table_id, place=place)


NAME_LENGTH = 32


def clean_name(name: str) -> str:
    """A display name safe to store and to put in a token: no control characters, no angle
    brackets or bars (so it can never forge a token), one space between words, at most 32
    characters; never empty."""
    kept = "".join(" " if unicodedata.category(c).startswith(("C", "Z")) else c for c in name)
    kept = kept.replace("<", "‹").replace(">", "›").replace("|", "¦")
    kept = " ".join(kept.split())[:NAME_LENGTH].strip()
    return kept or "player"


def mention(user_id: str, name: str) -> str:
    """A token for `user_id` that transports render as a mention."""
    return f"<@{user_id}|{clean_name(name)}>"


def name_token(name: str) -> str:
    """A token for a player's name, which transports print without reading markup in it."""
    return f"<n:{clean_name(name)}>"


def deadline_token(when: float) -> str:
    """A token for a moment, rendered relative to the reader's now ("in 5m")."""
    return f"<t:{round(when)}:R>"


def link_token(place: str, guild: str | None) -> str:
    """A token for the way to a table's place on its server."""
    return f"<l:{place}|{guild or ''}>"


def command_token(name: str) -> str:
    """A token for one of tileref's commands (`board`, `rules`), which each transport writes the
    way its players type it."""
    return f"<c:{name}>"


_LINK = re.compile(r"( · )?<l:([^|>]*)\|([^>]*)>")
_COMMAND = re.compile(r"<c:([a-z_]+)>")
_MENTION = re.compile(r"<@([^|>]+)\|([^>]*)>")
_NAME = re.compile(r"<n:([^>]*)>")
_TIME = re.compile(r"<t:(-?[0-9]{1,12}):R>")


def render_mentions(text: str, render: Callable[[str, str], str]) -> str:
    """Replace each mention token with `render(user_id, name)`."""
    return _MENTION.sub(lambda m: render(m.group(1), m.group(2)), text)


def render_links(text: str, render: Callable[[str, str], str]) -> str:
    """Replace each link token with `render(place, server)`; a link rendered as nothing takes the
    " · " before it along (no dangling "· now ·")."""

    def one(match: re.Match[str]) -> str:
        link = render(match.group(2), match.group(3))
        return f"{match.group(1) or ''}{link}" if link else ""

    return _LINK.sub(one, text)


def render_commands(text: str, render: Callable[[str], str]) -> str:
    """Replace each command token with `render(name)`."""
    return _COMMAND.sub(lambda m: render(m.group(1)), text)


def render_names(text: str, render: Callable[[str], str]) -> str:
    """Replace each name token with `render(name)`."""
    return _NAME.sub(lambda m: render(m.group(1)), text)


def render_times(text: str, now: float | None = None) -> str:
    """Time tokens as "in 5m" (or "now") from `now` (default: the system clock)."""
    from bot.core.durations import format_duration

    moment = time.time() if now is None else now

    def one(match: re.Match[str]) -> str:
        left = int(match.group(1)) - moment
        return _("in {time}").format(time=format_duration(left)) if left >= 1 else _("now")

    return _TIME.sub(one, text)


_NOTATION = re.compile(r"[\d_=:,/@#+*<>\[\](){}|\\]")
"""A character that makes a word notation a player types (a cell like r9c9, a tile like 3:5, an
option like ai_seconds=2), never an ordinary word."""


def as_sentence(text: str) -> str:
    """A refusal's reason as a sentence: a capital first letter and a full stop at the end. What
    it begins with that a player types or reads as written stays exactly as written: a token (a
    name, a mention), code in backticks, a quotation, or notation (a word with a digit or a sign
    in it, or a capital inside). Code that reads like a word (a letter, an option name) is written
    in backticks by whoever writes the message."""
    if not text:
        return text
    start = len(text) - len(text.lstrip("¿¡"))
    words = text[start:].split(maxsplit=1)
    word = words[0].rstrip(".,;:!?)") if words else ""
    if (word and text.startswith(word, start) and word[0].islower() and not _NOTATION.search(word)
            and not any(c.isupper() for c in word[1:])):
        text = text[:start] + text[start].upper() + text[start + 1:]
    return f"{text}." if text[-1].isalnum() or text[-1] in "`'\")" else text


def plain(text: str, now: float | None = None) -> str:
    """Every token as plain text: mentions and names as the names, times as "in 5m", commands
    by their names (as the terminal takes them)."""
    text = render_commands(render_links(text, lambda _place, _server: ""), lambda name: name)
    return render_times(render_names(render_mentions(text, lambda _user, name: name), lambda name: name), now)


def terminal_text(text: str, colour: bool = False, now: float | None = None) -> str:
    """Chat text for a terminal: every token plain (`plain`), **bold** in bold where the terminal
    shows colours (else the words alone) and `code` marks left out."""
    text = plain(text, now)
    text = re.sub(r"\*\*(.+?)\*\*", (lambda m: f"\x1b[1m{m.group(1)}\x1b[0m") if colour else r"\1", text)
    return re.sub(r"`([^`]+)`", r"\1", text)
