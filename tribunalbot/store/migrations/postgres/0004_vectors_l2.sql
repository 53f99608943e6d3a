-- SQLite's 0004 rebuilt its vec0 table to rank by L2 instead of cosine. pgvector picks the
-- metric per query (the <-> operator is L2), so nothing is rebuilt here: the repository ranks
-- by L2 on unit vectors and reports d^2 / 2, the cosine distance, on both backends. The
-- comment keeps the rule next to the data.
COMMENT ON COLUMN experience_vectors.embedding IS
    'unit vectors only (the all-zero vector is never stored); ranked by L2 (<->), which on '
    'unit vectors orders exactly like cosine distance = d^2 / 2';
