"""The HTML of the spectator pages: a whole page, or its changing part (`main_part`) for the
script to swap in without a reload. Readable without JavaScript: the board is an image, the move
list a list of links (`?ply=N`). Everything written here comes from a `Spectacle`, which holds
nothing hidden; every text is escaped. The caller speaks the table's language."""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape

from bot.core.i18n import _
from bot.core.records import ABORTED, FINISHED, LOBBY, TableRecord
from bot.media.spectator import Spectacle
from bot.words.wording import pieces_count
from engine import GAMES

ASSETS = "/static"


def page(spectacle: Spectacle, token: str, language: str) -> str:
    """The whole page of a table at the spectacle's ply."""
    return shell(spectacle.table, token, language, main_part(spectacle, token), ply=spectacle.ply,
                 last=spectacle.last, live=spectacle.live, at=spectacle.last_key, ended=ended(spectacle))


def lobby_page(table: TableRecord, token: str, language: str) -> str:
    """The page of a table whose game has not started: who is seated so far."""
    return shell(table, token, language, lobby_part(table), ply=0, last=0, live=True)


def lobby_part(table: TableRecord) -> str:
    names = "".join(f"<li>{escape(seat.name)}</li>" for seat in table.seats)
    waiting = (_("The game has not started yet.") if table.status == LOBBY
               else _("This game was stopped by a moderator."))
    return (f'<div class="play"><p class="status" role="status">{escape(waiting)}</p></div>'
            f'<aside><section class="players"><h2>{escape(_("Players"))}</h2><ul>{names}</ul></section></aside>')


def shell(table: TableRecord, token: str, language: str, main: str, *, ply: int, last: int, live: bool,
          at: str = "", ended: bool = False) -> str:
    """A page around its changing part `main`. `at` names the newest position the page knows
    (`Spectacle.last_key`: the live stream tells what came after it); `ended`: no more moves will
    come."""
    title = GAMES[table.game].title
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{escape(title)} · tileref</title>"
            f'<link rel="stylesheet" href="{ASSETS}/watch.css"><script src="{ASSETS}/watch.js" defer></script>'
            f'</head><body data-token="{escape(token)}"><header><h1>{escape(title)}</h1>'
            f'<p class="sub">{escape(_("Spectator view: nobody’s hand is shown."))}</p></header>'
            f'<p id="connection" role="status" hidden data-lost="{escape(_("Reconnecting…"))}" '
            f'data-gone="{escape(_("The server has stopped. Reload the page later to replay this game."))}"></p>'
            f'<main id="spectacle" data-ply="{ply}" data-last="{last}" data-live="{int(live)}" data-at="{escape(at)}" '
            f'data-ended="{int(ended)}">{main}</main>'
            f'<footer><p>{escape(_("Keys: ← and → step through the moves, Home and End go to the start and now."))}'
            "</p></footer></body></html>")


def main_part(spectacle: Spectacle, token: str) -> str:
    """What changes as the game goes on or the reader steps through it."""
    return (f'<div class="play">{_status(spectacle)}{_board(spectacle, token)}</div>'
            f"<aside>{_players(spectacle)}{_moves(spectacle)}</aside>")


def _status(spectacle: Spectacle) -> str:
    table = spectacle.table
    if table.status == LOBBY:
        text = _("The game has not started yet.")
    elif not spectacle.live:
        text = _("Replay: after move {ply} of {last}.").format(ply=spectacle.ply, last=spectacle.last)
    elif table.status == ABORTED:
        text = _("This game was stopped by a moderator.")
    elif spectacle.result is not None:
        text = spectacle.result
    elif table.status == FINISHED:
        text = _("This game is over.")
    else:
        text = _("Live: move {ply}.").format(ply=spectacle.ply)
    clock = ""
    if spectacle.live and spectacle.deadlines and not table.paused:
        due = min(spectacle.deadlines.values())
        stamp = datetime.fromtimestamp(due, UTC)
        clock = (f' <span class="clock">{escape(_("Turn ends"))} <time datetime="{stamp.isoformat()}" '
                 f'data-deadline="{due:.0f}">{stamp:%Y-%m-%d %H:%M} UTC</time></span>')
    elif spectacle.live and table.paused:
        clock = f' <span class="clock">{escape(_("The clock is paused."))}</span>'
    return f'<p class="status" role="status">{escape(text)}{clock}</p>'


def _board(spectacle: Spectacle, token: str) -> str:
    ply, last = spectacle.ply, spectacle.last
    base = f"/t/{escape(token)}"
    alt = board_alt(spectacle)
    steps = [(0, "⏮", _("Start"), "start"), (max(0, ply - 1), "◀", _("Back one move"), "back"),
             (min(last, ply + 1), "▶", _("Forward one move"), "forward"), (last, "⏭", _("Now"), "now")]
    links = "".join(f'<a href="{base}?ply={target}" data-ply="{target}" data-step="{step}" '
                    f'aria-label="{escape(label)}" title="{escape(label)}">{mark}</a>'
                    for target, mark, label, step in steps)
    counter = escape(_("Move {ply} of {last}").format(ply=ply, last=last))
    download = escape(_("Download this position (JSON)"))
    return (f'<section class="board"><figure><img src="{base}/board/{spectacle.key}.png" alt="{escape(alt)}">'
            f'</figure><nav class="steps" aria-label="{escape(_("Moves"))}">{links}<span>{counter}</span></nav>'
            f'<p><a href="{base}/position/{spectacle.key}.json" download>{download}</a></p></section>')


def board_alt(spectacle: Spectacle) -> str:
    """The board picture's text alternative (the page's and a live update's)."""
    ply = spectacle.ply
    return _("The board after move {ply}").format(ply=ply) if ply else _("The board as dealt")


def _players(spectacle: Spectacle) -> str:
    rows = []
    for player in spectacle.players:
        marks = []
        if player["seat"] in spectacle.to_move and spectacle.result is None:
            marks.append(_("to move"))
        if player["resigned"]:
            marks.append(_("left the game"))
        hand = "" if player["hand"] is None else escape(pieces_count(type(spectacle.game), int(player["hand"])))
        score = player["score"]
        shown = f"{score:g}" if isinstance(score, float) else escape(str(score))
        team = f' <span class="team">({escape(str(player["team"]))})</span>' if player["team"] else ""
        moving = ' class="moving"' if player["seat"] in spectacle.to_move else ""
        rows.append(f"<tr{moving}><th scope=\"row\">{escape(player['name'])}{team}</th><td>{shown}</td>"
                    f"<td>{hand}</td><td>{escape(', '.join(marks))}</td></tr>")
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in (_("Player"), _("Score"), _("In hand"), ""))
    return (f'<section class="players"><h2>{escape(_("Players"))}</h2><table><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')


def _moves(spectacle: Spectacle) -> str:
    if not spectacle.entries:
        return f'<section class="moves"><h2>{escape(_("Moves"))}</h2><p>{escape(_("No moves yet."))}</p></section>'
    return (f'<section class="moves"><h2>{escape(_("Moves"))}</h2><ol>{move_items(spectacle, 1)}</ol></section>')


def move_items(spectacle: Spectacle, start: int) -> str:
    """The move list's items from ply `start` on (what a live update appends)."""
    items = []
    for entry in spectacle.entries[max(0, start - 1):]:
        current = ' aria-current="step" class="current"' if entry.ply == spectacle.ply else ""
        did = f"<code>{escape(entry.action)}</code>" if entry.notation else escape(entry.action)
        what = f"{escape(entry.who)}: {did}" if entry.action else ""
        said = "".join(f"<span>{escape(line)}</span>" for line in entry.events)
        items.append(f'<li value="{entry.ply}" id="ply-{entry.ply}"{current}><a href="?ply={entry.ply}" '
                     f'data-ply="{entry.ply}">{what}</a>{said}</li>')
    return "".join(items)


def ended(spectacle: Spectacle) -> bool:
    """Whether no more moves will come: the game has a result, or the table is over."""
    return spectacle.result is not None or spectacle.table.status in (FINISHED, ABORTED)


def live_update(spectacle: Spectacle, token: str, start: int) -> dict[str, object]:
    """What a live page needs when the game moved on to `spectacle` (its newest ply): the move
    list's items from ply `start` (the page replaces its items from there: after a rollback,
    `start` is where the log changed), the new picture's address and text alternative, the
    status line and the players table, and whether the game has ended."""
    base = f"/t/{token}"
    ply = spectacle.ply
    alt = board_alt(spectacle)
    return {"last": spectacle.last, "at": spectacle.last_key, "from": start, "items": move_items(spectacle, start),
            "picture": f"{base}/board/{spectacle.key}.png", "alt": alt,
            "position": f"{base}/position/{spectacle.key}.json",
            "counter": _("Move {ply} of {last}").format(ply=ply, last=spectacle.last),
            "status": _status(spectacle), "players": _players(spectacle), "ended": ended(spectacle)}


def problem(message: str, language: str) -> str:
    """A page saying what is wrong with the address and what to do instead."""
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>tileref</title><link rel="stylesheet" href="{ASSETS}/watch.css"></head>'
            f'<body><main><p class="problem">{escape(message)}</p></main></body></html>')
