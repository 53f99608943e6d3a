-- One webhook per persona per channel (DESIGN §5.2): a webhook created with a persona's avatar
-- shows it on every message, so each persona gets its own. The webhooks table was keyed by
-- channel alone; its rows (one shared webhook per channel) are kept under persona '' and serve
-- as the fallback when a channel has no room for more webhooks (Discord allows 15).
-- PostgreSQL changes the key in place (SQLite must copy the table to do it).
ALTER TABLE webhooks ADD COLUMN persona TEXT NOT NULL DEFAULT '';  -- a Persona.key, or ''
ALTER TABLE webhooks ALTER COLUMN persona DROP DEFAULT;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_pkey;
ALTER TABLE webhooks ADD PRIMARY KEY (channel_id, persona);
