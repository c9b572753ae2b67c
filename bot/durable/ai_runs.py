"""AI moves as records: what planning one needs (`AiJob`), one as committed (`AiMove`), and a
run of them told as one message (`merged`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.community.notifications import TURN_LIST
from bot.core.records import Notice
from bot.core.replies import Announcement, Message, Reply

RUN = "run"
"""The outbox kind of the row telling a run of AI moves as one message, in place of the moves'
own rows (`Store.merge_notices`)."""


@dataclass
class AiJob:
    """What planning an AI turn needs: the seat's view handed over (see `bot.workers.planning.handover`),
    the agent and its budget, and what a transport shows meanwhile (in the table's `language`)."""

    place: str
    seat: int
    name: str
    agent: str
    budget: float
    view: bytes
    language: str


@dataclass
class AiMove:
    """One AI move as committed: its announcement (`reply`, whose `announcement` holds the parts
    of its public text) and the outbox rows it committed for it (`notices`: the public message
    and private notes); `more`: the game waits for another AI seat after it."""

    reply: Reply
    notices: list[Notice]
    more: bool


def told_together(moves: list[AiMove]) -> Announcement:
    """A run of moves told as one: every move's story in order, then the last one's ending."""
    last = moves[-1].reply
    return Announcement([line for m in moves if m.reply.announcement for line in m.reply.announcement.story],
                        last.announcement.ending if last.announcement else [])


def merged(moves: list[AiMove], now: float, lease: float) -> tuple[Reply, list[Notice]]:
    """One announcement for a run of moves, and the outbox rows that stand for it (to replace
    the moves' own: `Store.merge_notices`, leased to this process for `lease` seconds): every
    move's story in order, then the last one's ending (who is next, or the result and the
    ratings); the people whose turn began anywhere in the run are pinged once; private notes
    joined per seat."""
    last = moves[-1].reply
    told = told_together(moves)
    private: dict[int, Message] = {}
    for move in moves:
        for seat, message in move.reply.private.items():
            joined = private.setdefault(seat, Message())
            joined.text = f"{joined.text}\n{message.text}".strip()
    mentions = list(dict.fromkeys(u for m in moves for u in m.reply.mentions))
    template = next((n for n in moves[-1].notices if n.seat is None), None)
    public = Message(told.text)
    reply = Reply(public=public, private=private, events=[e for m in moves for e in m.reply.events],
                  table_id=last.table_id, place=last.place, mentions=mentions, ply=last.ply, status=last.status,
                  announcement=told, controls=list(last.controls),
                  recipients={s: u for m in moves for s, u in m.reply.recipients.items()})
    if template is None:
        return reply, []
    rows = [replace(template, text=public.text, mentions=mentions, kind=RUN, created_at=now, lease_until=now + lease,
                    id=None)]
    rows += [replace(template, seat=seat, text=message.text, mentions=[], board=False, kind="private", created_at=now,
                     lease_until=now + lease, id=None) for seat, message in private.items()]
    lists = {n.mentions[0]: n for m in moves for n in m.notices if n.kind == TURN_LIST and n.mentions}
    rows += [replace(n, created_at=now, lease_until=now + lease, id=None) for n in lists.values()]
    reply.lists = dict.fromkeys(lists)
    return reply, rows
