-- SQLite's 0005 split each guild's vec0 partition into two shards by id, so two read
-- connections scan it at once. PostgreSQL parallelizes one exact scan by itself: no shard
-- column here. The comment records the choice in the schema.
COMMENT ON TABLE experience_vectors IS
    'one exact scan per guild-scoped search (no shards, no approximate index; see '
    'bench/vectors.py for HNSW against the exact scan)';
