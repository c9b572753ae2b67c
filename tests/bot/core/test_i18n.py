"""Localisation: every message the bot marks has its Spanish translation with the same
placeholders, a table speaks the language it was opened in, and Spanish clients read the slash
commands in Spanish."""

from __future__ import annotations

import re

import pytest

from bot.core.clock import ManualClock
from bot.core.i18n import _, in_language, language_of, marked_messages, missing, speaking, translations
from bot.core.records import User
from tests.bot.referees import ALICE, BOB, PLACE, running_referee, text


def placeholders(message: str) -> set[str]:
    return set(re.findall(r"\{(\w*)\}", message))


def test_every_marked_message_has_a_spanish_translation_with_the_same_placeholders():
    assert len(marked_messages()) > 150
    assert missing("es") == set()
    for message in marked_messages():
        assert placeholders(in_language(message, "es")) == placeholders(message), message


def test_client_locales_map_to_the_languages_spoken():
    assert language_of("es-ES") == "es" and language_of("es-419") == "es" and language_of("es") == "es"
    assert language_of("en-US") == "en" and language_of("fr") is None and language_of(None) is None


def test_the_language_spoken_is_the_tables_own():
    with speaking("es"):
        assert _("Your hand is empty.") == "Tu mano está vacía."
        with speaking("en"):
            assert _("Your hand is empty.") == "Your hand is empty."
    assert _("Your hand is empty.") == "Your hand is empty."
    assert translations("es").ngettext("Roll back to move {move}? This undoes {count} move ({moves}).", "x",
                                       2).startswith("¿Volver")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_a_table_opened_in_spanish_speaks_spanish_and_an_english_one_english(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        opened = await referee.create(PLACE, ALICE, "tronimoes", options="lang=es")
        assert "abrió una mesa de Tronimoes" in text(opened) and "Únete para jugar" in text(opened)
        await referee.join(PLACE, BOB)
        started = await referee.start(PLACE, ALICE)
        assert "Empieza Tronimoes" in text(started) and "Le toca a" in text(started)
        assert "la partida ya ha empezado" in text(await referee.leave(PLACE, User("test:nobody", "nobody")))
        other = "test:english"
        english = await referee.create(other, ALICE, "tronimoes", language="en")
        assert "opened a Tronimoes table" in text(english)
        bad = await referee.create("test:x", ALICE, "tronimoes", options="lang=fr")
        assert "`lang` is the table's language" in text(bad)


async def test_the_language_of_the_opener_is_the_default_and_the_servers_setting_overrides_it(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert "abrió" in text(await referee.create("test:1", ALICE, "tronimoes", language="es"))
        settings = await referee.settings("g")
        settings.language = "en"
        await referee.store.save_settings(settings)
        assert "opened" in text(await referee.create("test:2", ALICE, "tronimoes", guild="g", language="es"))


def test_a_refusal_at_a_spanish_table_is_wholly_spanish_examples_included():
    from bot.core.i18n import refusal_text
    from engine import GAMES, NotationError

    for name, typed in (("tronix", "hello"), ("tronimoes", "banana"), ("tromino_go", "banana"),
                        ("triominoes", "banana"), ("tetromic", "banana")):
        game = GAMES[name].new(2, seed=1)
        with pytest.raises(NotationError) as refused:
            game.parse(game.to_move()[0], typed)
        with speaking("es"):
            spanish = refusal_text(refused.value)
        assert not re.search(r"\b(play|draw|pass|skip|type|or)\b", spanish), spanish


def test_dates_and_times_are_written_in_the_tables_language():
    from bot.core.i18n import moment
    from bot.core.replies import render_times

    when = 1795598400.0  # Wed 25 Nov 2026, 09:20 UTC
    assert moment(when).startswith("Wed 25 Nov")
    with speaking("es"):
        assert moment(when).startswith("mié 25 nov")
        assert render_times("<t:1000:R>", now=1000 - 86340) == "en 23h 59m"
    assert render_times("<t:1000:R>", now=1000 - 86340) == "in 23h 59m"
