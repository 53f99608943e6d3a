-- One webhook per persona per channel (DESIGN §5.2): a webhook created with a persona's avatar
-- shows it on every message, so each persona gets its own. The webhooks table was keyed by
-- channel alone; its rows (one shared webhook per channel) are kept under persona '' and serve
-- as the fallback when a channel has no room for more webhooks (Discord allows 15).
CREATE TABLE webhooks_by_persona (
    channel_id TEXT NOT NULL,
    persona    TEXT NOT NULL,                -- a Persona.key, or '' for the shared webhook
    guild_id   TEXT NOT NULL,
    webhook_id TEXT NOT NULL,
    token      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, persona)
) WITHOUT ROWID;
INSERT INTO webhooks_by_persona (channel_id, persona, guild_id, webhook_id, token, created_at)
    SELECT channel_id, '', guild_id, webhook_id, token, created_at FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_by_persona RENAME TO webhooks;
