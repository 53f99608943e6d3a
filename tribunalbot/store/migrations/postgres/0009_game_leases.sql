-- Several processes on one database (DESIGN §8): a game runs in exactly one process at a
-- time, the holder of its lease. The holder renews the lease while the game runs and drops
-- it when the game ends or the process stops; a process that died simply stops renewing,
-- and once the lease has expired (or its holder is seen to be dead) another takes over.
CREATE TABLE game_leases (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- The per-member cooldown is read from the games a member started, in any process.
CREATE INDEX games_starter_created ON games (starter_id, created_at);
