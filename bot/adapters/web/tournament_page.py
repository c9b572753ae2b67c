"""The HTML of a tournament's page: its rules stated first, the standings (one table a league
division, ranks shared on complete ties, the tie-breaks' full names on their headings), then
every round with its boards, results and links to each game's page and its replay. Readable
without JavaScript (it has none); every text escaped; the caller speaks the tournament's
language. Nothing hidden is shown: names, results and links only."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from bot.core.i18n import _
from bot.storage.tournaments import FINISHED, PAUSED, RUNNING, SIGNUP, RoundRecord, TournamentView
from bot.tournaments.presentation import Table, figure, headings, rules, subtitle, tables
from bot.tournaments.wording import bye_name

ASSETS = "/static"


def status_name(status: str) -> str:
    """A tournament's status in a few words."""
    return {SIGNUP: _("sign-up open"), RUNNING: _("being played"), PAUSED: _("paused"),
            FINISHED: _("finished")}.get(status, _("cancelled"))


def page(view: TournamentView, language: str, games: Mapping[tuple[int, int], str]) -> str:
    """The whole page. `games` maps (round, board) to the game's page token (`/t/<token>`),
    for the boards whose tables exist."""
    tournament = view.tournament
    title = tournament.name
    body = (f"<header><h1>{escape(title)}</h1>"
            f'<p class="sub">{escape(subtitle(view, None))} · {escape(status_name(tournament.status))}</p></header>'
            f"<main>{_rules(view)}{_standings(view)}{_rounds(view, games)}</main>")
    description = escape(_("Standings, rounds and games of {name}.").format(name=title))
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{escape(title)} · tileref</title>"
            f'<meta name="description" content="{description}">'
            f'<meta property="og:title" content="{escape(title)}"><meta property="og:description" '
            f'content="{description}"><meta property="og:site_name" content="tileref">'
            f'<link rel="stylesheet" href="{ASSETS}/tournament.css"></head>'
            f"<body>{body}</body></html>")


def _rules(view: TournamentView) -> str:
    items = "".join(f"<li>{escape(sentence)}</li>" for sentence in rules(view))
    return (f'<section class="rules" aria-labelledby="rules"><h2 id="rules">{escape(_("Rules"))}</h2>'
            f"<ul>{items}</ul></section>")


def _standings(view: TournamentView) -> str:
    shown = tables(view)
    parts = "".join(_table(view, table, len(shown) > 1) for table in shown)
    return (f'<section class="standings" aria-labelledby="standings"><h2 id="standings">'
            f'{escape(_("Standings"))}</h2>{parts}</section>')


def _table(view: TournamentView, table: Table, several: bool) -> str:
    short, full = headings(table.order)
    caption = subtitle(view, table.division)
    heads = "".join(f'<th scope="col"{_numeric(i)}>{_abbr(s, f)}</th>' for i, (s, f) in enumerate(zip(short, full,
                                                                                                       strict=True)))
    rows = []
    moves = {"up": _("promoted"), "down": _("relegated")}
    for row in table.rows:
        entrant = view.entrant(row.player)
        name = escape(entrant.name if entrant else str(row.player))
        if entrant is not None and entrant.withdrawn_after is not None:
            name += f' <span class="note">{escape(_("(withdrawn)"))}</span>'
        if row.movement:
            arrow = "▲" if row.movement == "up" else "▼"
            name += f' <span class="move {row.movement}"><span aria-hidden="true">{arrow}</span> ' \
                    f"{escape(moves[row.movement])}</span>"
        cells = "".join(f'<td class="num">{escape(figure(v))}</td>' for v in row.tiebreaks)
        marked = f' class="{row.movement}"' if row.movement else ""
        rows.append(f'<tr{marked}><td class="num">{row.rank}</td><th scope="row">{name}</th>'
                    f'<td class="num points">{escape(figure(row.points))}</td>{cells}</tr>')
    heading = f"<h3>{escape(_('Division {number}').format(number=table.division))}</h3>" if several else ""
    return (f'{heading}<div class="scroll" role="region" aria-label="{escape(caption)}" tabindex="0">'
            f"<table><caption>{escape(caption)}</caption><thead><tr>{heads}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _numeric(index: int) -> str:
    return "" if index == 1 else ' class="num"'


def _abbr(short: str, full: str) -> str:
    if short == full or short.lower() == full.lower():
        return escape(short)
    return f'<abbr title="{escape(full)}">{escape(short)}</abbr><span class="visually-hidden"> ({escape(full)})</span>'


def _rounds(view: TournamentView, games: Mapping[tuple[int, int], str]) -> str:
    if not view.rounds:
        return (f'<section class="rounds" aria-labelledby="rounds"><h2 id="rounds">{escape(_("Rounds"))}</h2>'
                f"<p>{escape(_('No round has been paired yet.'))}</p></section>")
    parts = "".join(_round(view, stored, games) for stored in reversed(view.rounds))
    return (f'<section class="rounds" aria-labelledby="rounds"><h2 id="rounds">{escape(_("Rounds"))}</h2>'
            f"{parts}</section>")


def _name(view: TournamentView, number: int) -> str:
    entrant = view.entrant(number)
    return entrant.name if entrant else str(number)


def _round(view: TournamentView, stored: RoundRecord, games: Mapping[tuple[int, int], str]) -> str:
    state = _("closed") if stored.closed_at is not None else _("being played")
    items = []
    for board in stored.boards:
        players = " – ".join(escape(_name(view, p)) for p in board.players)
        if board.result is None:
            result = escape(_("being played"))
        else:
            result = escape(board.result.replace(",", " · "))
            if board.adjudicated:
                result += " " + escape(_("(adjudicated)"))
        label = _("Board {board}").format(board=board.board)
        token = games.get((stored.number, board.board))
        links = ""
        if token:
            where = _("round {number}, board {board}").format(number=stored.number, board=board.board)
            links = (f' <a href="/t/{escape(token)}">{escape(_("game"))}<span class="visually-hidden">, '
                     f"{escape(where)}</span></a>"
                     f' <a href="/t/{escape(token)}/replay.gif" download>{escape(_("replay"))}'
                     f'<span class="visually-hidden">, {escape(where)} ({escape(_("animated picture"))})</span></a>')
        items.append(f'<li><span class="board">{escape(label)}:</span> {players} '
                     f'<span class="result">{result}</span>{links}</li>')
    for player, code in stored.sat_out:
        sitting = _("{player} sits this round out ({bye}).").format(player=_name(view, player), bye=bye_name(code))
        items.append(f"<li>{escape(sitting)}</li>")
    heading = _("Round {number}").format(number=stored.number)
    return (f'<section class="round" aria-labelledby="round-{stored.number}"><h3 id="round-{stored.number}">'
            f'{escape(heading)} <span class="state">({escape(state)})</span></h3><ul>{"".join(items)}</ul></section>')
