"""Ratings: OpenSkill's Plackett–Luce updates against figures worked out by hand from the model
(Weng & Lin 2011, Algorithm 4, with the library's defaults μ 25, σ 25/3, β 25/6, τ 25/300),
placements from real games' outcomes, and ratings as derived data: rebuilt from the stored games
they equal the live ones, and a rollback that reopens a game takes its change back."""

from __future__ import annotations

from math import isclose, sqrt

from bot.ratings import Placement, rate
from bot.records import User
from bot.timers import ManualClock
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, started, text

SIGMA2 = (25 / 3) ** 2 + (25 / 300) ** 2
"""A new player's variance once the model's dynamics τ² is added, as every update begins."""
BETA2 = (25 / 6) ** 2
DAVE = User("test:dave", "dave")


def seat(number: int, rank: int, team: int | None = None) -> Placement:
    return Placement(number, f"p{number}", f"p{number}", rank, number if team is None else team, rank == 1)


def new_sigma(c: float, team_variance: float, delta: float) -> float:
    """σ after an update of a new player whose side has `team_variance`, its Σ p(1−p)/A being `delta`."""
    gamma = sqrt(team_variance) / c
    return sqrt(SIGMA2 * (1 - (SIGMA2 / team_variance) * gamma * (team_variance / c ** 2) * delta))


def close(a: float, b: float) -> bool:
    return isclose(a, b, rel_tol=1e-9)


def test_two_players_winner_gains_what_the_loser_loses() -> None:
    results, _ = rate("g", "tronimoes", 1, "p", 0.0, [seat(0, 1), seat(1, 2)], {})
    c = sqrt(2 * (SIGMA2 + BETA2))  # 13.1767
    assert close(results[0].mu, 25 + SIGMA2 / (2 * c)) and close(results[0].mu, 27.635389493140497)
    assert close(results[1].mu, 25 - SIGMA2 / (2 * c))
    assert close(results[0].sigma, new_sigma(c, SIGMA2, 1 / 4)) and close(results[1].sigma, results[0].sigma)
    assert isclose(results[0].sigma, 8.0659, abs_tol=1e-4)


def test_three_players_in_three_places() -> None:
    results, _ = rate("g", "tronimoes", 1, "p", 0.0, [seat(0, 1), seat(1, 2), seat(2, 3)], {})
    c = sqrt(3 * (SIGMA2 + BETA2))
    # Ω: first 1 − 1/3; second −1/3 + (1 − 1/2); third −1/3 − 1/2. Σp(1−p): 2/9, 2/9 + 1/4, 2/9 + 1/4.
    for result, omega, delta in zip(results, (2 / 3, 1 / 6, -5 / 6), (2 / 9, 17 / 36, 17 / 36), strict=True):
        assert close(result.mu, 25 + SIGMA2 / c * omega)
        assert close(result.sigma, new_sigma(c, SIGMA2, delta))


def test_a_tie_moves_no_mean_and_shares_the_place() -> None:
    results, ratings = rate("g", "tronimoes", 1, "p", 0.0, [seat(0, 1), seat(1, 1)], {})
    c = sqrt(2 * (SIGMA2 + BETA2))
    assert close(results[0].mu, 25.0) and close(results[1].mu, 25.0)
    assert close(results[0].sigma, new_sigma(c, SIGMA2, 1 / 4))
    assert [r.rank for r in results] == [1, 1] and [r.games for r in ratings] == [1, 1]


def test_two_teams_share_their_side_update() -> None:
    placed = [seat(0, 1, team=0), seat(1, 1, team=0), seat(2, 2, team=1), seat(3, 2, team=1)]
    results, ratings = rate("g", "tronix", 1, "p", 0.0, placed, {})
    team = 2 * SIGMA2
    c = sqrt(2 * (team + BETA2))
    assert close(results[0].mu, 25 + SIGMA2 / (2 * c)) and close(results[1].mu, results[0].mu)
    assert close(results[2].mu, 25 - SIGMA2 / (2 * c))
    assert close(results[0].sigma, new_sigma(c, team, 1 / 4))
    assert sorted(r.wins for r in ratings) == [0, 0, 1, 1]


def test_a_win_over_a_higher_rated_player_is_remembered() -> None:
    first, ratings = rate("g", "tronimoes", 1, "p", 0.0, [seat(0, 1), seat(1, 2)], {})
    strong = {r.player: r for r in ratings}
    upset, _ = rate("g", "tronimoes", 2, "p", 1.0, [seat(0, 2), seat(1, 1)], strong)
    assert upset[1].beaten_name == "p0" and close(upset[1].beaten_score or 0, strong["p0"].score)
    assert upset[0].beaten_name is None and first[0].beaten_name is None


async def _ratings(referee) -> list[tuple[str, str, str, float, float, int, int]]:
    return [(r.guild, r.game, r.player, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins)
            for r in await referee.store.standings.all_ratings()]


async def test_a_finished_game_is_rated_and_rebuild_gives_the_same(database, tmp_path) -> None:
    clock = ManualClock()
    async with running_referee(database, clock) as referee:
        for number in range(3):
            place = f"test:game{number}"
            await started(referee, ALICE, BOB, place=place)
            loser = BOB if number != 1 else ALICE
            ended = await referee.resign(place, loser)
            assert "📈 Ratings:" in text(ended) and "provisional" in text(ended)
            await clock.advance(60)
        await started(referee, ALICE, BOB, CAROL, place="test:three")
        await referee.resign("test:three", CAROL)
        await referee.resign("test:three", ALICE)
        live = await _ratings(referee)
        assert [(p, games, wins) for _g, _n, p, _m, _s, games, wins in live] == [
            (ALICE.id, 4, 2), (BOB.id, 4, 2), (CAROL.id, 1, 0)]
        three = await referee.store.standings.results_of_table((await referee.store.table_at("test:three")).id)
        assert [(r.player, r.rank) for r in three] == [(ALICE.id, 2), (BOB.id, 1), (CAROL.id, 2)]
        assert await referee.ratings.rebuild() == (4, 3)
        assert await _ratings(referee) == live


async def test_rated_off_and_aborted_games_are_not_rated(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, "tronimoes", options="rated=off")).ok
        await referee.join(PLACE, BOB)
        await referee.start(PLACE, ALICE)
        assert "Ratings" not in text(await referee.resign(PLACE, BOB))
        await started(referee, ALICE, BOB, place="test:stopped")
        await referee.abort("test:stopped", MOD)
        assert await referee.store.standings.all_ratings() == []
        refused = await referee.create("test:bad", ALICE, "tronimoes", options="rated=sometimes")
        assert not refused.ok and "`rated` is on or off" in text(refused)


async def test_ai_seats_are_rated_per_agent(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.add_ai(PLACE, ALICE, "greedy")
        await referee.start(PLACE, ALICE)
        await referee.resign(PLACE, ALICE)
        players = {r.player: r for r in await referee.store.standings.all_ratings()}
        assert set(players) == {ALICE.id, "ai:greedy"} and players["ai:greedy"].wins == 1
        assert players["ai:greedy"].name == "AI (greedy)"


async def test_a_rollback_that_reopens_a_game_takes_its_rating_back(database) -> None:
    clock = ManualClock()
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB, place="test:first")
        await referee.resign("test:first", BOB)
        await clock.advance(60)
        before = await _ratings(referee)
        await started(referee, ALICE, BOB, place="test:second")
        await referee.resign("test:second", ALICE)
        assert await _ratings(referee) != before
        length = await referee.store.log_length((await referee.store.table_at("test:second")).id)
        reopened = await referee.rollback("test:second", MOD, length - 1, reopen=True)
        assert reopened.ok, text(reopened)
        assert await _ratings(referee) == before
        table = await referee.store.table_at("test:second")
        assert await referee.store.standings.results_of_table(table.id) == []
        await referee.resign("test:second", BOB)  # finished again, the other way: rated again
        again = {r[2]: r for r in await _ratings(referee)}
        assert again[ALICE.id][6] == 2
        live = await _ratings(referee)
        await referee.ratings.rebuild()
        assert await _ratings(referee) == live


async def test_a_team_game_is_placed_by_teams_and_resignations_come_last(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.create(PLACE, ALICE, "tronix")
        for player in (BOB, CAROL, DAVE):
            await referee.join(PLACE, player)
        await referee.start(PLACE, ALICE)
        await referee.resign(PLACE, CAROL)
        ended = await referee.resign(PLACE, DAVE)  # the green team is left: it wins
        assert "📈 Ratings:" in text(ended)
        table = await referee.store.table_at(PLACE)
        results = await referee.store.standings.results_of_table(table.id)
        assert [(r.player, r.rank, r.won) for r in results] == [
            (ALICE.id, 1, True), (BOB.id, 1, True), (CAROL.id, 2, False), (DAVE.id, 2, False)]
        assert results[0].team == results[1].team and len({r.team for r in results}) == 3
        assert close(results[0].mu, results[1].mu) and results[0].mu > 25 > results[2].mu
