"""A tournament's results as a FIDE Tournament Report File (`engine.pairing.trf`): what
`/tournament export` attaches and `tileref tournament export` writes, so an arbiter's tools (or
a pairing engine such as bbpPairings) can check every pairing.

Only a two-player Swiss or round robin has one: TRF holds games between two players, and a
league is several round robins (its divisions). The rounds written are those finished; while a
Swiss is running, whoever will not be paired next (withdrawn) is written with a zero-point bye
in the next round, as pairing engines read it.
"""

from __future__ import annotations

import re
import time

from bot.core.i18n import _
from bot.core.refusals import Refused
from bot.storage.store import Store
from bot.storage.tournaments import DOUBLE_ROUND_ROBIN, FINISHED, ROUND_ROBIN, SWISS, TournamentView
from bot.tournaments.records import two_player_rounds
from bot.tournaments.wording import format_name
from engine import GAMES
from engine.pairing.tiebreaks import ROUND_ROBIN_ORDER, SWISS_ORDER
from engine.pairing.trf import DUTCH, Entrant, Event, report

KINDS = {SWISS: "Individual: Swiss-System (FIDE Dutch, C.04.3)", ROUND_ROBIN: "Individual: round robin (Berger tables)",
         DOUBLE_ROUND_ROBIN: "Individual: double round robin (Berger tables)"}
"""Line 092: the system in words (English, as arbiters' tools expect)."""


def _day(moment: float, form: str = "%Y/%m/%d") -> str:
    return time.strftime(form, time.gmtime(moment))


def trf_text(view: TournamentView) -> str:
    """The TRF of `view`'s tournament (see the module); raises Refused for a format TRF cannot hold."""
    tournament = view.tournament
    if tournament.format not in KINDS:
        raise Refused(_("Only a two-player Swiss or round robin exports as a FIDE report (TRF); {name} is a {format}. "
                        "Its standings are on `/tournament standings` and the tournament's page.").format(
            name=tournament.name, format=format_name(tournament.format)))
    ended = [r.closed_at for r in view.rounds if r.closed_at is not None]
    game = GAMES[tournament.game].title if tournament.game in GAMES else tournament.game
    first = view.rounds[0].paired_at if view.rounds else tournament.starts_at
    last = max(ended) if ended else tournament.starts_at
    event = Event(f"{tournament.name} ({game})", _day(first), _day(last), KINDS[tournament.format], tournament.rounds,
                  time_control=str(tournament.options.get("clock") or ""), arbiter="tileref",
                  round_dates=tuple(_day(r.paired_at, "%y/%m/%d") for r in view.rounds if r.closed_at is not None),
                  system=DUTCH if tournament.format == SWISS else "")
    entrants = [Entrant(e.number, e.name, max(0, min(9999, round(e.rating)))) for e in view.entrants]
    rounds = two_player_rounds(view)
    finished_rounds = sum(1 for r in view.rounds if r.closed_at is not None)
    absent: set[int] = set()
    if tournament.format == SWISS and tournament.status != FINISHED and finished_rounds < tournament.rounds \
            and len(view.rounds) == finished_rounds:
        absent = {e.number for e in view.entrants if not e.plays_in(finished_rounds + 1)}
    order = SWISS_ORDER if tournament.format == SWISS else ROUND_ROBIN_ORDER
    return report(event, entrants, rounds, order=order, absent=absent)


def file_name(view: TournamentView) -> str:
    """The report's file name: the tournament's name in plain letters, and its number."""
    slug = re.sub(r"[^a-z0-9]+", "-", view.tournament.name.lower()).strip("-")[:40]
    return f"{slug or 'tournament'}-{view.tournament.id}.trf"


async def export_trf(store: Store, tournament_id: int) -> tuple[str, bytes]:
    """The TRF attachment of tournament `tournament_id`: (file name, UTF-8 bytes). Raises
    Refused, saying what to type instead, for an unknown tournament or a format TRF cannot hold."""
    view = await store.tournaments.view(tournament_id)
    if view is None:
        raise Refused(_("there is no tournament #{id}; `/tournament list` shows them").format(id=tournament_id))
    return file_name(view), trf_text(view).encode("utf-8")
