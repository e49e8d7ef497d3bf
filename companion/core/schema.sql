-- The companion's database: games and their append-only event logs.
-- Seats, tokens and other web state have their own tables (web/schema.sql).

CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,          -- which rules: 'bite-night', 'middernacht', ...
    title      TEXT NOT NULL DEFAULT '',
    setup      TEXT NOT NULL,          -- JSON given to Rules.start
    created_at REAL NOT NULL           -- seconds since the epoch
);

CREATE TABLE IF NOT EXISTS events (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,        -- 0-based position in the log; the state id after it is seq+1
    event    TEXT NOT NULL,           -- JSON: {"kind", "data", "actor"}
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
