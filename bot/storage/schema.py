"""The schema, written once: `MIGRATIONS`, the schema's versions in SQLite's words, and
`PG_MIGRATIONS`, the same translated to PostgreSQL's; and the PostgreSQL store's server-side
functions, each of which does in one round trip what would take several."""

from __future__ import annotations

import re

from bot.storage.sql import POSTGRES

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        place TEXT NOT NULL,
        guild TEXT,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        status TEXT NOT NULL,
        seed INTEGER,
        turn_seconds INTEGER,
        paused INTEGER NOT NULL DEFAULT 0,
        created_by TEXT NOT NULL,
        created_at REAL NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX tables_by_place ON tables(place, id);
    CREATE INDEX tables_by_status ON tables(status, id);
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        user_id TEXT,
        agent TEXT,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX actions_live ON actions(table_id, ply) WHERE undone = 0;
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due REAL NOT NULL,
        ply INTEGER NOT NULL
    );
    CREATE INDEX timers_by_due ON timers(due);
    CREATE INDEX timers_by_table ON timers(table_id);
    CREATE TABLE settings (
        guild TEXT PRIMARY KEY,
        data TEXT NOT NULL
    );
    CREATE TABLE snapshots (
        table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        version TEXT NOT NULL,
        data BLOB NOT NULL
    );
    """,
    # 2: table versions, one open table per place, the outbox
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET status = 'aborted' WHERE status IN ('lobby', 'playing') AND id NOT IN
        (SELECT MAX(id) FROM tables WHERE status IN ('lobby', 'playing') GROUP BY place);
    CREATE UNIQUE INDEX tables_open_place ON tables(place) WHERE status IN ('lobby', 'playing');
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        place TEXT NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER,
        data TEXT NOT NULL,
        created_at REAL NOT NULL,
        lease_until REAL NOT NULL,
        delivered_at REAL,
        attempts INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX outbox_pending ON outbox(lease_until) WHERE delivered_at IS NULL;
    CREATE INDEX outbox_by_table ON outbox(table_id, id);
    """,
    # 3: pictures players chose for a table (the chicken-foot of the vision quest)
    """
    CREATE TABLE pictures (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data BLOB NOT NULL,
        source TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seat, kind)
    );
    """,
    # 4: ratings and results (derived from finished games), turn-notification choices, seats by player
    """
    CREATE TABLE results (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild TEXT NOT NULL,
        game TEXT NOT NULL,
        place TEXT NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        rank INTEGER NOT NULL,
        team INTEGER NOT NULL,
        entrants INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        beaten_name TEXT,
        beaten_score REAL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX results_by_player ON results(guild, player, game, finished_at);
    CREATE INDEX results_best_win ON results(guild, player, game, beaten_score) WHERE beaten_score IS NOT NULL;
    CREATE INDEX results_in_order ON results(guild, game, finished_at, table_id, seat);
    CREATE TABLE ratings (
        guild TEXT NOT NULL,
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        score REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild, game, player)
    );
    CREATE INDEX ratings_board ON ratings(guild, game, score DESC, player);
    CREATE INDEX ratings_by_player ON ratings(guild, player, game);
    CREATE TABLE notify (
        user_id TEXT NOT NULL,
        guild TEXT NOT NULL,
        mode TEXT NOT NULL,
        PRIMARY KEY (user_id, guild)
    );
    CREATE INDEX seats_by_user ON seats(user_id, table_id);
    """,
    # 5: AI seats' turns as due work (timers of kind 'ai'), leased to the process planning them
    """
    ALTER TABLE timers ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;
    CREATE INDEX timers_ai_turns ON timers(due) WHERE kind = 'ai';
    """,
    # 6: the unguessable links of tables' spectator pages
    """
    CREATE TABLE watch_links (
        token TEXT PRIMARY KEY,
        table_id INTEGER NOT NULL UNIQUE REFERENCES tables(id) ON DELETE CASCADE
    );
    """,
    # 7: wins, draws and losses apart (a shared first place had counted as a win); the shown rating
    # is the model's mean scaled (1000 + 40 (μ − 25)), no longer mean − 3σ; the leaderboard lists
    # settled ratings (5 games or more) before provisional ones. Earlier results keep their places:
    # `tileref ratings rebuild` places them again by today's rules.
    """
    ALTER TABLE results ADD COLUMN outcome TEXT NOT NULL DEFAULT 'loss';
    UPDATE results SET outcome = CASE WHEN rank > 1 THEN 'loss'
        WHEN EXISTS (SELECT 1 FROM results o WHERE o.table_id = results.table_id AND o.rank = 1
                     AND o.team <> results.team) THEN 'draw'
        ELSE 'win' END;
    ALTER TABLE results DROP COLUMN won;
    UPDATE results SET
        beaten_name = (SELECT b.name FROM results b WHERE b.table_id = results.table_id AND b.rank > results.rank
                       AND b.player <> results.player AND b.mu_before > results.mu_before
                       ORDER BY b.mu_before DESC, b.seat LIMIT 1),
        beaten_score = (SELECT 1000 + 40 * (b.mu_before - 25) FROM results b WHERE b.table_id = results.table_id
                        AND b.rank > results.rank AND b.player <> results.player AND b.mu_before > results.mu_before
                        ORDER BY b.mu_before DESC, b.seat LIMIT 1);
    ALTER TABLE ratings ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ratings ADD COLUMN settled INTEGER NOT NULL DEFAULT 0;
    UPDATE ratings SET
        wins = (SELECT COUNT(DISTINCT r.table_id) FROM results r WHERE r.guild = ratings.guild
                AND r.game = ratings.game AND r.player = ratings.player AND r.outcome = 'win'),
        draws = (SELECT COUNT(DISTINCT r.table_id) FROM results r WHERE r.guild = ratings.guild
                 AND r.game = ratings.game AND r.player = ratings.player AND r.outcome = 'draw'
                 AND NOT EXISTS (SELECT 1 FROM results w WHERE w.table_id = r.table_id AND w.player = r.player
                                 AND w.outcome = 'win')),
        settled = CASE WHEN games >= 5 THEN 1 ELSE 0 END,
        score = 1000 + 40 * (mu - 25);
    DROP INDEX ratings_board;
    CREATE INDEX ratings_board ON ratings(guild, game, settled DESC, score DESC, player);
    """,
    # 8: announcements told together in one message (a run of AI moves) point at the row that
    # replaced them
    """
    ALTER TABLE outbox ADD COLUMN merged_into INTEGER;
    """,
    # 9: accessibility choices, per player on every server (`/accessibility text on`: the board in
    # words and the legal moves grouped, privately with each turn)
    """
    CREATE TABLE accessibility (
        user_id TEXT PRIMARY KEY,
        text_play INTEGER NOT NULL
    );
    """,
    # 10: players' vacations (intervals when their clocks stop on a server) and the days spent each year
    """
    CREATE TABLE vacations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild TEXT NOT NULL,
        user_id TEXT NOT NULL,
        starts REAL NOT NULL,
        ends REAL NOT NULL,
        days INTEGER NOT NULL,
        kind TEXT NOT NULL,
        year INTEGER NOT NULL
    );
    CREATE INDEX vacations_by_player ON vacations(guild, user_id, ends);
    CREATE TABLE vacation_days (
        guild TEXT NOT NULL,
        user_id TEXT NOT NULL,
        year INTEGER NOT NULL,
        spent INTEGER NOT NULL,
        PRIMARY KEY (guild, user_id, year)
    );
    """,
    # 11: each player's choices that hold on every server: quiet hours, and the standing "your
    # turn" list in their DMs (where its message is, and the nonce that creates it once)
    """
    CREATE TABLE notify_player (
        user_id TEXT PRIMARY KEY,
        quiet TEXT,
        list INTEGER NOT NULL DEFAULT 0,
        language TEXT,
        list_message TEXT,
        list_nonce INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX ratings_of_player ON ratings(player, guild);
    """,
    # 12: SQLite's change feed between processes: each commit raises its table's `seq` to one more
    # than any before, so a web process polls for the tables changed since the last `seq` it saw
    # (PostgreSQL has LISTEN/NOTIFY and leaves this table empty)
    """
    CREATE TABLE table_changes (
        table_id INTEGER PRIMARY KEY,
        seq INTEGER NOT NULL
    );
    CREATE INDEX table_changes_seq ON table_changes(seq);
    """,
    # 13: tournaments the bot runs unattended (bot.storage.tournaments): the events, their entrants,
    # rounds (one row a round: a round is paired once), boards (each pairing, its table and its
    # result) and the messages they announce, each sent once (`key` is unique per tournament)
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild TEXT,
        channel TEXT NOT NULL,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        options TEXT NOT NULL,
        starts_at REAL NOT NULL,
        signup_closes REAL NOT NULL,
        round_seconds REAL NOT NULL,
        status TEXT NOT NULL,
        current_round INTEGER NOT NULL DEFAULT 0,
        due REAL,
        created_by TEXT NOT NULL,
        created_at REAL NOT NULL,
        previous_id INTEGER UNIQUE,
        version INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX tournaments_due ON tournaments(due) WHERE due IS NOT NULL;
    CREATE INDEX tournaments_by_guild ON tournaments(guild, status, id);
    CREATE TABLE entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        rating REAL NOT NULL,
        joined_at REAL NOT NULL,
        checked_in INTEGER NOT NULL DEFAULT 0,
        first_round INTEGER NOT NULL DEFAULT 1,
        withdrawn_after INTEGER,
        division INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (tournament_id, number),
        UNIQUE (tournament_id, user_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        paired_at REAL NOT NULL,
        deadline REAL NOT NULL,
        closed_at REAL,
        sat_out TEXT NOT NULL,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE boards (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        division INTEGER NOT NULL DEFAULT 1,
        players TEXT NOT NULL,
        place TEXT,
        table_id INTEGER,
        result TEXT,
        adjudicated INTEGER NOT NULL DEFAULT 0,
        finished_at REAL,
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE UNIQUE INDEX boards_by_table ON boards(table_id) WHERE table_id IS NOT NULL;
    CREATE UNIQUE INDEX boards_by_place ON boards(place) WHERE place IS NOT NULL;
    CREATE TABLE tournament_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        place TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL,
        lease_until REAL NOT NULL,
        delivered_at REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (tournament_id, key)
    );
    CREATE INDEX tournament_messages_pending ON tournament_messages(lease_until) WHERE delivered_at IS NULL;
    """,
]


# ---- PostgreSQL ------------------------------------------------------------------------------

LOCKS = 0x7117
"""The first key of every advisory lock tileref takes (the second is the table or the place)."""

POSTGRES_TYPES = (
    (re.compile(r"INTEGER PRIMARY KEY AUTOINCREMENT"), "BIGSERIAL PRIMARY KEY"),
    (re.compile(r"\b(table_id|tournament_id|previous_id|seed|turn_seconds) INTEGER\b"), r"\1 BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b"), "BYTEA"),
)
"""How the SQLite schema reads in PostgreSQL: 64-bit ids, seeds and times, bytes as BYTEA."""


def in_postgres(script: str) -> str:
    """One of `MIGRATIONS` in PostgreSQL's words: one schema, written once."""
    for pattern, replacement in POSTGRES_TYPES:
        script = pattern.sub(replacement, script)
    return script


PG_MIGRATIONS: list[str] = [in_postgres(script) for script in MIGRATIONS]

COMMIT_FUNCTION = """
CREATE OR REPLACE FUNCTION tileref_commit(
    p_table BIGINT, p_expected INTEGER, p_undo_after INTEGER, p_delete_timer BIGINT, p_actions JSONB,
    p_write_table BOOLEAN, p_place TEXT, p_guild TEXT, p_options TEXT, p_status TEXT, p_seed BIGINT,
    p_turn_seconds BIGINT, p_paused INTEGER, p_meta TEXT, p_version INTEGER, p_seats JSONB,
    p_timers JSONB, p_notices JSONB
) RETURNS BIGINT[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    actual INTEGER;
    notice JSONB;
    ids BIGINT[] := ARRAY[]::BIGINT[];
    new_id BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(LOCKS_KEY, mod(p_table, 2147483647)::INTEGER);
    -- a statement after the lock: it sees every commit that finished while this one waited
    SELECT COUNT(*) INTO actual FROM actions WHERE table_id = p_table AND undone = 0;
    IF actual <> p_expected THEN
        RAISE EXCEPTION 'stale log' USING DETAIL = actual::TEXT;
    END IF;
    IF p_delete_timer IS NOT NULL THEN
        DELETE FROM timers WHERE id = p_delete_timer;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'stale log' USING DETAIL = actual::TEXT;
        END IF;
    END IF;
    IF p_undo_after IS NOT NULL THEN
        UPDATE actions SET undone = 1 WHERE table_id = p_table AND undone = 0 AND ply > p_undo_after;
        DELETE FROM snapshots WHERE table_id = p_table AND ply > p_undo_after;
    END IF;
    INSERT INTO actions (table_id, ply, seat, action, actor, at)
        SELECT p_table, (a->>0)::INTEGER, (a->>1)::INTEGER, a->>2, a->>3, (a->>4)::DOUBLE PRECISION
        FROM jsonb_array_elements(p_actions) AS a;
    IF p_write_table THEN
        UPDATE tables SET place = p_place, guild = p_guild, options = p_options, status = p_status, seed = p_seed,
            turn_seconds = p_turn_seconds, paused = p_paused, meta = p_meta, version = version + 1
            WHERE id = p_table AND version = p_version;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'stale table';
        END IF;
        IF p_seats IS DISTINCT FROM (SELECT COALESCE(jsonb_agg(jsonb_build_array(seat, name, user_id, agent)
                                                               ORDER BY seat), '[]'::JSONB)
                                     FROM seats WHERE table_id = p_table) THEN
            DELETE FROM seats WHERE table_id = p_table;
            INSERT INTO seats (table_id, seat, name, user_id, agent)
                SELECT p_table, (s->>0)::INTEGER, s->>1, s->>2, s->>3 FROM jsonb_array_elements(p_seats) AS s;
        END IF;
    END IF;
    IF p_timers IS NOT NULL THEN
        DELETE FROM timers WHERE table_id = p_table;
        INSERT INTO timers (table_id, seat, kind, due, ply)
            SELECT p_table, (m->>0)::INTEGER, m->>1, (m->>2)::DOUBLE PRECISION, (m->>3)::INTEGER
            FROM jsonb_array_elements(p_timers) AS m;
    END IF;
    FOR notice IN SELECT * FROM jsonb_array_elements(p_notices) LOOP
        INSERT INTO outbox (table_id, place, ply, seat, data, created_at, lease_until)
            VALUES (p_table, notice->>0, (notice->>1)::INTEGER, (notice->>2)::INTEGER, notice->>3,
                    (notice->>4)::DOUBLE PRECISION, (notice->>5)::DOUBLE PRECISION)
            RETURNING id INTO new_id;
        ids := ids || new_id;
    END LOOP;
    PERFORM pg_notify('tileref_' || current_schema(), p_table::TEXT);  -- delivered at commit
    RETURN ids;
END
$$
""".replace("LOCKS_KEY", str(LOCKS))
"""A move's whole commit as one server-side function: one round trip instead of a dozen (the
same checks and writes as `bot.storage.sqlite.SQLiteStore.commit`, in the same order). Replaced
at every start, so it always matches the code that calls it (its table parameters, p_place to
p_meta, are `bot.storage.sql.SAVED_COLUMNS`)."""

LOCK_FUNCTION = """
CREATE OR REPLACE FUNCTION tileref_lock_place(p_place TEXT) RETURNS TABLE (
    id BIGINT, place TEXT, guild TEXT, game TEXT, options TEXT, status TEXT, seed BIGINT, turn_seconds BIGINT,
    paused INTEGER, created_by TEXT, created_at DOUBLE PRECISION, meta TEXT, version INTEGER, seat_rows JSON,
    timer_rows JSON
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_lock(LOCKS_KEY, hashtext(p_place));
    -- a statement after the lock: it sees every command that finished while this one waited
    RETURN QUERY SELECT TABLE_COLUMNS,
        (SELECT COALESCE(json_agg(json_build_array(m.id, m.seat, m.kind, m.due, m.ply) ORDER BY m.due, m.id), '[]')
         FROM timers m WHERE m.table_id = tables.id)
        FROM tables WHERE place = p_place ORDER BY id DESC LIMIT 1;
END
$$
""".replace("LOCKS_KEY", str(LOCKS)).replace("TABLE_COLUMNS", POSTGRES.table_columns)
"""A command's lock on its place (a session advisory lock, held after the call returns) and its
first read, the table at the place with its seats and timers, in one round trip."""
