-- Games, their players and their event log, plus per-call LLM accounting.
CREATE TABLE games (
    id             TEXT PRIMARY KEY,
    guild_id       TEXT NOT NULL DEFAULT '',
    channel_id     TEXT NOT NULL DEFAULT '',
    thread_id      TEXT,
    starter_id     TEXT NOT NULL DEFAULT '',
    starter_name   TEXT NOT NULL DEFAULT '',
    code           TEXT NOT NULL,
    language       TEXT NOT NULL,
    seed           INTEGER NOT NULL,
    settings       TEXT NOT NULL,            -- GameSettings as JSON, so a resume plays the same rules
    context_shared TEXT NOT NULL DEFAULT '',
    context_jurors TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL DEFAULT 'created'
                   CHECK (status IN ('created', 'running', 'finished', 'aborted')),
    phase          TEXT NOT NULL DEFAULT 'deal',
    round          INTEGER NOT NULL DEFAULT 0,
    troublemaker   INTEGER,
    strategy       TEXT,
    caught_round   INTEGER,
    created_at     TEXT NOT NULL,
    finished_at    TEXT
);
CREATE INDEX games_guild_created ON games (guild_id, created_at);
CREATE INDEX games_status ON games (status);

CREATE TABLE players (
    game_id          TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    persona          TEXT NOT NULL,
    name             TEXT NOT NULL,
    is_troublemaker  INTEGER NOT NULL DEFAULT 0,
    strategy         TEXT,
    eliminated_round INTEGER,
    provider         TEXT,
    model            TEXT,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE events (
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL CHECK (seq >= 0),
    kind            TEXT NOT NULL,
    public_payload  TEXT,                    -- what any viewer may see
    private_payload TEXT,                    -- secrets (deal, notes, ledger): never shown early
    at              TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    CHECK (public_payload IS NOT NULL OR private_payload IS NOT NULL)
) WITHOUT ROWID;

-- No foreign key on game_id: accounting must never fail because a call belongs to a game the
-- store does not know (a probe, a terminal game run without --db).
CREATE TABLE llm_calls (
    id            INTEGER PRIMARY KEY,
    game_id       TEXT NOT NULL DEFAULT '',
    seat          INTEGER,
    phase         TEXT NOT NULL,
    provider      TEXT NOT NULL,
    model         TEXT NOT NULL,
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms    REAL NOT NULL DEFAULT 0,
    outcome       TEXT NOT NULL,
    at            TEXT NOT NULL
);
CREATE INDEX llm_calls_game ON llm_calls (game_id);
