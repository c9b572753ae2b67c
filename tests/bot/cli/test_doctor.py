"""`tileref doctor` and the bot's start say which scripts names cannot be drawn in, and which
Debian package would fix it."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from bot.cli.doctor import font_report, warn_about_fonts
from renderers import text
from renderers.text import missing_scripts


@pytest.fixture
def no_system_fonts(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(text, "CJK_FONTS", ())
    monkeypatch.setattr(text, "EMOJI_FONTS", ())
    for cached in (text.font_files, text.fonts, text._has):
        cached.cache_clear()
    yield
    for cached in (text.font_files, text.fonts, text._has):
        cached.cache_clear()


def test_tileref_doctor_reports_the_fonts_and_every_script_it_cannot_draw():
    done = subprocess.run([sys.executable, "-m", "bot", "doctor"], capture_output=True, text=True, timeout=120)
    assert "DejaVuSans.ttf" in done.stdout
    missing = missing_scripts()
    assert done.returncode == (1 if missing else 0), done.stdout + done.stderr
    for script, package in missing:
        assert f"cannot draw {script} names" in done.stdout and package in done.stdout
    if not missing:
        assert "✓ every script is drawn" in done.stdout


def test_the_bot_warns_at_its_start_about_each_script_it_cannot_draw(no_system_fonts, caplog):
    with caplog.at_level(logging.WARNING, logger="bot.cli.doctor"):
        warn_about_fonts()
    assert "cannot draw Chinese names" in caplog.text and "install fonts-noto-cjk" in caplog.text
    assert "cannot draw emoji names" in caplog.text and "install fonts-noto-color-emoji" in caplog.text
    assert "Latin" not in caplog.text


def test_the_report_names_each_missing_script_with_its_debian_package(no_system_fonts):
    report = "\n".join(font_report())
    assert "cannot draw Chinese names" in report and "install fonts-noto-cjk" in report
    assert "cannot draw emoji names" in report and "install fonts-noto-color-emoji" in report
    assert "Latin" not in report and "Greek" not in report and "✓" not in report
