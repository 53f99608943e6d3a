-- A game started from a pull or merge request keeps which one and the commits its diff was
-- read at, so that its verdict can be posted back as a review (tribunalbot/publish/). The
-- posting state makes that happen once per game, across restarts and processes: a claim
-- ('posting', by whom, since when) is written before the host is asked, the review's link
-- once it answered. A crash between the two is settled by the marker the review carries,
-- looked for on the pull request before anything is posted again.
CREATE TABLE pull_request_reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    host       TEXT NOT NULL,                 -- github | gitlab
    project    TEXT NOT NULL,                 -- owner/repo, or group/.../project
    number     INTEGER NOT NULL,
    head_sha   TEXT NOT NULL DEFAULT '',      -- '' when the host did not say
    base_sha   TEXT NOT NULL DEFAULT '',      -- GitLab's diff_refs, for a comment's place
    start_sha  TEXT NOT NULL DEFAULT '',
    state      TEXT NOT NULL DEFAULT 'none',  -- none | posting | posted
    claimed_by TEXT,                          -- the process posting it (policy/leases.py)
    claimed_at TEXT,
    url        TEXT,                          -- the review, once posted
    posted_at  TEXT
);
