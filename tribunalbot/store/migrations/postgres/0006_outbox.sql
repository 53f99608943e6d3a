-- The outbox (DESIGN §5.1): which public records of a game were shown, as which messages.
-- A record may become several messages (a long review split at 2000 characters, the reveal
-- and its transcript); each gets a row as soon as it is out, so a resume shows exactly the
-- rest. Tables that print (the terminal) store an empty message id.
CREATE TABLE posts (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,        -- the record's position in the game's event log
    part       INTEGER NOT NULL,        -- which of the record's messages
    message_id TEXT NOT NULL DEFAULT '',
    at         TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, part)
);

-- The two messages a game edits in place instead of posting again.
ALTER TABLE games ADD COLUMN status_message_id TEXT;
ALTER TABLE games ADD COLUMN ballot_message_id TEXT;
-- When its table had shown the whole log. A game killed between storing its reveal and
-- posting it is finished but not shown: a restart still posts the rest. Games finished
-- before this migration were shown as they went.
ALTER TABLE games ADD COLUMN shown_at TEXT;
UPDATE games SET shown_at = coalesce(finished_at, created_at)
 WHERE status IN ('finished', 'aborted');
