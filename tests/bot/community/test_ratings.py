"""Ratings: OpenSkill's Plackett–Luce updates against figures worked out by hand from the model
(Weng & Lin 2011, Algorithm 4, with the library's defaults μ 25, σ 25/3, β 25/6, τ 25/300),
placements from real games' outcomes, and ratings as derived data: rebuilt from the stored games
they equal the live ones, and a rollback that reopens a game takes its change back."""

from __future__ import annotations

from math import isclose, sqrt

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.community.ratings import Placement, outcome_of, placements, rate
from bot.core.clock import ManualClock
from bot.core.records import FINISHED, SeatRecord, TableRecord, User
from bot.storage.standings import DRAW, LOSS, WIN, Rating, shown
from engine import GAMES
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, started, text

SIGMA2 = (25 / 3) ** 2 + (25 / 300) ** 2
"""A new player's variance once the model's dynamics τ² is added, as every update begins."""
BETA2 = (25 / 6) ** 2
DAVE = User("test:dave", "dave")


def seat(number: int, rank: int, team: int | None = None, ranks: tuple[int, ...] = (1, 2)) -> Placement:
    """Seat `number` placed `rank` among sides placed `ranks`."""
    return Placement(number, f"p{number}", f"p{number}", rank, number if team is None else team,
                     outcome_of(rank, ranks))


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
    results, ratings = rate("g", "tronimoes", 1, "p", 0.0, [seat(0, 1, ranks=(1, 1)), seat(1, 1, ranks=(1, 1))],
                            {})
    c = sqrt(2 * (SIGMA2 + BETA2))
    assert close(results[0].mu, 25.0) and close(results[1].mu, 25.0)
    assert close(results[0].sigma, new_sigma(c, SIGMA2, 1 / 4))
    assert [r.rank for r in results] == [1, 1] and [r.games for r in ratings] == [1, 1]
    assert [(r.wins, r.draws, r.losses) for r in ratings] == [(0, 1, 0), (0, 1, 0)]


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


async def test_a_team_game_is_placed_by_teams_and_the_players_who_left_lose_together(tmp_path) -> None:
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
        assert [(r.player, r.rank, r.outcome) for r in results] == [
            (ALICE.id, 1, "win"), (BOB.id, 1, "win"), (CAROL.id, 2, "loss"), (DAVE.id, 2, "loss")]
        assert results[0].team == results[1].team and results[2].team == results[3].team  # the two who left: one side
        assert len({r.team for r in results}) == 2
        assert close(results[0].mu, results[1].mu) and results[0].mu > 25 > results[2].mu


# ---- what players see follows the result ----------------------------------------------------

PRIORS = st.tuples(st.floats(0, 50), st.floats(0.5, 25 / 3))
"""A player's rating before a game: a mean from far below to far above a newcomer's, and an
uncertainty from a veteran's to a newcomer's."""


@st.composite
def rated_games(draw: st.DrawFn) -> tuple[list[Placement], dict[str, Rating]]:
    """A game of 2 to 16 players, free-for-all or in teams of any sizes, its places with ties
    anywhere, and every player's rating before it."""
    players = draw(st.integers(2, 16))
    if draw(st.booleans()):
        labels = draw(st.lists(st.integers(0, players - 1), min_size=players, max_size=players))
        sides = sorted(set(labels))
        team_of = [sides.index(label) for label in labels]
    else:
        team_of = list(range(players))
    count = max(team_of) + 1
    assume(count >= 2)
    drawn = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    ranks = [sorted(set(drawn)).index(rank) + 1 for rank in drawn]  # places 1, 2, … with ties
    placed = [Placement(s, f"p{s}", f"p{s}", ranks[team_of[s]], team_of[s], outcome_of(ranks[team_of[s]], ranks))
              for s in range(players)]
    current = {p.player: Rating("g", "tronix", p.player, p.name, *draw(PRIORS), games=draw(st.integers(0, 50)))
               for p in placed}
    return placed, current


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=400, deadline=None)
@given(rated_games())
def test_a_win_never_shows_as_a_loss_nor_a_last_place_alone_as_a_gain(game) -> None:
    """Whatever the ratings before: a side alone in first place gains, a side alone in last place
    (every loss of a game of two sides) loses, and the shown change has the sign of the mean's."""
    placed, current = game
    results, _ratings = rate("g", "tronix", 1, "p", 0.0, placed, current)
    ranks = {p.team: p.rank for p in placed}
    last = max(ranks.values())
    alone_last = [team for team, rank in ranks.items() if rank == last] if list(ranks.values()).count(last) == 1 else []
    for r in results:
        moved = r.mu - r.mu_before
        assert r.change == shown(r.mu) - shown(r.mu_before) and sign(r.change) in (0, sign(moved))
        if r.outcome == WIN:
            assert moved > 0 and r.change >= 0, r
        if r.team in alone_last:  # every loss of a two-sided game, one against one or team against team
            assert moved < 0 and r.change <= 0, r
        if len(ranks) == 2 and r.outcome == LOSS:
            assert r.team in alone_last


def test_below_first_in_a_game_of_three_is_a_loss_that_can_still_raise_a_rating() -> None:
    """The one way a loss shows as a gain, as /help says: in a game of three, second ahead of
    someone rated far above, or last level with them."""
    strong = {"p2": Rating("g", "tronimoes", "p2", "p2", 40.0, 3.0, games=30)}
    for ranks in ((1, 2, 3), (1, 2, 2)):
        placed = [seat(number, rank, ranks=ranks) for number, rank in enumerate(ranks)]
        results, ratings = rate("g", "tronimoes", 1, "p", 0.0, placed, strong)
        assert results[1].outcome == LOSS and results[1].change > 0
        assert next(r for r in ratings if r.player == "p1").losses == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(2, 17, 2)), st.integers(0, 2**32), st.randoms(use_true_random=False),
       st.lists(PRIORS, min_size=16, max_size=16))
def test_a_team_loss_never_shows_as_a_gain(players, seed, rng, priors) -> None:
    """Tronix games of 2 to 16 players played at random to their end, with players leaving at
    random: every player of the losing team and everyone who left loses rating, the winning
    team's players still seated gain, whatever everyone's rating was."""
    game = GAMES["tronix"].new(players, seed=seed, options=GAMES["tronix"].Options.parse(
        {"deck_size": str(rng.randint(max(4, players), 3 * players)), "quiet_limit": "20"}))
    while game.outcome() is None:
        seated = [s for s in range(players) if not game.is_resigned(s)]
        if rng.random() < 0.08:
            game.resign(rng.choice(seated))
            continue
        mover = game.to_move()[0]
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    table = TableRecord(id=1, place="test:t", game="tronix", options={}, status=FINISHED, created_by=ALICE.id,
                        created_at=0.0, guild="g", seats=[SeatRecord(s, f"p{s}", f"test:p{s}") for s in range(players)])
    placed = placements(table, game)
    assert placed is not None
    current = {p.player: Rating("g", "tronix", p.player, p.name, *priors[p.seat]) for p in placed}
    results, _ratings = rate("g", "tronix", 1, "test:t", 0.0, placed, current)
    outcome = game.outcome()
    assert outcome is not None
    for r in results:
        left = game.is_resigned(r.seat)
        if left or r.outcome == LOSS:
            assert left or r.seat not in outcome.winners
            assert r.outcome == LOSS and r.mu < r.mu_before and r.change <= 0, r
        elif r.outcome == WIN:
            assert r.seat in outcome.winners and r.mu > r.mu_before and r.change >= 0, r
        else:  # the teams drew: it moves by what was expected of each, either way
            assert r.outcome == DRAW and r.seat in outcome.winners


def test_a_full_tetromic_board_is_placed_by_its_level_not_as_a_resignation() -> None:
    """In Tetromic a board no piece fits is out of play, not left: when every board is out, the
    highest level wins, for the ratings as in the announcement (they had all ranked as a tie)."""
    nearly = ["".join("." if (x + y) % 2 or (x, y) in ((0, 9), (1, 9), (0, 8), (1, 8)) else "O" for x in range(6))
              for y in range(9, -1, -1)]  # only an O fits, at 0,8; then nothing does
    seats = [{"name": name, "level": level, "points": 0, "hand": ["O"], "drew": False, "out": False,
              "resigned": False, "board": nearly} for name, level in (("ana", 3), ("bo", 1))]
    game = GAMES["tetromic"].from_position({"game": "tetromic", "options": {}, "seats": seats, "phase": 1,
                                            "done": [False, False], "queue": [], "winner": None, "result": None})
    game.apply(0, "play O 0,8")
    game.apply(1, "play O 0,8")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,)
    table = TableRecord(id=1, place="test:t", game="tetromic", options={}, status=FINISHED, created_by=ALICE.id,
                        created_at=0.0, seats=[SeatRecord(0, "ana", ALICE.id), SeatRecord(1, "bo", BOB.id)])
    placed = placements(table, game)
    assert placed is not None and [(p.rank, p.outcome) for p in placed] == [(1, WIN), (2, LOSS)]
    results, _ratings = rate("g", "tetromic", 1, "test:t", 0.0, placed, {})
    assert results[0].change > 0 > results[1].change
