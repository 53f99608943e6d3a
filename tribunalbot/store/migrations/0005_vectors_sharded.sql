-- experience_vectors gains a second partition key, shard = experience id % 2, so a search of
-- one guild runs as two exact half-size scans on two read connections at once (the repository
-- merges them; see experiences.py). The PyPI sqlite-vec scans with a scalar loop, so one scan
-- cannot be made much faster, but two run side by side on two cores. The shard is derived from
-- the row id alone, never chosen, so every vector has exactly one place. Same metric (L2 on
-- unit vectors), same guild partition, same chunk size; every vector is copied byte for byte
-- (0004 already normalized them), all in this migration's transaction.
-- Disk: vec0 allocates whole chunks per partition, now per (guild, shard): a guild with one
-- experience still costs one chunk (~260 KiB), from two experiences on it costs two (~520 KiB),
-- i.e. at most one chunk more per guild than before. chunk_size=256 would keep every guild at
-- or below its old size but scans 5-15% slower at 100,000 vectors.
CREATE TEMP TABLE experience_vectors_copy AS
    SELECT rowid AS id, guild_id, embedding FROM experience_vectors;

DROP TABLE experience_vectors;

CREATE VIRTUAL TABLE experience_vectors USING vec0 (
    guild_id TEXT PARTITION KEY,
    shard INTEGER PARTITION KEY,
    embedding float[128] distance_metric=L2,
    chunk_size=512
);

INSERT INTO experience_vectors (rowid, guild_id, shard, embedding)
    SELECT id, guild_id, id % 2, embedding FROM experience_vectors_copy ORDER BY id;

DROP TABLE experience_vectors_copy;
