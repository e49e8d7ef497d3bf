-- The table server's own tables, beside the core's games and events (same file).
-- Only hashes of tokens are stored: a copied database lets nobody act as a seat.

CREATE TABLE IF NOT EXISTS settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS rooms (
    game_id    TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    code       TEXT NOT NULL UNIQUE,      -- the short room code phones type in
    host_hash  TEXT NOT NULL,             -- sha256 of the host token
    created_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS seat_tokens (
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat       TEXT NOT NULL,             -- the seat's name, as the game's setup names it
    token_hash TEXT NOT NULL UNIQUE,      -- sha256 of the seat token
    issued_at  REAL NOT NULL,
    revoked_at REAL                       -- NULL while the token is valid
);

CREATE INDEX IF NOT EXISTS seat_tokens_by_seat ON seat_tokens (game_id, seat);
