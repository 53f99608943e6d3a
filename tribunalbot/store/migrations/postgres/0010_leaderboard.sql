-- Leaderboard integrity (tribunalbot/leaderboard.py): a game counts toward the boards only
-- when enough members voted in it, so each game keeps how many did, written at its reveal.
-- Kept on the game, not counted from its score rows at query time: a member who asks to be
-- forgotten loses their rows, and the other voters' game must not turn into practice then.
-- Games revealed before this migration get the count of their score rows (one per voter;
-- members already forgotten are no longer in it).
ALTER TABLE games ADD COLUMN human_voters INTEGER;
UPDATE games SET human_voters = (SELECT count(*) FROM scores s WHERE s.game_id = games.id)
 WHERE status = 'finished';

-- A board reads one guild's games (a season: those finished within a month), then their
-- scores by key.
CREATE INDEX games_guild_finished ON games (guild_id, finished_at);
