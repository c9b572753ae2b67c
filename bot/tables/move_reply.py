"""What a committed change says: the public announcement (what happened, the ratings line when it
ends the game, who is next), each seat's private notes, and whom to ping."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.community.accessibility import text_play_messages
from bot.community.notifications import TURN_LIST, deferred_pings, list_keepers, plan_pings
from bot.community.ratings import Ratings
from bot.core import absence
from bot.core.i18n import N_, _, said
from bot.core.meta import FOOT, LOBBY_MESSAGE, QUESTS
from bot.core.records import FINISHED, PLAYING, Notice, TableRecord
from bot.core.replies import Announcement, Message, Reply, command_token
from bot.storage.standings import Write
from bot.storage.store import Store
from bot.tables.absence import away_notes, came_back_line
from bot.tables.change import Change
from bot.words import narration
from bot.words.wording import lobby_text
from engine import Game

log = logging.getLogger(__name__)

VISION_QUEST = N_("🐔 You are chicken-footed! Go on a vision quest: search for a picture of how that feels with "
                  "`{quest}` and a few words, and pick one. It is drawn at the end of your line from then on. The "
                  "game does not wait for you to choose.")


def move_reply(change: Change, *, headline: str = "", move_help: bool = True) -> Reply:
    """The announcement of the change (its public text is composed once everything is in it: the
    ratings line goes into its ending), the private notes its events leave, and whom to ping.
    `move_help`: the ending says how to type a move."""
    table, game = change.table, change.game
    told = Announcement(
        story=[headline, came_back_line(change),
               narration.what_happened(change.events, narration.forced_lines(table, game, change.forced))],
        ending=[narration.who_is_next(table, game, change.deadlines, change.on_vacation()),
                narration.how_to_move(table, game) if move_help else ""])
    private: dict[int, Message] = {}
    for event in change.events:
        if event.to is not None and not table.seats[event.to].is_ai:
            message = private.setdefault(event.to, Message())
            message.text = f"{message.text}\n{said(event.template, dict(event.args), event.text)}".strip()
    for seat, note in away_notes(change).items():
        message = private.setdefault(seat, Message())
        message.text = f"{message.text}\n{note}".strip()
    pinged = [u for s in pinged_seats(change) if (u := table.seats[s].user_id)]
    return Reply(public=Message(), private=private, events=list(change.events), table_id=table.id,
                 place=table.place, mentions=pinged, ply=len(game.log), status=table.status, announcement=told)


def pinged_seats(change: Change) -> list[int]:
    """The seats whose turn began with this change, but for those that began it themselves."""
    table = change.table
    acted = {a.seat for a in change.actions if a.seat >= 0 and a.actor == table.seats[a.seat].user_id}
    return sorted(change.fresh - acted)


async def tell_turns(store: Store, change: Change, reply: Reply) -> None:
    """Tell the players whose turn began, each pinged once a turn (`notifications.plan_pings`):
    add to each seat's private part of `reply` the message telling its player, for those who
    asked for one (`/notify dm`), and keep from pinging by their mention those who are told so,
    are in their quiet hours, or were pinged for this turn already. Every commit that can begin a
    turn comes through here; a turn the player began themselves brings no message."""
    table = change.table
    told = [s for s in pinged_seats(change) if table.seats[s].user_id != change.began_by]
    turn = change.game.turn_count()
    turns = {seat: [turn, ply] for seat, (ply, _since) in change.waiting.items()}
    pings = await plan_pings(store, table, told, reply.mentions, change.deadlines, change.now, turns, change.choices)
    change.ping_later(deferred_pings(table, told, change.choices, change.now, turns))
    reply.mentions = [u for u in reply.mentions if u not in pings.silenced]
    for seat, text in pings.direct.items():
        message = reply.private.setdefault(seat, Message())
        message.text = f"{message.text}\n{text}".strip()


async def tell_turns_in_words(store: Store, change: Change, reply: Reply) -> None:
    """Add to each seat's private part of `reply`, for the players who chose text-first play
    (`/accessibility text on`), the board in words and their legal moves: for every seat whose
    turn began with this change, and for one that moved and is still to move (a draw before
    laying, a double's extra turn, a simultaneous phase), whose moves have changed."""
    table, game = change.table, change.game
    if table.status != PLAYING or game.outcome() is not None:
        return
    acted = {a.seat for a in change.actions if a.seat >= 0}
    seats = [s for s in game.to_move() if s in change.fresh or s in acted]
    for seat, text in (await text_play_messages(store, table, game, seats)).items():
        message = reply.private.setdefault(seat, Message())
        message.text = f"{message.text}\n{text}".strip()


async def lists_to_show(store: Store, change: Change) -> dict[int, str]:
    """The players whose standing list of turns this change alters (seat -> user id): those the
    game waited for before it or waits for after it, or whose turn began again."""
    table = change.table
    after = set(change.waiting) if table.status == PLAYING else set()
    return await list_keepers(store, table, sorted((change.waited_before ^ after) | change.fresh), change.choices)


def lobby_edit(change: Change, reply: Reply) -> Reply:
    """`reply`, asking its transport to edit the table's lobby message (if it noted one) when
    this change marked players away or brought them back: it says who is away and who stands in."""
    message = change.table.meta.get(LOBBY_MESSAGE)
    if message is not None and (change.went_away or change.returned):
        reply.lobby = (str(message), lobby_text(change.table))
    return reply


def list_notices(notice: Callable[..., Notice], lists: dict[int, str]) -> list[Notice]:
    """The outbox notes that each of `lists`' players' standing list is to be shown again
    (`notice` makes one, as `Tables.notice` does)."""
    return [notice(seat=seat, kind=TURN_LIST, mentions=[user]) for seat, user in sorted(lists.items())]


async def rate(ratings: Ratings, change: Change, reply: Reply) -> Write | None:
    """For a game this change finished: its rating changes added to the announcement, and the
    writes that record them with the commit. A rating that cannot be worked out never keeps the
    game from ending: it is logged, and `tileref ratings rebuild` rates the game."""
    try:
        entries = await game_log(ratings.store, change)
        changes = await ratings.preview(change.table, change.game, change.now, entries)
        write = ratings.recording(change.table, change.game, change.now, entries)
    except Exception:
        log.exception("rating table %s failed; it ends unrated", change.table.id)
        return None
    if changes and reply.announcement is not None:
        reply.announcement.ending.insert(1, changes)  # after the result, before anything else
    return write


async def game_log(store: Store, change: Change) -> list[tuple[int, str, str]]:
    """The whole log of the change's game as (seat, action, actor) triples, this change's own
    entries included, for the absent players' rule of the ratings (`ratings.absentees`); [] at
    a table of two seats, where that rule does not apply (no log is read)."""
    if absence.mode_of(change.table) is None:
        return []
    stored = await store.actions(change.table.id)
    return [(a.seat, a.action, a.actor) for a in [*stored[:change.start_length], *change.actions]]


def ask_for_pictures(change: Change, reply: Reply) -> None:
    """The first time the rules let a player choose a picture (the first chicken-foot of the
    game), ask them privately; the game never waits for their answer."""
    asked = change.table.meta.setdefault(QUESTS, [])
    for event in change.events:
        if event.data.get("picture") != FOOT or not event.seats:
            continue
        seat = event.seats[0]
        if seat in asked or change.table.seats[seat].is_ai:
            continue
        asked.append(seat)
        message = reply.private.setdefault(seat, Message())
        message.text = f"{message.text}\n{_(VISION_QUEST).format(quest=command_token('quest'))}".strip()


def controls(table: TableRecord, game: Game | None) -> list[str]:
    """The buttons a message showing the game carries: Rematch once it is over; while it is
    played, Show hand, Ready while a round break waits for players (`Game.between_rounds`: the
    game's legal moves are not listed for it, which is costly in some games), and Join while the
    game lets newcomers sit down."""
    if table.status == FINISHED:
        return ["rematch"]
    if table.status != PLAYING or game is None:
        return []
    ready = game.between_rounds() and bool(game.to_move())
    joinable = type(game).allows_join and game.players < type(game).max_players and game.outcome() is None
    return ["hand", *(["ready"] if ready else []), *(["join"] if joinable else [])]


def addressed(reply: Reply, table: TableRecord, game: Game | None) -> Reply:
    """`reply` with its buttons and the user id of each seat its private parts go to (see
    `Reply.controls` and `Reply.recipients`), from the table as the command left it."""
    if reply.public is not None:
        reply.controls = controls(table, game)
    reply.recipients = {seat: user for seat in reply.private
                        if 0 <= seat < len(table.seats) and (user := table.seats[seat].user_id)}
    return reply
