"""`tileref admin stuck` names each table whose announcements, clocks or AI turns are overdue, and
why, on both databases; a table within its limits is not named."""

from __future__ import annotations

from bot.cli.main import main
from bot.cli.stuck import stuck
from bot.core.clock import ManualClock
from bot.core.records import User
from bot.durable.health import HealthLimits
from tests.bot.referees import running_referee

ALICE, BOB = User("a", "Alice"), User("b", "Bob")
LIMITS = HealthLimits(outbox_seconds=300, timer_lag_seconds=60, ai_seconds=300)


async def open_table(referee, place: str) -> None:
    await referee.create(place, ALICE, "tronimoes", turn_time="1h")
    await referee.join(place, BOB)
    assert (await referee.start(place, ALICE)).ok


async def test_a_deadline_nobody_fired_names_its_table_and_says_why(database):
    clock = ManualClock()
    async with running_referee(database, clock) as referee:
        await open_table(referee, "stuck:late")
        table = await referee.table_at("stuck:late")
        first_due = min(t.due for t in await referee.store.timers(table.id))  # a reminder, then the deadline
    assert await stuck(database, LIMITS, ManualClock(first_due + 30)) == []  # within the minute the limit allows
    [said] = await stuck(database, LIMITS, ManualClock(first_due + 120))
    assert said.startswith(f"table {table.id} (tronimoes, stuck:late):")
    assert "a deadline or reminder fell due 2m ago and has not fired (limit 1m)" in said


async def test_an_announcement_left_undelivered_names_its_table_and_a_pause_is_mentioned(database):
    clock = ManualClock()
    async with running_referee(database, clock, confirms_delivery=True) as referee:  # nobody confirms
        await referee.outbox.stop()
        await open_table(referee, "stuck:quiet")
        mod = User("m", "Mo", moderator=True)
        assert (await referee.pause("stuck:quiet", mod)).ok
    [said] = await stuck(database, LIMITS, ManualClock(clock.now() + 600))
    assert "an announcement has waited 10m to be delivered (limit 5m)" in said
    assert "its clock is paused by a moderator" in said


def test_the_command_says_when_nothing_is_stuck_and_forget_needs_a_player(tmp_path, capsys):
    database = str(tmp_path / "quiet.sqlite3")
    assert main(["--db", database, "migrate"]) == 0
    assert main(["--db", database, "admin", "stuck"]) == 0
    assert "Nothing is stuck" in capsys.readouterr().out
    try:
        main(["--db", database, "admin", "forget"])
    except SystemExit as exit:
        assert exit.code == 2
    assert "admin forget needs the player's id" in capsys.readouterr().err
