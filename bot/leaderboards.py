"""What /leaderboard, /profile and `tileref stats` say: a server's best players in a game, and
one player's record there. Everything shown comes from the ratings and results of finished
games on that one server (no hand, no hidden fact, nothing from another server)."""

from __future__ import annotations

import time

from bot.i18n import _, ngettext
from bot.replies import link_token, name_token
from bot.standings import Rating, Result
from bot.store import Store
from engine import GAMES

PAGE = 10


def _figure(rating: Rating) -> str:
    figure = f"**{rating.score:.1f}**".replace("-", "−")
    return figure + (" " + _("(provisional)") if rating.provisional else "")


def _line(place: int, rating: Rating) -> str:
    return _("{place}. {player} {figure} · {record}").format(place=place, player=name_token(rating.name),
                                                              figure=_figure(rating), record=_record(rating))


def _record(rating: Rating) -> str:
    return ngettext("{games} game, {wins} won", "{games} games, {wins} won", rating.games).format(
        games=rating.games, wins=rating.wins)


async def leaderboard_text(store: Store, guild: str, game: str, player: str | None, page: int = 1) -> str:
    """Page `page` of a game's leaderboard on a server (10 a page), and `player`'s own place.
    Raises ValueError with what to ask instead when the page or game does not exist."""
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
    lines += [_line((page - 1) * PAGE + index + 1, rating) for index, rating in enumerate(rows)]
    if player is not None:
        mine = await store.standings.standing(guild, game, player)
        if mine is None:
            lines.append(_("You have no {game} rating here yet.").format(game=title))
        else:
            lines.append(_("You: {line}").format(line=_line(*mine)))
    lines.append(_("Ratings are mean − 3σ (OpenSkill); provisional until 5 games."))
    return "\n".join(lines)


def _when(at: float, now: float) -> str:
    return f"<t:{round(at)}:R>" if now - at < 86400 * 365 else time.strftime("%Y-%m-%d", time.gmtime(at))


def _recent_line(result: Result, now: float) -> str:
    change = f"{result.change:+.1f}".replace("-", "−")
    return _("{place} of {entrants} ({change}) · {when} · {link}").format(
        place=result.rank, entrants=result.entrants, change=change, when=_when(result.finished_at, now),
        link=link_token(result.place, result.guild))


async def profile_text(store: Store, guild: str, player: str, name: str, now: float | None = None) -> str:
    """A player's record on a server: per game, the rating, games, wins, the best win against a
    higher-rated player, and the last 5 games with the way to each."""
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
                opponent=name_token(best.beaten_name), rating=f"{best.beaten_score:.1f}".replace("-", "−"),
                link=link_token(best.place, best.guild)))
        recent = await store.standings.recent(guild, rating.game, player)
        lines += [_("Last games:")] + [f"• {_recent_line(r, now)}" for r in recent]
    return "\n".join(lines)

