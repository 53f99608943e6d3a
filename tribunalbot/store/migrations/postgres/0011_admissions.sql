-- Admission (tribunalbot/policy/admission.py): a game's place is reserved before anything is
-- downloaded or fetched, in one transaction that every other admission waits for, so many
-- /review sent at once, from any process, admit exactly what the limits allow. One row per
-- game admitted: its ticket is the game's id. Until the game is stored, the row alone holds
-- the place (the server's cap, the day's games, the member's cooldown and quota, a share of
-- the budgets); one that never becomes a game (a refused download, a crash) stops counting at
-- held_until. A refusal or a failure deletes its row, and with it the member's cooldown and
-- quota. Rows are pruned after two days: the longest limit is a day.
CREATE TABLE admissions (
    ticket      TEXT PRIMARY KEY,          -- the id of the game it admits
    guild_id    TEXT NOT NULL,
    member_id   TEXT NOT NULL,
    admitted_at TEXT NOT NULL,
    held_until  TEXT NOT NULL,             -- a reservation with no game stored expires then
    estimate    DOUBLE PRECISION NOT NULL DEFAULT 0 -- dollars held against the budgets until it ends
);
CREATE INDEX admissions_member ON admissions (member_id, admitted_at);
CREATE INDEX admissions_guild ON admissions (guild_id, admitted_at);
CREATE INDEX admissions_admitted ON admissions (admitted_at);
