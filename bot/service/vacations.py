"""`/vacation`: a player declares a vacation ahead, cancels one (`cancel:`: one still to come is
dropped, one under way ends now: "back from vacation"; the days not begun go back to the
allowance), or asks how many days they have left.

A declared vacation stops the player's clocks in every game of theirs on the server that allows
vacations (`bot.community.vacations`); its days come out of their yearly allowance, checked and
written in one transaction (`bot.storage.vacations`). The player's games are then planned again
at once, so their deadlines (and the boards that show them) move with it; a game that cannot be
planned now is planned again when its deadline comes, which asks the clock before it fires.
"""

from __future__ import annotations

import datetime
import logging

from bot.community.vacations import allows_vacations, read_date, vacation_span
from bot.core.i18n import _, ngettext
from bot.core.records import PLAYING, User
from bot.core.refusals import Refused
from bot.core.replies import Message, Reply, link_token
from bot.storage.store import StaleLog, StaleTable
from bot.storage.vacations import DECLARED, OVERLAP, NotCancelled, Vacation, VacationTaken, year_of
from bot.tables.core import Tables

log = logging.getLogger(__name__)

NEXT = ("next", "now", "yes", "back", "siguiente", "ahora", "sí", "si", "vuelta")
"""What `cancel:` takes for the vacation under way, or else the next to come."""


def _first_day(vacation: Vacation) -> datetime.date:
    return datetime.datetime.fromtimestamp(vacation.starts, datetime.UTC).date()


def utc_moment(when: float) -> str:
    """`2026-12-24 00:00 UTC`: a vacation's bounds, as the days it was declared in are counted."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


class VacationDesk:
    """Declaring vacations, and the days each player has left."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock

    async def vacation(self, guild: str | None, user: User, starts: str | None = None,
                       ends: str | None = None, cancel: str | None = None) -> Reply:
        """Declare a vacation from `starts` to `ends` (days, both included: `2026-12-24`, `today`,
        `tomorrow`) on the server `guild`, or (None: asked in a DM, or on a server the bot is not
        on) on every server where the player has unfinished games, each from its own allowance;
        with neither day, say what the player has planned and the days they have left. `cancel`
        (`next`, or the first day of one) cancels a declared vacation instead: see `_cancel`.
        The reply is for the caller alone."""
        if guild is None:
            return await self.tables.guarded(self._everywhere(user, starts, ends, cancel), name="vacation")
        return await self.tables.guarded(self._vacation(guild, user, starts, ends, cancel), name="vacation")

    async def _everywhere(self, user: User, starts: str | None, ends: str | None, cancel: str | None) -> Reply:
        """The vacation (or the plans) on each server where the player has unfinished games,
        each named by a link to one of their games there; a server that refuses says why."""
        servers: dict[str, str] = {}
        for table, _deadlines in await self.store.standings.open_tables_of(None, user.id):
            if table.guild is not None:
                servers.setdefault(table.guild, table.place)
        if not servers:
            raise Refused(_("you have no unfinished games on any server: a vacation stops the clocks of your games, "
                            "so declare one on a server where you play"))
        lines = []
        for guild, place in sorted(servers.items()):
            lines.append(_("On the server of {link}:").format(link=link_token(place, guild)))
            try:
                said = await self._vacation(guild, user, starts, ends, cancel)
            except Refused as refused:
                lines.append(_("not taken there: {reason}.").format(reason=str(refused)))
                continue
            lines.append(said.caller.text if said.caller else "")
        return Reply(caller=Message("\n".join(lines)))

    async def _vacation(self, guild: str, user: User, starts: str | None, ends: str | None,
                        cancel: str | None = None) -> Reply:
        allowance = (await self.store.settings(guild)).vacation_days
        now = self.clock.now()
        if cancel is not None:
            if starts is not None or ends is not None:
                raise Refused(_("cancel a vacation, or declare one, not both at once: like `/vacation cancel:next`, "
                                "then `/vacation from:{first} to:{last}`").format(first=starts or "2026-12-24",
                                                                                 last=ends or "2026-12-31"))
            return await self._cancel(guild, user, cancel, allowance, now)
        if starts is None and ends is None:
            return Reply(caller=Message(await self._plans(guild, user, allowance, now)))
        if starts is None or ends is None:
            raise Refused(_("give both days, the first and the last of your vacation: like `/vacation from:{first} "
                            "to:{last}`").format(first=starts or "2026-12-24", last=ends or "2026-12-31"))
        begin, end, days, year = vacation_span(starts, ends, now)
        left = allowance - await self.store.vacations.days_spent(guild, user.id, year)
        if days > left:
            raise Refused(self._too_long(days, left, allowance, year))
        try:
            left = await self.store.vacations.declare(Vacation(guild, user.id, begin, end, days, DECLARED, year),
                                                      allowance)
        except VacationTaken as taken:
            if taken.reason == OVERLAP:
                raise Refused(_("you are already on vacation during some of those days: `/vacation` lists your "
                                "vacations; choose days after them")) from None
            left = allowance - await self.store.vacations.days_spent(guild, user.id, year)
            raise Refused(self._too_long(days, left, allowance, year)) from None
        await self._plan_again(guild, user.id)
        return Reply(caller=Message(ngettext(
            "🏖️ Vacation from {start} to {end} ({days} day): your clocks stop then in all your games here that allow "
            "vacations. {left} vacation days left in {year}.",
            "🏖️ Vacation from {start} to {end} ({days} days): your clocks stop then in all your games here that "
            "allow vacations. {left} vacation days left in {year}.", days).format(
            start=utc_moment(begin), end=utc_moment(end), days=days, left=left, year=year)))

    async def _cancel(self, guild: str, user: User, which: str, allowance: int, now: float) -> Reply:
        """Cancel the player's declared vacation `which` names (`next`: the one under way, or else
        the next to come; or the day it starts): one to come is dropped with all its days given
        back, one under way ends now with the days it has not begun given back. The player's
        games on the server are planned again at once. Refused, saying what to type, when there
        is no such vacation, or it is a day spent on an empty bank."""
        mine = await self.store.vacations.of_player(guild, user.id, now)
        declared = [v for v in mine if v.kind == DECLARED]
        if not declared:
            if mine:
                raise Refused(_("a vacation day spent when your bank ran out cannot be cancelled: it ends {end}; "
                                "you may move in your games meanwhile").format(end=utc_moment(mine[0].ends)))
            raise Refused(_("you have no vacation under way or to come here: `/vacation from:YYYY-MM-DD "
                            "to:YYYY-MM-DD` declares one"))
        if which.strip().lower() in NEXT:
            chosen = declared[0]
        else:
            today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
            day = read_date(which, today, "cancel")
            found = [v for v in declared if _first_day(v) == day]
            if not found:
                raise Refused(_("you have no vacation starting on {day}: type `/vacation cancel:next`, or the first "
                                "day of one of yours ({days})").format(
                    day=day.isoformat(), days=", ".join(_first_day(v).isoformat() for v in declared)))
            chosen = found[0]
        try:
            done = await self.store.vacations.cancel(guild, user.id, chosen.starts, now)
        except NotCancelled:  # ended or cancelled meanwhile (another command)
            raise Refused(_("that vacation is over or cancelled already: `/vacation` lists yours")) from None
        await self._plan_again(guild, user.id)
        left = allowance - done.spent
        if done.deleted:
            return Reply(caller=Message(ngettext(
                "🏖️ Your vacation from {start} to {end} is cancelled: its {days} day is back. {left} vacation days "
                "left in {year}.",
                "🏖️ Your vacation from {start} to {end} is cancelled: its {days} days are back. {left} vacation "
                "days left in {year}.", done.returned).format(
                start=utc_moment(chosen.starts), end=utc_moment(chosen.ends), days=done.returned, left=left,
                year=chosen.year)))
        return Reply(caller=Message(ngettext(
            "👋 Welcome back: your vacation ends now, and your clocks run again in all your games here. {days} day "
            "you had not begun is back: {left} vacation days left in {year}.",
            "👋 Welcome back: your vacation ends now, and your clocks run again in all your games here. {days} days "
            "you had not begun are back: {left} vacation days left in {year}.", done.returned).format(
            days=done.returned, left=left, year=chosen.year)))

    @staticmethod
    def _too_long(days: int, left: int, allowance: int, year: int) -> str:
        return ngettext("that vacation is {days} day, but you have {left} vacation days left in {year} on this "
                        "server (of {allowance} a year): choose fewer days",
                        "that vacation is {days} days, but you have {left} vacation days left in {year} on this "
                        "server (of {allowance} a year): choose fewer days", days).format(
            days=days, left=left, year=year, allowance=allowance)

    async def _plans(self, guild: str, user: User, allowance: int, now: float) -> str:
        """The player's vacations to come (or under way) and the days they have left this year."""
        year = year_of(now)
        left = allowance - await self.store.vacations.days_spent(guild, user.id, year)
        lines = [_("🏖️ You have {left} of {allowance} vacation days left in {year} here. Declare one with "
                   "`/vacation from:YYYY-MM-DD to:YYYY-MM-DD`; cancel one with `/vacation cancel:next`.").format(
            left=left, allowance=allowance, year=year)]
        for vacation in await self.store.vacations.of_player(guild, user.id, now):
            lines.append(_("· from {start} to {end}").format(start=utc_moment(vacation.starts),
                                                           end=utc_moment(vacation.ends)))
        return "\n".join(lines)

    async def _plan_again(self, guild: str, user_id: str) -> None:
        """Plan the clocks of the player's games on the server again (their deadlines move with
        the vacation). A game that cannot be planned now keeps its timers: its deadline asks the
        clock again before it fires."""
        for table, _deadlines in await self.store.standings.open_tables_of(guild, user_id):
            if table.status != PLAYING or not table.turn_seconds or not allows_vacations(table):
                continue
            try:
                async with self.tables.lock(table.place):
                    current, game = await self.tables.playing(table.place)
                    if current.id != table.id:
                        continue
                    change = await self.tables.change(current, game)
                    before = {(t.seat, t.kind, t.due) for t in change.timers_before}
                    after = {(t.seat, t.kind, t.due) for t in change.plan()}
                    if after != before:
                        await self.tables.commit(change)
            except (Refused, StaleLog, StaleTable):
                continue
            except Exception:
                log.exception("table %s: planning the clock again after a vacation failed", table.id)
