-- Human votes (one per game and user), scores, per-guild settings and reusable webhooks.
CREATE TABLE human_votes (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    user_name  TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    first_at   TEXT NOT NULL,
    changed_at TEXT NOT NULL,                -- the early-commitment bonus reads this
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE scores (
    game_id           TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL,
    user_name         TEXT NOT NULL,
    guild_id          TEXT NOT NULL,
    seat              INTEGER NOT NULL,
    correct           INTEGER NOT NULL,
    points            INTEGER NOT NULL,
    jury_missed_bonus INTEGER NOT NULL,
    early_bonus       INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX scores_guild_user ON scores (guild_id, user_id);
CREATE INDEX scores_user ON scores (user_id);

CREATE TABLE guild_settings (
    guild_id   TEXT PRIMARY KEY,
    settings   TEXT NOT NULL,                -- JSON object, validated by the caller
    updated_at TEXT NOT NULL
);

CREATE TABLE webhooks (
    channel_id TEXT PRIMARY KEY,
    guild_id   TEXT NOT NULL,
    webhook_id TEXT NOT NULL,
    token      TEXT NOT NULL,
    created_at TEXT NOT NULL
);
