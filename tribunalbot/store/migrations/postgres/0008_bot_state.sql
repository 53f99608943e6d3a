-- What the bot keeps about itself, and when servers that removed it are to be forgotten.

-- Small named values read at start. "commands:global" and "commands:guild:<id>" hold the
-- hash of the command payloads last synced to that scope: a start whose commands did not
-- change makes no sync (a sync is a bulk overwrite under a tight daily limit).
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- Servers the bot was removed from (not outages). Their data is purged once the grace
-- period after departed_at has passed; a rejoin deletes the row, which cancels the purge.
CREATE TABLE guild_departures (
    guild_id    TEXT PRIMARY KEY,
    departed_at TEXT NOT NULL
);
