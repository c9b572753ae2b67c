"""What /leaderboard, /profile and `tileref stats` say: a server's best players in a game, and
one player's record there (games won, drawn and lost). Everything shown comes from the ratings
and results of finished games on that one server (no hand, no hidden fact, nothing from another
server). `ratings_explained` is what /help, the terminal's `help` and the leaderboards say of
what the figures mean."""

from __future__ import annotations

import time

from bot.community.ratings import shown_name
from bot.core.i18n import _, ngettext
from bot.core.replies import link_token, name_token
from bot.storage.standings import PROVISIONAL_GAMES, SHOWN_START, Rating, Result, signed
from bot.storage.store import Store
from engine import GAMES

PAGE = 10


def ratings_explained() -> str:
    """What a rating is and how it moves, in a few plain sentences (for /help, the terminal's
    `help` and `tileref stats`)."""
    return _("📈 **Ratings** (one per game and server) start at {start} and move by whom you finished ahead of "
             "and behind. A win never lowers yours; a loss never raises it in a game of two sides (one against "
             "one, team against team), and leaving a game always lowers it. In a game of three or more, a place "
             "below first can raise it if you finished ahead of, or level with, players rated above you; a draw "
             "(a first place shared) moves it by what was expected of you. Ratings are provisional for the "
             "first {games} games, and listed after the settled ones.").format(
        start=SHOWN_START, games=PROVISIONAL_GAMES)


def _figure(rating: Rating) -> str:
    return f"**{rating.shown}**" + (" " + _("(provisional)") if rating.provisional else "")


def _line(place: int, rating: Rating) -> str:
    return _("{place}. {player} {figure} · {record}").format(place=place,
                                                              player=name_token(shown_name(rating.player, rating.name)),
                                                              figure=_figure(rating), record=_record(rating))


def _record(rating: Rating) -> str:
    """`2 games: 1 won, 1 drawn, 0 lost`."""
    return ngettext("{games} game: {wins} won, {draws} drawn, {losses} lost",
                    "{games} games: {wins} won, {draws} drawn, {losses} lost", rating.games).format(
        games=rating.games, wins=rating.wins, draws=rating.draws, losses=rating.losses)


async def leaderboard_text(store: Store, guild: str, game: str, player: str | None, page: int = 1, *,
                           explained: bool = True) -> str:
    """Page `page` of a game's leaderboard on a server (10 a page), and `player`'s own place,
    ending with what the ratings mean (unless not `explained`). Raises ValueError with what to
    ask instead when the page or game does not exist."""
    if game not in GAMES:
        raise ValueError(_("there is no game called '{game}'; choose one of {games}").format(
            game=game, games=", ".join(sorted(GAMES))))
    title = GAMES[game].title
    count = await store.standings.rated_count(guild, game)
    if count == 0:
        return _("Nobody has a {game} rating on this server yet: finish a rated game to get one.").format(game=title)
    pages = (count + PAGE - 1) // PAGE
    if not 1 <= page <= pages:
        raise ValueError(ngettext("the {game} leaderboard has {pages} page; ask for page 1",
                                  "the {game} leaderboard has {pages} pages; ask for a page from 1 to {pages}",
                                  pages).format(game=title, pages=pages))
    rows = await store.standings.leaderboard(guild, game, offset=(page - 1) * PAGE, limit=PAGE)
    lines = [ngettext("🏆 **{game} leaderboard** (page {page} of {pages}, {count} rated player)",
                      "🏆 **{game} leaderboard** (page {page} of {pages}, {count} rated players)", count).format(
        game=title, page=page, pages=pages, count=count)]
    for index, rating in enumerate(rows):
        place = (page - 1) * PAGE + index + 1
        if rating.provisional and (index == 0 or not rows[index - 1].provisional):
            lines.append(ngettext("Provisional (fewer than {games} game):", "Provisional (fewer than {games} games):",
                                  PROVISIONAL_GAMES).format(games=PROVISIONAL_GAMES))
        lines.append(_line(place, rating))
    if player is not None:
        mine = await store.standings.standing(guild, game, player)
        if mine is None:
            lines.append(_("You have no {game} rating here yet.").format(game=title))
        else:
            lines.append(_("You: {line}").format(line=_line(*mine)))
    if explained:
        lines.append(ratings_explained())
    return "\n".join(lines)


def _when(at: float, now: float) -> str:
    return f"<t:{round(at)}:R>" if now - at < 86400 * 365 else time.strftime("%Y-%m-%d", time.gmtime(at))


def _recent_line(result: Result, now: float) -> str:
    return _("{place} of {entrants} ({change}) · {when} · {link}").format(
        place=result.rank, entrants=result.entrants, change=signed(result.change), when=_when(result.finished_at, now),
        link=link_token(result.place, result.guild))


async def profile_text(store: Store, guild: str, player: str, name: str, now: float | None = None) -> str:
    """A player's record on a server: per game, the rating, games won, drawn and lost, the best
    win against a higher-rated player, and the last 5 games with the way to each."""
    now = time.time() if now is None else now
    ratings = await store.standings.ratings_of_player(guild, player)
    if not ratings:
        return _("{player} has not finished a rated game on this server yet.").format(player=name_token(name))
    lines = [_("📇 **{player}**").format(player=name_token(name))]
    for rating in ratings:
        lines.append("")
        lines.append(_("**{game}**: {figure} · {record}").format(
            game=GAMES[rating.game].title if rating.game in GAMES else rating.game, figure=_figure(rating),
            record=_record(rating)))
        best = await store.standings.best_win(guild, rating.game, player)
        if best is not None and best.beaten_name is not None and best.beaten_score is not None:
            lines.append(_("Best win: ahead of {opponent} (rated {rating}) · {link}").format(
                opponent=name_token(best.beaten_name), rating=round(best.beaten_score),
                link=link_token(best.place, best.guild)))
        recent = await store.standings.recent(guild, rating.game, player)
        lines += [_("Last games:")] + [f"• {_recent_line(r, now)}" for r in recent]
    return "\n".join(lines)

