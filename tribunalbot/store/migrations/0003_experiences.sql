-- Distilled experiences and their vectors. The vec0 row id is the experience id; the guild is a
-- partition key so a guild-scoped search only ever scans that guild's vectors.
CREATE TABLE experiences (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT NOT NULL,
    game_id    TEXT REFERENCES games (id) ON DELETE SET NULL,
    language   TEXT NOT NULL,
    record     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX experiences_guild ON experiences (guild_id);
CREATE INDEX experiences_game ON experiences (game_id);

CREATE VIRTUAL TABLE experience_vectors USING vec0 (
    guild_id TEXT PARTITION KEY,
    embedding float[128] distance_metric=cosine
);
