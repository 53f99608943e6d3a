-- A vote cast or changed after the early stop (DESIGN §2.6: the AI jury had just named the
-- Troublemaker) scores no point; it must not count anywhere else either: not as a correct call
-- on the leaderboard, not in the humans' catch rate. Each score row says whether its vote
-- counted. Rows written before this migration all counted: no earlier release stopped early.
ALTER TABLE scores ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
