"""What reached the tables' threads, against the outbox: which message stands for which public
outbox row, and every way an announcement was doubled or lost.

`audit(rows, messages)` takes the public outbox rows (`seat IS NULL`) of some tables and the
bot's messages in their threads as they finally stand, and finds, for each message, the rows it
stands for:

- a message sent with a nonce stands for the row of that nonce (`bot.tables.notices.nonce_of`);
- an interaction's answer (no nonce) for the row that interaction committed (the row's origin);
- otherwise, for the row whose text it shows;
- a run of AI moves announced as one message (each move's story, then who is next after the
  last) also stands for the earlier rows whose stories it shows: the message is read backwards
  from its anchor row over the table's rows before it, one story at a time;
- "(The announcement of move N was not sent: a moderator has rolled the game back…)" stands for
  the row of move N that a rollback undid;
- a row of kind `run` tells a run of AI moves in place of the moves' own rows, which point at it
  (`merged_into`): the messages standing for it stand for each of them. It is not required
  itself: its moves are.

Each row must then appear exactly once: a row whose moves a later rollback undid either as its
announcement or as that note (one of the two, once); a row without a picture (the replay GIF,
a reminder) that a rollback undid may also be dropped silently. Counted per game:
`duplicates` (a row shown by two messages, or noted twice), `lost` (a row shown by none),
`false_notes` (a "was not sent" note for a row whose announcement is in the thread, or whose
moves were never undone), `unsent_left` (a row never confirmed), `unexplained_messages` (a
picture standing for no row). Also counted, to explain rather than to judge: messages posted
after the announcement of a move committed later (`announced_after_a_later_move`: a re-send
after a crash, or a late one), rolled-back moves announced after their rollback, "thinking…"
placeholders never filled, texts posted twice, messages whose text differs from their rows'.
Pure: no I/O, so tests feed it made-up rows and messages.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.adapters.discordbot.delivery import render, trim
from bot.core.records import Notice
from bot.tables.notices import nonce_of

NOTE = re.compile(r"^\(The announcement of move (\d+) was not sent: a moderator has rolled the game back to move "
                  r"(\d+) since\.\)$")
ROLLBACK = re.compile(r"rolled the game back to move (\d+)")
INTERACTION = "interaction:"
RUN = "run"
"""The kind of a row telling a run of AI moves (`bot.durable.ai_runs.RUN`)."""
TRIMMED = "…"
"""The line `delivery.trim` puts where it cut a message too long for Discord."""


@dataclass(frozen=True)
class Row:
    """A public row of the outbox: one announcement for a table's thread (`text` as committed,
    its tokens not yet rendered)."""

    id: int
    table_id: int
    game: str
    place: str
    ply: int
    text: str
    kind: str = "move"
    board: bool = True
    origin: str = ""
    delivered: bool = True
    merged_into: int | None = None
    """The `run` row telling this row's move together with the others of its run, if any."""

    @cached_property
    def nonce(self) -> str:
        """The nonce the outbox sends this row's message with."""
        return nonce_of(Notice(self.table_id, self.place, self.ply, self.text, id=self.id))

    @cached_property
    def shown(self) -> list[str]:
        """The lines of the row's message as Discord shows it."""
        return trim(render(self.text)).split("\n")

    @cached_property
    def rollback_to(self) -> int | None:
        """The move this row's rollback took the game back to, if it announces one."""
        found = ROLLBACK.search(self.text)
        return int(found.group(1)) if found else None


@dataclass(frozen=True)
class Posted:
    """A message the bot posted in a table's thread, as it finally stands (deleted and ephemeral
    messages are not given)."""

    id: int
    place: str
    content: str
    nonce: str | None = None
    interaction: int | None = None
    files: tuple[str, ...] = ()
    loading: bool = False
    """A "thinking…" placeholder never filled."""


@dataclass
class Finding:
    """One announcement gone wrong: `problem` is duplicate, lost, false_note, unsent or
    unexplained; `messages` are the thread's messages involved; `how` says how they were matched."""

    problem: str
    game: str
    place: str
    row: int | None
    ply: int | None
    kind: str
    text: str
    messages: list[int] = field(default_factory=list)
    how: str = ""

    def json(self) -> dict[str, Any]:
        return {"problem": self.problem, "game": self.game, "place": self.place, "row": self.row, "ply": self.ply,
                "kind": self.kind, "text": self.text, "messages": self.messages, "how": self.how}


@dataclass
class Audit:
    """Which messages stand for which rows, and what went wrong (see the module's docstring)."""

    rows: list[Row]
    shown_by: dict[int, list[tuple[int, str]]] = field(default_factory=lambda: defaultdict(list))
    """Row id -> (message id, how it was matched) of every announcement showing it."""
    noted_by: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    """Row id -> ids of the "was not sent" notes standing for it."""
    undone_by: dict[int, int] = field(default_factory=dict)
    """Row id -> the id of the rollback row that undid its moves."""
    messages_of: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    """Game -> ids of the announcements (messages standing for at least one row)."""
    notes_of: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    merged: set[int] = field(default_factory=set)
    """Ids of the rows shown by a message that shows several."""
    cut: set[int] = field(default_factory=set)
    """Ids of the rows of a run of AI moves whose stories were cut from its message (too long)."""
    findings: list[Finding] = field(default_factory=list)
    extra: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Game -> informational counts (placeholders left, texts posted twice, …)."""

    def figures(self, game: str | None = None) -> dict[str, int]:
        """The counts for one game (all games if None)."""
        rows = [r for r in self.rows if game is None or r.game == game]
        found = Counter(f.problem for f in self.findings if game is None or f.game == game)
        games = [game] if game is not None else sorted({r.game for r in self.rows} | set(self.extra))
        extra: Counter[str] = Counter()
        for name in games:
            extra.update(self.extra[name])
        required = [r for r in rows if self.required(r)]
        return {
            "tables": len({r.table_id for r in rows}),
            "announcements_expected": len(required),
            "rows_rolled_back": sum(1 for r in rows if r.id in self.undone_by),
            "rows_optional": len(rows) - len(required),
            "announcements_posted": sum(len(self.messages_of[g]) for g in games),
            "rows_announced": sum(1 for r in rows if r.kind != RUN and self.shown_by.get(r.id)),
            "rows_in_merged_messages": sum(1 for r in rows if r.id in self.merged),
            "notes_posted": sum(len(self.notes_of[g]) for g in games),
            "duplicates": found["duplicate"],
            "lost": found["lost"],
            "false_notes": found["false_note"],
            "unsent_left": found["unsent"],
            "unexplained_messages": found["unexplained"],
            "rolled_back_announced_after_the_rollback": extra["late"],
            "announced_after_a_later_move": extra["out_of_order"],
            "same_text_twice": extra["same_text"],
            "placeholders_left": extra["placeholder"],
            "text_differs_from_its_row": extra["text_differs"],
        }

    def required(self, row: Row) -> bool:
        """Whether the row must appear (as its announcement, or as the note for it): every row
        but one without a picture that a rollback undid, and a `run` row (its moves are)."""
        if row.kind == RUN:
            return False
        return row.id not in self.undone_by or (row.board and row.kind == "move")


def audit(rows: Iterable[Row], messages: Iterable[Posted]) -> Audit:
    """Match `messages` to `rows` and count what went wrong (see the module's docstring)."""
    rows = sorted(rows, key=lambda r: r.id)
    result = Audit(rows)
    by_place: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_place[row.place].append(row)
    posted: dict[str, list[Posted]] = defaultdict(list)
    for message in sorted(messages, key=lambda m: m.id):
        posted[message.place].append(message)
    for place in sorted(set(by_place) | set(posted)):
        _place(result, by_place[place], posted[place])
    return result


def _place(result: Audit, rows: list[Row], messages: list[Posted]) -> None:
    """Match one thread's messages to its rows, then judge each row."""
    game = rows[0].game if rows else "?"
    _find_undone(result, rows)
    by_nonce = {r.nonce: r for r in rows}
    by_origin: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row.origin and row.kind != "replay":
            by_origin[row.origin].append(row)
    notes: list[tuple[Posted, int, int]] = []
    texts: Counter[str] = Counter()
    message_of_row: dict[int, int] = {}
    newest: dict[int, int] = {}  # table -> the last row announced so far, in commit order
    for message in messages:
        if message.loading:
            result.extra[game]["placeholder"] += 1
            continue
        if message.content:
            texts[message.content] += 1
        note = NOTE.match(message.content)
        if note:
            notes.append((message, int(note.group(1)), int(note.group(2))))
            result.notes_of[game].append(message.id)
            continue
        anchor, how = _anchor(message, rows, by_nonce, by_origin, result)
        if anchor is None:
            if message.files:  # a picture that stands for no announcement
                result.findings.append(Finding("unexplained", game, message.place, None, None, "",
                                               _first_line(message.content), [message.id], "no row"))
            continue
        shown, cut, differs = _decompose(message, anchor, rows)
        result.cut.update(r.id for r in cut)
        if differs:
            result.extra[game]["text_differs"] += 1
        result.messages_of[game].append(message.id)
        latest = newest.get(anchor.table_id, 0)
        if min(r.id for r in shown) < latest:  # a move committed after it was announced before it
            result.extra[game]["out_of_order"] += 1
        newest[anchor.table_id] = max(latest, *(r.id for r in shown))
        for row in shown:
            result.shown_by[row.id].append((message.id, how if row is anchor else "merged"))
            message_of_row.setdefault(row.id, message.id)
            if len(shown) > 1:
                result.merged.add(row.id)
    result.extra[game]["same_text"] += sum(n - 1 for n in texts.values())
    for message, move, to in notes:
        _place_note(result, rows, message, move, to)
    for row in rows:
        if row.merged_into is not None:  # told by its run's messages (and notes)
            result.shown_by[row.id] += [(m, f"run by {how}") for m, how in result.shown_by.get(row.merged_into, [])]
            result.noted_by[row.id] += result.noted_by.get(row.merged_into, [])
            if result.shown_by.get(row.merged_into):
                result.merged.add(row.id)
    for row in rows:
        if row.kind == RUN:
            if not row.delivered:
                result.findings.append(Finding("unsent", row.game, row.place, row.id, row.ply, row.kind,
                                               _first_line(row.shown[0]), [], "left unconfirmed in the outbox"))
            continue
        _judge(result, row, message_of_row)


def _find_undone(result: Audit, rows: list[Row]) -> None:
    """Each row whose moves a later rollback of its table undid (a rollback to a move before it)."""
    for row in rows:
        for later in rows:
            if (later.id > row.id and later.table_id == row.table_id and later.rollback_to is not None
                    and later.rollback_to < row.ply):
                result.undone_by[row.id] = later.id
                break


def _anchor(message: Posted, rows: list[Row], by_nonce: dict[str, Row], by_origin: dict[str, list[Row]],
            result: Audit) -> tuple[Row | None, str]:
    """The row a message was sent for (the last of the rows it shows), and how it was found."""
    lines = message.content.split("\n")
    if message.nonce and message.nonce in by_nonce:
        return by_nonce[message.nonce], "nonce"
    if message.interaction is not None:
        answered = by_origin.get(f"{INTERACTION}{message.interaction}", [])
        if answered:
            return next((r for r in answered if r.shown == lines), answered[-1]), "interaction"
    same = [r for r in rows if r.shown == lines]
    if same:
        fresh = [r for r in same if not result.shown_by.get(r.id)]
        return (fresh or same)[-1], "text"
    tails = [(k, r) for r in rows for k in range(2, min(len(lines), len(r.shown)) + 1) if lines[-k:] == r.shown[:k]]
    if tails:
        return max(tails, key=lambda t: (t[0], t[1].id))[1], "text"
    return None, ""


def _decompose(message: Posted, anchor: Row, rows: list[Row]) -> tuple[list[Row], list[Row], bool]:
    """The rows a message shows: its anchor and, for a run of AI moves announced as one message
    (each move's story, then who is next after the last), the rows before the anchor whose
    stories come before the anchor's, read backwards one story at a time. A message cut to
    Discord's length (`delivery.trim`: its first line, "…", then the end) shows the run's first
    row and its last ones: the rows in between are returned apart, as cut from it. Also whether
    the message's text differs from what its rows explain (a line added or missing)."""
    lines = message.content.split("\n")
    mine = anchor.shown
    if lines == mine:
        return [anchor], [], False
    start = next((k for k in range(len(lines)) if lines[k:] == mine[:len(lines) - k]), None)
    if start is None:
        return [anchor], [], True
    left = lines[:start]
    shown, cut = [anchor], []
    earlier = [r for r in rows if r.table_id == anchor.table_id and r.id < anchor.id and r.kind == "move"]
    for row in reversed(earlier):
        if not left:
            break
        theirs = row.shown
        if left[-1] == TRIMMED:  # the lines between the first and these were cut
            head = left[:-1]
            if head and theirs[:len(head)] == head and len(theirs) > len(head):
                shown.append(row)
                left = []
            else:
                cut.append(row)
            continue
        story = max((j for j in range(1, len(theirs)) if j <= len(left) and left[-j:] == theirs[:j]), default=0)
        if story == 0:
            break
        shown.append(row)
        left = left[:-story]
    if left:  # no row of the run explains these lines: what was cut is unknown
        cut = []
    return shown, cut, bool(left)


def _place_note(result: Audit, rows: list[Row], message: Posted, move: int, to: int) -> None:
    """The row a "was not sent" note stands for: the row of that move a rollback undid (one not
    announced and not noted yet, if there is one); a note for a move no rollback undid is false."""
    of_move = [r for r in rows if r.ply == move and r.kind == "move"]
    undone = [r for r in of_move if r.id in result.undone_by]
    for choices in ([r for r in undone if not result.shown_by.get(r.id) and not result.noted_by.get(r.id)],
                    [r for r in undone if not result.noted_by.get(r.id)], undone, of_move):
        if choices:
            result.noted_by[choices[0].id].append(message.id)
            return
    game = rows[0].game if rows else "?"
    result.findings.append(Finding("false_note", game, message.place, None, move, "move", message.content,
                                   [message.id], f"no row of move {move} (rolled back to {to})"))


def _judge(result: Audit, row: Row, message_of_row: dict[int, int]) -> None:
    """Whether the row appeared exactly once (as its announcement or, if a rollback undid it, as
    the note for it)."""
    shown = result.shown_by.get(row.id, [])
    noted = result.noted_by.get(row.id, [])
    undone = row.id in result.undone_by

    def finding(problem: str, messages: list[int], how: str) -> None:
        result.findings.append(Finding(problem, row.game, row.place, row.id, row.ply, row.kind,
                                       _first_line(row.shown[0]), messages, how))

    if len(shown) > 1:
        finding("duplicate", [m for m, _ in shown], "+".join(how for _, how in shown))
    if len(noted) > 1:
        finding("duplicate", noted, "note+note")
    if noted and (shown or not undone):
        finding("false_note", [*(m for m, _ in shown), *noted],
                "announced and noted" if shown else "noted, but no rollback undid it")
    if not shown and not noted and result.required(row):
        finding("lost", [], "rolled back, neither announced nor noted" if undone else
                "cut from its AI run's message (too long)" if row.id in result.cut else "never announced")
    if not row.delivered:
        finding("unsent", [], "left unconfirmed in the outbox")
    if undone and shown:
        rollback = message_of_row.get(result.undone_by[row.id])
        if rollback is not None and shown[0][0] > rollback:
            result.extra[row.game]["late"] += 1


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0][:120]
