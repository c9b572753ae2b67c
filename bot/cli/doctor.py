"""`tileref doctor`: what this machine can and cannot do for tileref, said plainly (for whoever
runs the bot, not for players). Today: which scripts names can be drawn in on the pictures."""

from __future__ import annotations

import logging

from renderers.text import font_files, missing_scripts

log = logging.getLogger(__name__)


def font_report() -> list[str]:
    """Lines saying which fonts the pictures use and which scripts they cannot draw (with the
    Debian package to install for each); the last line says whether all is well."""
    lines = ["Fonts for names on the pictures: Pillow's own"]
    lines += [f"  {path}" for path, _ in font_files()]
    missing = missing_scripts()
    for script, package in missing:
        lines.append(f"✗ cannot draw {script} names (they show as boxes): install {package}")
    if not missing:
        lines.append("✓ every script is drawn: Latin, Greek, Cyrillic, Chinese, Japanese, Korean and emoji")
    return lines


def warn_about_fonts() -> None:
    """Log a warning naming each script names cannot be drawn in (at the bot's start)."""
    for script, package in missing_scripts():
        log.warning("pictures cannot draw %s names (they show as boxes): install %s", script, package)


def doctor() -> int:
    """Print the report; 1 if something is missing, else 0."""
    lines = font_report()
    print("\n".join(lines))
    return 1 if missing_scripts() else 0
