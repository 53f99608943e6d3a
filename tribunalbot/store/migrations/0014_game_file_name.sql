-- A game keeps the base name of the file its code came from (an attachment, `play PATH`), so
-- that a game resumed after a restart tells its reviewers the same name as before: the name is
-- in every reviewer's prompt. '' for code that came from no file (a paste, a message, a
-- diff), and for every game stored before this migration, whose prompts named no file.
ALTER TABLE games ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
