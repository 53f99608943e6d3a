-- Distilled experiences and their vectors. The runner enables pgvector before the first
-- migration (it may need a superuser once; see migrations/__init__.py).
-- experience_vectors.id is the experience id (SQLite's vec0 rowid); a guild-scoped search
-- filters on guild_id through its index and scans only that guild's vectors, exactly.
CREATE TABLE experiences (
    id         BIGINT PRIMARY KEY,           -- handed out by the repository, as on SQLite
    guild_id   TEXT NOT NULL,
    game_id    TEXT REFERENCES games (id) ON DELETE SET NULL,
    language   TEXT NOT NULL,
    record     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX experiences_guild ON experiences (guild_id);
CREATE INDEX experiences_game ON experiences (game_id);

CREATE TABLE experience_vectors (
    id        BIGINT PRIMARY KEY REFERENCES experiences (id) ON DELETE CASCADE,
    guild_id  TEXT NOT NULL,
    embedding vector(128) NOT NULL
);
CREATE INDEX experience_vectors_guild ON experience_vectors (guild_id);
