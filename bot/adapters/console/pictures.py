"""`react <words>` and `quest <words>`: finding pictures, and keeping the one the player picks
(as a reaction, saved in the table's folder, or as their chicken-foot)."""

from __future__ import annotations

from bot.adapters.console.screen import Screen
from bot.adapters.console.terminal import Ask
from bot.core.i18n import _
from bot.core.meta import FOOT
from bot.core.records import User
from bot.core.replies import Attachment
from bot.core.typing_rules import echo
from bot.media.search import Media, MediaError
from bot.service.referee import Referee
from engine.digits import whole_number


async def pick_picture(referee: Referee, user: User, media: Media, screen: Screen, ask: Ask,
                       place: str, kind: str, query: str) -> None:
    """Search pictures for `query`, let the player pick one by number, and react with it
    (`kind` "react") or keep it as their chicken-foot (`kind` "quest") at the table at `place`."""
    say = screen.say
    if not query:
        say(_("What should I look for? For example: `{command} victory`.").format(command=kind))
        return
    result = await media.search(query, limit=9)
    found = result.pictures
    if result.provider_down:
        say(_("The picture service is not answering right now, so these are tileref's own pictures."))
    if not found:
        say(_("Nothing found for “{query}”: try other words.").format(query=echo(query)))
        return
    for number, picture in enumerate(found, start=1):
        say(f"  {number}. {picture.title}")
    say(f"({found[0].attribution})")
    answer = await ask(_("Which one? (a number, or Enter for none) "))
    number = whole_number(answer or "")
    if number is None or not 1 <= number <= len(found):
        say(_("Nothing chosen."))
        return
    chosen = found[number - 1]
    try:
        png = await media.picture(chosen)
    except MediaError as error:
        say(f"✗ {error.said()}")
        return
    table = await referee.table_at(place)
    if kind == "quest":
        reply = await referee.choose_picture(place, user, FOOT, png, chosen.source)
        say(screen.text(reply.caller.text) if reply.caller else _("Done."))
        return
    saved = screen.save_images([Attachment("reaction.png", png, chosen.title)], table.id if table else None)
    say(_("{player} reacts: {title} ({source}) · picture: {path}").format(
        player=user.name, title=chosen.title, source=chosen.attribution, path=saved[-1]))
