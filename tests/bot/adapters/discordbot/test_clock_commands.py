"""The clock through the real client and the Discord stand-in: `/tileref new` with a bank and
`vacation` off shows them on the lobby, and `/vacation` declares one or cancels it (or refuses,
saying what to type), privately."""

from __future__ import annotations

from tests.bot.adapters.discordbot.harness import Harness


async def test_a_bank_chosen_at_tileref_new_is_shown_on_the_lobby(tileref: Harness) -> None:
    s = tileref.s
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", clock="3d + 1d / 7d",
                                     vacation=False)).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    assert "bank 3d + 1d a move, at most 7d" in lobby.content and "vacations off" in lobby.content
    refused = await (await s.slash(s.bob, s.channel, "tileref new", game="tronimoes", clock="5d+1d/3d")).reply()
    assert refused.ephemeral and "clock=5d+1d/5d" in refused.content


async def test_vacation_is_declared_privately_and_a_bad_one_refused_saying_what_to_type(tileref: Harness) -> None:
    s = tileref.s
    taken = await (await s.slash(s.alice, s.channel, "vacation", **{"from": "tomorrow", "to": "tomorrow"})).reply()
    assert taken.ephemeral and "Vacation from" in taken.content and "20 vacation days left" in taken.content
    past = await (await s.slash(s.alice, s.channel, "vacation", **{"from": "2020-01-01", "to": "2020-01-02"})).reply()
    assert past.ephemeral and "is in the past" in past.content
    listed = await (await s.slash(s.alice, s.channel, "vacation")).reply()
    assert listed.ephemeral and "20 of 21 vacation days left" in listed.content


async def test_vacation_cancel_gives_the_days_back_privately_and_a_bad_one_says_what_to_type(tileref: Harness) -> None:
    s = tileref.s
    taken = await (await s.slash(s.alice, s.channel, "vacation", **{"from": "tomorrow", "to": "tomorrow"})).reply()
    assert "20 vacation days left" in taken.content
    wrong = await (await s.slash(s.alice, s.channel, "vacation", cancel="2020-01-01")).reply()
    assert wrong.ephemeral and "You have no vacation starting on 2020-01-01: type `/vacation cancel:next`" in \
        wrong.content
    cancelled = await (await s.slash(s.alice, s.channel, "vacation", cancel="next")).reply()
    assert cancelled.ephemeral and "is cancelled: its 1 day is back. 21 vacation days left" in cancelled.content
    nothing = await (await s.slash(s.alice, s.channel, "vacation", cancel="next")).reply()
    assert nothing.ephemeral and "You have no vacation under way or to come here" in nothing.content
