"""The SIGKILL soak's accounting (thread_audit): made-up outbox rows and thread messages, each
way an announcement can be doubled or lost, and the ways it legitimately is not one message per
row (a run of AI moves in one message, a rolled-back move's note)."""

from __future__ import annotations

from bot.adapters.discordbot.delivery import trim
from tests.bot.adapters.discordbot.thread_audit import Posted, Row, audit

PLACE = "discord:1"
NEXT = "▶️ It's alice's turn."
HOW = "✏️ Type a move like `3:5 c4 d4`, or use /move."


def row(id: int, ply: int, story: str, *, next_line: str = NEXT, kind: str = "move", board: bool = True,
        origin: str = "", table: int = 1) -> Row:
    text = story if kind != "move" else f"{story}\n{next_line}\n{HOW}"
    return Row(id, table, "tronimoes", PLACE, ply, text, kind=kind, board=board, origin=origin)


def sent(r: Row, id: int, **changes: object) -> Posted:
    """The message the outbox (or a typed move) posts for one row: its text, with its nonce."""
    return Posted(id, PLACE, "\n".join(r.shown), nonce=r.nonce, files=("board.png",), **changes)  # type: ignore[arg-type]


def answered(r: Row, id: int, interaction: int) -> Posted:
    """An interaction's answer: the row's text, no nonce."""
    return Posted(id, PLACE, "\n".join(r.shown), interaction=interaction, files=("board.png",))


def merged(rows: list[Row], id: int) -> Posted:
    """A run of AI moves as one message: each story, then who is next after the last; the
    last row's nonce."""
    text = "\n".join([*(r.text.split("\n")[0] for r in rows), NEXT])
    return Posted(id, PLACE, text, nonce=rows[-1].nonce, files=("board.png",))


def rollback(id: int, ply: int, to: int, origin: str) -> Row:
    return row(id, ply, f"⏪ mod rolled the game back to move {to}.", origin=origin)


def note(id: int, move: int, to: int) -> Posted:
    return Posted(id, PLACE, f"(The announcement of move {move} was not sent: a moderator has rolled the game "
                             f"back to move {to} since.)")


def test_each_row_posted_once_is_announced_once() -> None:
    rows = [row(1, 1, "alice lays 3:5."), row(2, 2, "bob draws a tile.", origin="interaction:77")]
    figures = audit(rows, [sent(rows[0], 100), answered(rows[1], 101, 77)]).figures()
    assert figures["announcements_expected"] == 2 and figures["announcements_posted"] == 2
    assert figures["duplicates"] == figures["lost"] == figures["false_notes"] == 0


def test_a_row_posted_again_after_a_crash_is_a_duplicate() -> None:
    """A `/move` answered before the kill, and posted again by the next process's outbox (with
    its nonce): the row is shown twice."""
    moved = row(1, 1, "alice lays 3:5.", origin="interaction:77")
    result = audit([moved], [answered(moved, 100, 77), sent(moved, 101)])
    assert result.figures()["duplicates"] == 1
    [finding] = result.findings
    assert finding.problem == "duplicate" and finding.messages == [100, 101] and finding.how == "interaction+nonce"


def test_a_run_of_ai_moves_in_one_message_stands_for_every_row_of_the_run() -> None:
    rows = [row(1, 1, "alice lays 3:5.", next_line="▶️ It's Pip (bot)'s turn."),
            row(2, 2, "Pip (bot) draws a tile.", next_line="▶️ It's Pip (bot)'s turn."),
            row(3, 3, "Pip (bot) draws a tile.", next_line="▶️ It's Dot (bot)'s turn."),
            row(4, 4, "Dot (bot) lays 5:5.")]
    result = audit(rows, [sent(rows[0], 100), merged(rows[1:], 101)])
    figures = result.figures()
    assert figures["rows_announced"] == 4 and figures["rows_in_merged_messages"] == 3
    assert figures["announcements_posted"] == 2 and figures["duplicates"] == figures["lost"] == 0
    assert figures["text_differs_from_its_row"] == 0


def test_the_earlier_rows_of_a_merged_run_posted_again_are_duplicates() -> None:
    """Killed after the merged message was posted, before it was confirmed: the next process
    sends each row again; the last row's nonce brings back the merged message, but the
    earlier rows, each with its own nonce, are posted a second time."""
    rows = [row(1, 1, "Pip (bot) draws a tile.", next_line="▶️ It's Dot (bot)'s turn."),
            row(2, 2, "Dot (bot) lays 5:5.")]
    result = audit(rows, [merged(rows, 100), sent(rows[0], 101)])
    assert result.figures()["duplicates"] == 1
    assert [(f.problem, f.row, f.how) for f in result.findings] == [("duplicate", 1, "merged+nonce")]


def test_a_row_never_posted_is_lost() -> None:
    rows = [row(1, 1, "alice lays 3:5."), row(2, 2, "🎞️ The whole game, move by move.", kind="replay",
                                                  board=False, origin="interaction:77")]
    result = audit(rows, [sent(rows[0], 100)])
    assert result.figures()["lost"] == 1 and result.findings[0].row == 2


def test_a_rolled_back_move_appears_once_as_its_announcement_or_its_note() -> None:
    moves = [row(1, 1, "alice lays 3:5."), row(2, 2, "bob lays 5:6."), rollback(3, 2, 1, "interaction:9")]
    announced = audit(moves, [sent(moves[0], 100), sent(moves[1], 101), answered(moves[2], 102, 9)]).figures()
    noted = audit(moves, [sent(moves[0], 100), answered(moves[2], 101, 9), note(102, 2, 1)]).figures()
    neither = audit(moves, [sent(moves[0], 100), answered(moves[2], 101, 9)]).figures()
    for figures in (announced, noted):
        assert figures["rows_rolled_back"] == 1 and figures["announcements_expected"] == 3
        assert figures["duplicates"] == figures["lost"] == figures["false_notes"] == 0, figures
    assert noted["notes_posted"] == 1
    assert neither["lost"] == 1


def test_a_note_for_a_move_whose_announcement_is_in_the_thread_is_false() -> None:
    moves = [row(1, 1, "alice lays 3:5."), row(2, 2, "bob lays 5:6."), rollback(3, 2, 1, "interaction:9")]
    result = audit(moves, [sent(moves[0], 100), sent(moves[1], 101), answered(moves[2], 102, 9), note(103, 2, 1)])
    assert result.figures()["false_notes"] == 1
    [finding] = result.findings
    assert finding.row == 2 and finding.messages == [101, 103] and finding.how == "announced and noted"


def test_a_note_for_a_move_no_rollback_undid_is_false() -> None:
    moves = [row(1, 1, "alice lays 3:5."), row(2, 2, "bob lays 5:6.")]
    result = audit(moves, [sent(moves[0], 100), note(101, 2, 1)])
    assert result.figures()["false_notes"] == 1 and result.figures()["lost"] == 0


def test_a_rolled_back_announcement_posted_after_the_rollback_is_counted_as_late() -> None:
    moves = [row(1, 1, "alice lays 3:5."), row(2, 2, "bob lays 5:6."), rollback(3, 2, 1, "interaction:9")]
    figures = audit(moves, [sent(moves[0], 100), answered(moves[2], 101, 9), sent(moves[1], 102)]).figures()
    assert figures["rolled_back_announced_after_the_rollback"] == 1 and figures["duplicates"] == 0


def test_a_replay_a_rollback_undid_may_be_left_unposted() -> None:
    rows = [row(1, 1, "alice lays 3:5."), row(2, 1, "🎞️ The whole game, move by move.", kind="replay", board=False),
            rollback(3, 1, 0, "interaction:9")]
    figures = audit(rows, [sent(rows[0], 100), answered(rows[2], 101, 9)]).figures()
    assert figures["lost"] == 0 and figures["rows_optional"] == 1


def test_a_picture_that_stands_for_no_row_is_unexplained_and_an_unfilled_placeholder_is_counted() -> None:
    rows = [row(1, 1, "alice lays 3:5.")]
    messages = [sent(rows[0], 100), Posted(101, PLACE, "something else", files=("board.png",)),
                Posted(102, PLACE, "", loading=True), Posted(103, PLACE, "**Tronimoes** · players (2/6)")]
    figures = audit(rows, messages).figures()
    assert figures["unexplained_messages"] == 1 and figures["placeholders_left"] == 1
    assert figures["announcements_posted"] == 1


def test_unconfirmed_rows_are_counted() -> None:
    moved = Row(1, 1, "tronimoes", PLACE, 1, "alice lays 3:5.", delivered=False)
    assert audit([moved], [sent(moved, 100)]).figures()["unsent_left"] == 1


def test_an_announcement_posted_after_that_of_a_later_move_is_counted_as_out_of_order() -> None:
    rows = [row(1, 1, "Pip (bot) draws a tile."), row(2, 2, "bob lays 5:6.")]
    figures = audit(rows, [sent(rows[1], 100), sent(rows[0], 101)]).figures()
    assert figures["announced_after_a_later_move"] == 1 and figures["duplicates"] == figures["lost"] == 0


def test_the_moves_cut_from_a_run_too_long_for_one_message_are_lost() -> None:
    """A run of AI moves announced as one message longer than Discord's 2,000 characters is cut
    (its first line, "…", then the end): the moves in between are announced nowhere."""
    story = "Pip (bot) lays 1-2-3 at r-3c-7 for 6 points, and says so at length" + "." * 80
    rows = [row(n, n, f"{story} {n}") for n in range(1, 31)]
    message = merged(rows, 100)
    assert len(message.content) > 2000
    posted = Posted(100, PLACE, trim(message.content), nonce=message.nonce, files=("board.png",))
    result = audit(rows, [posted])
    lost = [f for f in result.findings if f.problem == "lost"]
    assert lost and all(f.how == "cut from its AI run's message (too long)" for f in lost)
    assert 1 not in {f.row for f in lost} and 30 not in {f.row for f in lost}  # the first and the last are shown
    assert result.figures()["lost"] == len(lost) == 30 - result.figures()["rows_announced"]


def a_run(first_id: int, first_ply: int, count: int) -> tuple[list[Row], Row]:
    """`count` AI moves' rows, and the `run` row that tells them together in their place."""
    moves = [row(first_id + n, first_ply + n, f"Pip (bot) lays {n}:{n}.") for n in range(count)]
    text = "\n".join([*(m.text.split("\n")[0] for m in moves), NEXT, HOW])
    run = Row(first_id + count, 1, "tronimoes", PLACE, first_ply + count - 1, text, kind="run")
    return [Row(m.id, m.table_id, m.game, m.place, m.ply, m.text, merged_into=run.id) for m in moves], run


def test_a_run_row_posted_once_tells_each_of_its_moves_once() -> None:
    moves, run = a_run(1, 1, 3)
    figures = audit([*moves, run], [sent(run, 100)]).figures()
    assert figures["announcements_expected"] == 3 and figures["rows_announced"] == 3
    assert figures["duplicates"] == figures["lost"] == 0


def test_a_move_of_a_run_posted_on_its_own_as_well_is_a_duplicate() -> None:
    moves, run = a_run(1, 1, 3)
    result = audit([*moves, run], [sent(run, 100), sent(moves[0], 101)])
    assert result.figures()["duplicates"] == 1 and result.findings[0].row == moves[0].id


def test_a_run_row_never_posted_loses_its_moves() -> None:
    moves, run = a_run(1, 1, 2)
    assert audit([*moves, run], []).figures()["lost"] == 2
