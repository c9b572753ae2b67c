"""Text tokens as each transport writes them: commands named the way its players type them,
links that leave nothing behind when there is none to give."""

from __future__ import annotations

from bot.core.replies import command_token, link_token, plain, terminal_text
from bot.tables.move_reply import VISION_QUEST


def test_a_command_reads_as_the_terminal_types_it():
    text = _said_with_commands()
    assert plain(text) == "(the picture could not be drawn; `board` shows it; see rules)"
    assert terminal_text(text) == "(the picture could not be drawn; board shows it; see rules)"


def test_texts_kept_for_later_name_no_transport():
    """The vision quest's note is kept in the outbox with a command token, not Discord's `/quest`."""
    quest = VISION_QUEST.format(quest=command_token("quest"))
    assert "/quest" not in quest and "<c:quest>" in quest
    assert "with quest and a few words" in terminal_text(quest)


def test_a_link_with_nothing_to_show_takes_its_separator_along():
    line = "• 2 of 2 (−1.8) · now · " + link_token("console:abc", "")
    assert plain(line) == "• 2 of 2 (−1.8) · now"
    assert plain("won · " + link_token("console:abc", "") + " · then") == "won · then"


def test_bold_is_bold_in_a_colour_terminal_and_plain_words_elsewhere():
    assert terminal_text("**Tronimoes** `3:5`") == "Tronimoes 3:5"
    assert terminal_text("**Tronimoes**", colour=True) == "\x1b[1mTronimoes\x1b[0m"


def _said_with_commands() -> str:
    return "(the picture could not be drawn; `{board}` shows it; see {rules})".format(
        board=command_token("board"), rules=command_token("rules"))
