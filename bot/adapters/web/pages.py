"""The HTML of the spectator pages: a whole page, or its changing part (`main_part`) for the
script to swap in without a reload, and the move list's items (`move_items`) for a live update
to append. Readable without JavaScript: the board is an image, the move list a list of links
(`?ply=N`). Everything written here comes from a `Spectacle`, which holds nothing hidden; every
text is escaped. The caller speaks the table's language.

The parts the script finds by name: `data-part="play"` (status, board, step controls) and
`data-part="players"` are replaced on each step; the move list (`.moves ol`) only grows (each
item's `value` is its ply) and its shown item is marked `aria-current`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

import renderers
from bot.core.i18n import _
from bot.core.records import ABORTED, FINISHED, LOBBY, PLAYING, TableRecord
from bot.media.spectator import Entry, Spectacle
from bot.words.wording import clock_text, pieces_count
from engine import GAMES

ASSETS = "/static"
SPEEDS = ((2000, "0.5×"), (1000, "1×"), (500, "2×"), (250, "4×"))
"""Autoplay's speeds: milliseconds per move, and how each is shown (1×: a move a second)."""


@dataclass(frozen=True)
class Extras:
    """What a page shows besides the spectacle: `origin` (scheme and host, for the link preview's
    absolute addresses; "" leaves them relative), each seat's rating as shown ("1520",
    "1480 (provisional)"), and how many parts the board can be shown in (`renderers.board_parts`:
    Tetromic's boards one at a time on a phone)."""

    origin: str = ""
    ratings: Mapping[int, str] | None = None
    parts: int = 1


def page(spectacle: Spectacle, token: str, language: str, extras: Extras = Extras()) -> str:
    """The whole page of a table at the spectacle's ply."""
    preview = _preview(spectacle, token, extras.origin)
    return shell(spectacle.table, token, language, main_part(spectacle, token, extras), ply=spectacle.ply,
                 last=spectacle.last, live=spectacle.live, preview=preview, at=spectacle.last_key,
                 ended=ended(spectacle))


def lobby_page(table: TableRecord, token: str, language: str, origin: str = "") -> str:
    """The page of a table whose game has not started: who is seated so far."""
    names = ", ".join(seat.name for seat in table.seats)
    preview = {"og:title": _("{game}: {players}").format(game=GAMES[table.game].title, players=names)
               if names else GAMES[table.game].title,
               "og:description": _("The game has not started yet."),
               "og:url": f"{origin}/t/{token}"}
    return shell(table, token, language, lobby_part(table), ply=0, last=0, live=True, preview=preview)


def lobby_part(table: TableRecord) -> str:
    names = "".join(f"<li>{escape(seat.name)}</li>" for seat in table.seats)
    waiting = (_("The game has not started yet.") if table.status == LOBBY
               else _("This game was stopped by a moderator."))
    clock = f' <span class="clock-kind">{escape(clock_text(table))}</span>' if table.status == LOBBY else ""
    return (f'<div class="play" data-part="play"><p class="status">{escape(waiting)}{clock}</p></div>'
            f'<div class="side"><section class="players" data-part="players"><h2>{escape(_("Players"))}</h2>'
            f"<ul>{names}</ul></section></div>")


def shell(table: TableRecord, token: str, language: str, main: str, *, ply: int, last: int, live: bool,
          preview: Mapping[str, str] | None = None, at: str = "", ended: bool = False) -> str:
    """A page around its changing part `main`; `preview`: the link preview's Open Graph tags
    (`og:title`, `og:description`, `og:image`...), which chat apps read to unfurl the link. `at`
    names the newest position the page knows (`Spectacle.last_key`: the live stream tells what
    came after it); `ended`: no more moves will come."""
    title = GAMES[table.game].title
    tags = "".join(f'<meta property="{escape(key)}" content="{escape(value)}">'
                   for key, value in (preview or {}).items() if value)
    if preview and preview.get("og:image"):
        tags += '<meta name="twitter:card" content="summary_large_image">'
    if preview and preview.get("og:description"):
        tags += f'<meta name="description" content="{escape(preview["og:description"])}">'
    heading = preview.get("og:title", title) if preview else title
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f'<title>{escape(heading)} · tileref</title><meta property="og:site_name" content="tileref">'
            f'<meta property="og:type" content="website">{tags}'
            f'<link rel="stylesheet" href="{ASSETS}/watch.css"><script src="{ASSETS}/watch.js" defer></script>'
            f'</head><body data-token="{escape(token)}"><header><h1>{escape(title)}</h1>'
            f'<p class="sub">{escape(_("Spectator view: nobody’s hand is shown."))}</p></header>'
            f'<p id="announce" class="visually-hidden" aria-live="polite" aria-atomic="true"></p>'
            f'<p id="connection" hidden data-lost="{escape(_("Reconnecting…"))}" '
            f'data-gone="{escape(_("The server has stopped. Reload the page later to replay this game."))}"></p>'
            f'<main id="spectacle" data-ply="{ply}" data-last="{last}" data-live="{int(live)}" data-at="{escape(at)}" '
            f'data-ended="{int(ended)}">{main}</main>'
            f'<footer><p>{escape(_("Keys: ← and → step through the moves, Home and End go to the start and now."))}'
            "</p></footer></body></html>")


def main_part(spectacle: Spectacle, token: str, extras: Extras = Extras()) -> str:
    """What changes as the game goes on or the reader steps through it."""
    return (f'<div class="play" data-part="play">{_status(spectacle)}{_board(spectacle, token, extras)}</div>'
            f'<div class="side">{_players(spectacle, extras.ratings or {})}{_moves(spectacle)}'
            f"{_downloads(token)}</div>")


def board_address(token: str, key: str) -> str:
    """Where the board picture of the position `key` names is (relative to the server; the key,
    `Spectacle.key`, holds the ply and a digest of the log up to it, so the address never shows
    another board)."""
    return f"/t/{token}/board/{key}.png"


def part_address(picture: str, part: int) -> str:
    """Where one part of the board picture at `picture` is (Tetromic: one seat's board alone)."""
    return f"{picture}{'&' if '?' in picture else '?'}part={part}"


ALT_LIMIT = 1024
"""The longest text alternative: as long as an attachment's description on Discord, which says
the same board in words."""


def board_alt(spectacle: Spectacle) -> str:
    """The board picture's text alternative: which move it is after, then the board in words as
    Discord's attachment description says it (whose turn it is or the result, the scores, the last
    move, and the position), within ALT_LIMIT characters."""
    ply, last = spectacle.ply, spectacle.last
    heading = _("The board after move {ply} of {last}.").format(ply=ply, last=last) if ply \
        else _("The board as dealt.")
    if spectacle.game.name in renderers.RENDERERS:
        return f"{heading} {renderers.describe_within(spectacle.game, ALT_LIMIT - len(heading) - 1)}"
    said = [heading, spectacle.result if spectacle.result is not None else _turn(spectacle)]
    scores = ", ".join(f"{player['name']} {_score(player['score'])}" for player in spectacle.players)
    said.append(_("Scores: {scores}.").format(scores=scores))
    if ply:
        said.append(_("Last move: {move}.").format(move=_move_words(spectacle.entries[ply - 1])))
    return " ".join(part for part in said if part)


def _turn(spectacle: Spectacle) -> str:
    """"Ana to move." (or several), "" when nobody is to move."""
    names = [player["name"] for player in spectacle.players if player["seat"] in spectacle.to_move]
    if not names:
        return ""
    return _("{players} to move.").format(players=", ".join(names))


def _move_words(entry: Entry) -> str:
    """An entry in a few words: "Ana: 3-4 at b2", or what happened for a chance entry."""
    if entry.action:
        return f"{entry.who}: {entry.action}"
    return entry.events[0] if entry.events else ""


def _score(score: object) -> str:
    return f"{score:g}" if isinstance(score, float) else str(score)


def _preview(spectacle: Spectacle, token: str, origin: str) -> dict[str, str]:
    """The link preview of the page at the spectacle's ply (Open Graph)."""
    title = GAMES[spectacle.table.game].title
    names = " · ".join(player["name"] for player in spectacle.players)
    query = "" if spectacle.live else f"?ply={spectacle.ply}"
    return {"og:title": _("{game}: {players}").format(game=title, players=names),
            "og:description": f"{_status_text(spectacle)} {_turn(spectacle)}".strip(),
            "og:url": f"{origin}/t/{token}{query}",
            "og:image": origin + board_address(token, spectacle.key),
            "og:image:alt": board_alt(spectacle)}


def _status_text(spectacle: Spectacle) -> str:
    table = spectacle.table
    if table.status == LOBBY:
        return _("The game has not started yet.")
    if not spectacle.live:
        return _("Replay: after move {ply} of {last}.").format(ply=spectacle.ply, last=spectacle.last)
    if table.status == ABORTED:
        return _("This game was stopped by a moderator.")
    if spectacle.result is not None:
        return spectacle.result
    if table.status == FINISHED:
        return _("This game is over.")
    return _("Live: move {ply}.").format(ply=spectacle.ply)


def _status(spectacle: Spectacle) -> str:
    """The status line and whose turn it is; the clock apart (not in any live region: it ticks)."""
    table = spectacle.table
    turn = "" if spectacle.result is not None else _turn(spectacle)
    shown = f'<p class="turn">{escape(turn)}</p>' if turn else ""
    kind = f'<span class="clock-kind">{escape(clock_text(table))}</span>' if table.status in (LOBBY, PLAYING) else ""
    clock = f'<p class="clock">{kind}</p>' if kind else ""
    if spectacle.live and spectacle.deadlines and not table.paused:
        due = min(spectacle.deadlines.values())
        stamp = datetime.fromtimestamp(due, UTC)
        running = (f'<span class="running">{escape(_("Turn ends"))} <time datetime="{stamp.isoformat()}" '
                   f'data-deadline="{due:.0f}">{stamp:%Y-%m-%d %H:%M} UTC</time></span>')
        over = f'<span class="over" hidden>{escape(_("The turn’s time is up."))}</span>'  # shown by watch.js
        clock = f'<p class="clock">{running}{over}{" · " + kind if kind else ""}</p>'
    elif spectacle.live and table.paused:
        clock = f'<p class="clock">{escape(_("The clock is paused."))}{" · " + kind if kind else ""}</p>'
    return f'<div class="state"><p class="status">{escape(_status_text(spectacle))}</p>{shown}{clock}</div>'


def _board(spectacle: Spectacle, token: str, extras: Extras) -> str:
    ply, last = spectacle.ply, spectacle.last
    base = f"/t/{escape(token)}"
    alt = escape(board_alt(spectacle))
    picture = board_address(token, spectacle.key)
    steps = [("start", 0, "⏮", _("Start")), ("back", max(0, ply - 1), "◀", _("Back one move")),
             ("forward", min(last, ply + 1), "▶", _("Forward one move")), ("now", last, "⏭", _("Now"))]
    links = "".join(f'<a href="{base}?ply={target}" data-ply="{target}" data-focus="step-{key}" data-step="{key}" '
                    f'aria-label="{escape(label)}" title="{escape(label)}">{mark}</a>'
                    for key, target, mark, label in steps)
    counting = _("Move {ply} of {last}")
    counter = escape(counting.format(ply=ply, last=last))
    figure = f'<img class="whole" src="{escape(picture)}" alt="{alt}">'
    if extras.parts > 1:  # a phone shows the parts instead (lazy: only the shown pictures load)
        figure = (f'<figure class="picture has-parts"><img class="whole" loading="lazy" src="{escape(picture)}" '
                  f'alt="{alt}">'
                  f"{_parts(spectacle, picture, extras.parts)}</figure>")
    else:
        figure = f'<figure class="picture">{figure}</figure>'
    speeds = "".join(f'<option value="{ms}"{" selected" if ms == 1000 else ""}>{escape(shown)}</option>'
                     for ms, shown in SPEEDS)
    autoplay = (f'<div class="autoplay" hidden><button type="button" data-action="autoplay" data-focus="autoplay" '
                f'aria-pressed="false">{escape(_("Autoplay"))}</button>'
                f'<label>{escape(_("Speed"))} <select data-focus="speed" data-action="speed">{speeds}</select>'
                "</label></div>")
    share = (f'<button type="button" data-action="share" data-focus="share" data-copied="{escape(_("Link copied."))}" '
             f'hidden>{escape(_("Share this move"))}</button>')
    download = escape(_("Download this position (JSON)"))
    return (f'<section class="board" aria-label="{escape(_("Board"))}">{figure}<div class="controls">'
            f'<nav class="steps" aria-label="{escape(_("Steps"))}">{links}'
            f'<span class="counter" data-counting="{escape(counting)}">{counter}</span></nav>'
            f'{autoplay}{share}<p class="position"><a href="{base}/position/{spectacle.key}.json" download '
            f'data-focus="position">{download}</a></p></div></section>')


def _parts(spectacle: Spectacle, picture: str, count: int) -> str:
    """Each seat's board alone (for a phone: one at a time, the others a tap away)."""
    names = [player["name"] for player in spectacle.players][:count]
    tabs = "".join(f'<button type="button" data-board="{i}" data-focus="board-{i}" aria-pressed="false">'
                   f"{escape(name)}</button>" for i, name in enumerate(names))
    alt = board_alt(spectacle)
    images = "".join(f'<img class="part" data-board="{i}" loading="lazy" src="{escape(part_address(picture, i))}" '
                     f'alt="{escape(_("{player}’s board.").format(player=name) + " " + alt)}">'
                     for i, name in enumerate(names))
    return (f'<div class="parts"><div class="tabs" role="group" aria-label="{escape(_("Boards"))}" hidden>'
            f"{tabs}</div>{images}</div>")


def _players(spectacle: Spectacle, ratings: Mapping[int, str]) -> str:
    outcome = spectacle.game.outcome()
    winners = set(outcome.winners) if outcome is not None else set()
    rated = any(seat in ratings for seat in range(len(spectacle.players)))
    rows = []
    for player in spectacle.players:
        seat = player["seat"]
        marks = []
        if seat in winners:
            marks.append("🏆 " + _("winner"))
        if seat in spectacle.to_move and spectacle.result is None:
            marks.append(_("to move"))
        if player["resigned"]:
            marks.append(_("left the game"))
        elif player.get("standin"):
            marks.append(_("🤖 a stand-in plays (away)"))
        hand = "" if player["hand"] is None else escape(pieces_count(type(spectacle.game), int(player["hand"])))
        team = f' <span class="team">({escape(str(player["team"]))})</span>' if player["team"] else ""
        classes = " ".join(name for name, on in (("moving", seat in spectacle.to_move and spectacle.result is None),
                                                 ("winner", seat in winners)) if on)
        rating = f'<td>{escape(ratings.get(seat, ""))}</td>' if rated else ""
        rows.append(f'<tr{f" class={chr(34)}{classes}{chr(34)}" if classes else ""}><th scope="row">'
                    f"{escape(player['name'])}{team}</th><td class=\"score\">{escape(_score(player['score']))}</td>"
                    f"{rating}<td>{hand}</td><td>{escape(', '.join(marks))}</td></tr>")
    heads = [_("Player"), _("Score")] + ([_("Rating")] if rated else []) + [_("In hand"), _("Notes")]
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
    return (f'<section class="players" data-part="players"><h2>{escape(_("Players"))}</h2><table><thead><tr>{head}'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table></section>')


def has_rounds(spectacle: Spectacle) -> bool:
    """Whether the game is played in rounds (its moves are listed under round headings)."""
    return "round" in spectacle.game.view(None)


def move_items(spectacle: Spectacle, from_ply: int = 1) -> str:
    """The move list's items from `from_ply` on (a live update appends these, replacing any
    item from that ply on), each with a round heading where a round begins."""
    rounds = has_rounds(spectacle)
    start = max(1, from_ply)
    round_number = 1 + sum(1 for entry in spectacle.entries[:start - 1] if entry.round_end)
    items = []
    for entry in spectacle.entries[start - 1:]:
        heading = ""
        if rounds and (entry.ply == 1 or spectacle.entries[entry.ply - 2].round_end):
            heading = f'<h3 id="round-{round_number}">{escape(_("Round {round}").format(round=round_number))}</h3>'
        current = ' aria-current="step" class="current"' if entry.ply == spectacle.ply else ""
        did = f"<code>{escape(entry.action)}</code>" if entry.notation else escape(entry.action)
        what = f"{escape(entry.who)}: {did}" if entry.action else escape(entry.events[0] if entry.events else "")
        said = "".join(f"<span>{escape(line)}</span>" for line in entry.events)
        sentence = _("Move {ply}: {move}.").format(ply=entry.ply, move=_move_words(entry))
        items.append(f'<li value="{entry.ply}" id="ply-{entry.ply}" data-said="{escape(sentence)}"{current}>{heading}'
                     f'<a href="?ply={entry.ply}" data-ply="{entry.ply}">{what}</a>{said}</li>')
        if entry.round_end:
            round_number += 1
    return "".join(items)


def _moves(spectacle: Spectacle) -> str:
    title = f'<h2 id="moves-heading">{escape(_("Moves"))}</h2>'
    if not spectacle.entries:
        return (f'<section class="moves" aria-labelledby="moves-heading">{title}<p class="empty">'
                f'{escape(_("No moves yet."))}</p><ol tabindex="0" aria-labelledby="moves-heading"></ol></section>')
    jumps = _round_jumps(spectacle)
    return (f'<section class="moves" aria-labelledby="moves-heading">{title}{jumps}'
            f'<ol tabindex="0" aria-labelledby="moves-heading">{move_items(spectacle)}</ol></section>')


def _round_jumps(spectacle: Spectacle) -> str:
    """Links to each round's first move (the script keeps them in step with the list)."""
    if not has_rounds(spectacle):
        return ""
    starts = [entry.ply for entry in spectacle.entries if entry.ply == 1
              or spectacle.entries[entry.ply - 2].round_end]
    links = "".join(f'<a href="?ply={ply}" data-ply="{ply}" data-round="{number}">{number}</a>'
                    for number, ply in enumerate(starts, start=1))
    return f'<nav class="rounds" aria-label="{escape(_("Rounds"))}">{escape(_("Rounds"))}: {links}</nav>'


def _downloads(token: str) -> str:
    base = f"/t/{escape(token)}"
    links = [(f"{base}/replay.gif", _("Replay (animated GIF)")),
             (f"{base}/record.txt", _("Moves (text)")),
             (f"{base}/record.json", _("Moves and every position (JSON)"))]
    items = "".join(f'<li><a href="{href}" download>{escape(label)}</a></li>' for href, label in links)
    return f'<section class="downloads"><h2>{escape(_("Download the game"))}</h2><ul>{items}</ul></section>'


def ended(spectacle: Spectacle) -> bool:
    """Whether no more moves will come: the game has a result, or the table is over."""
    return spectacle.result is not None or spectacle.table.status in (FINISHED, ABORTED)


def live_update(spectacle: Spectacle, token: str, start: int,
                extras: Extras = Extras()) -> dict[str, object]:
    """What a live page needs when the game moved on to `spectacle` (its newest ply): the move
    list's items from ply `start` (the page replaces its items from there: after a rollback,
    `start` is where the log changed), the new picture's address and text alternative, the
    status line and the players table, and whether the game has ended."""
    base = f"/t/{token}"
    ply = spectacle.ply
    alt = board_alt(spectacle)
    return {"last": spectacle.last, "at": spectacle.last_key, "from": start, "items": move_items(spectacle, start),
            "picture": board_address(token, spectacle.key), "alt": alt,
            "position": f"{base}/position/{spectacle.key}.json",
            "counter": _("Move {ply} of {last}").format(ply=ply, last=spectacle.last),
            "status": _status(spectacle), "players": _players(spectacle, extras.ratings or {}),
            "ended": ended(spectacle)}


def problem(message: str, language: str) -> str:
    """A page saying what is wrong with the address and what to do instead."""
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>tileref</title><link rel="stylesheet" href="{ASSETS}/watch.css"></head>'
            f'<body><main><p class="problem">{escape(message)}</p></main></body></html>')
