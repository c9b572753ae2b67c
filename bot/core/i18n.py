"""Localisation: gettext catalogs and the language of the table being served.

Messages are written in English in the code, marked with `_()` (`_("{player} joined.")`, then
`.format(...)`), and translated from the PO catalogs in `bot/locale/<language>/LC_MESSAGES/`,
read with Babel. Every table has a language (the `lang=` option; else the server's setting;
else the language of whoever opened it); the referee switches to it while it serves the table
(`speaking`), so everything said at that table comes in its language. A message without a
translation stays in English.

To add a language: copy `bot/locale/es`, translate every `msgstr`, and add it to `LANGUAGES`.
`python -m bot.core.i18n` lists the marked messages a catalog is missing.
"""

from __future__ import annotations

import ast
import contextlib
import datetime
import gettext
import io
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import renderers.common
from engine.core import GameError, Term

LOCALE = Path(__file__).resolve().parents[1] / "locale"
LANGUAGES = {"en": "English", "es": "Español"}
DEFAULT = "en"
DOMAIN = "tileref"

_language: ContextVar[str] = ContextVar("tileref_language", default=DEFAULT)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of `language` (English: none needed)."""
    path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == DEFAULT or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _(message: str) -> str:
    """`message` in the language being spoken now."""
    return translations(_language.get()).gettext(message)


def current_language() -> str:
    """The language being spoken now."""
    return _language.get()


def ngettext(singular: str, plural: str, count: int) -> str:
    """`singular` or `plural` (as `count` asks) in the language being spoken now."""
    return translations(_language.get()).ngettext(singular, plural, count)


def in_language(message: str, language: str) -> str:
    """`message` in `language`, whatever is being spoken now."""
    return translations(language).gettext(message)


def speak(language: str | None) -> None:
    """Speak `language` from now on in this task (the referee calls it when it loads a table)."""
    _language.set(language if language in LANGUAGES else DEFAULT)


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Speak `language` inside the `with` block."""
    token = _language.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _language.reset(token)


def language_of(locale: str | None) -> str | None:
    """The language tileref speaks for a client locale (`es-ES`, `es-419` -> `es`), or None if
    it speaks none closer than the default."""
    if not locale:
        return None
    base = str(locale).replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def marked_messages(*roots: Path) -> set[str]:
    """Every literal string marked with `_()`, `N_()`, `ngettext()` or `NP_()` (the first of a
    plural pair) in the bot's, the engine's and the renderers' code (the catalogs must cover them)."""
    bot = Path(__file__).resolve().parents[1]
    found = set()
    for path in (p for root in (roots or (bot, bot.parent / "engine", bot.parent / "renderers"))
                 for p in root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "N_", "ngettext", "NP_") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def missing(language: str) -> set[str]:
    """Marked messages `language`'s catalog does not translate."""
    catalog = translations(language)
    return {m for m in marked_messages() if catalog.gettext(m) == m and catalog.ngettext(m, m + "\0", 1) == m}


def said(template: str, args: dict[str, object], text: str) -> str:
    """A game's sentence in the language being spoken: its `template` translated and filled with
    `args` (those that are `Term`s translated too), or `text` (as the game wrote it) when there is
    no template or it cannot be filled."""
    if not template:
        return text
    clause = Term(text)
    clause.template, clause.args = template, args
    return spoken(clause)


def spoken(value: str) -> str:
    """A game's words (a `Term`: a word, a clause, a description; or a marked sentence) in the
    language being spoken. A translation that cannot be filled falls back to the English."""
    if not isinstance(value, Term):
        return _(value)
    try:
        return value.say(_)
    except (KeyError, IndexError, ValueError):
        return str(value)


def refusal_text(error: GameError) -> str:
    """What a game's refusal says, in the language being spoken."""
    return said(error.template, error.values, str(error))


def N_(message: str) -> str:
    """Mark `message` for translation without translating it now (it is translated when used)."""
    return message


def moment(when: float) -> str:
    """A moment (seconds since the epoch) as players of the language being spoken write it, in
    UTC: "Wed 25 Nov 14:05 UTC", "mié 25 nov 14:05 UTC"."""
    stamp = datetime.datetime.fromtimestamp(when, datetime.UTC)
    return format_datetime(stamp, "EEE d MMM HH:mm", tzinfo=datetime.UTC, locale=_language.get()) + " UTC"


renderers.common.translate = _  # pictures say their words in the table's language too
renderers.common.moment_text = moment


if __name__ == "__main__":
    for lang in LANGUAGES:
        if lang != DEFAULT:
            gaps = sorted(missing(lang))
            print(f"{lang}: {len(gaps)} messages without a translation", file=sys.stderr)
            for gap in gaps:
                print(f"  {gap!r}")
