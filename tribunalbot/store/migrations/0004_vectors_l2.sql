-- experience_vectors ranks by L2 instead of cosine; same guild partition key, same chunk size.
-- A vec0 table cannot change its metric in place, so its vectors are parked in a plain table,
-- the virtual table is recreated under the same name, and the vectors are copied back (rowid =
-- experience id, same guild), all in this migration's transaction. Unit vectors (every vector
-- the embedding makes) are copied byte for byte. L2 ranks like cosine only on unit vectors, so
-- the rare others are fixed on the way: a vector of another length is normalized (cosine
-- ignores length, so its ranking is unchanged), and an all-zero vector (code with no features)
-- is not copied: it has no direction, its cosine distance was NULL, and it made every search
-- of its guild fail; its experience row stays. norm = L2 distance to the zero vector.
CREATE TEMP TABLE experience_vectors_copy AS
    SELECT rowid AS id, guild_id, embedding,
           vec_distance_l2(embedding, vec_sub(embedding, embedding)) AS norm
    FROM experience_vectors;

DROP TABLE experience_vectors;

-- Why L2 on a cosine problem: every stored and query vector is L2-normalized (the repository
-- normalizes anything else and never stores or searches the zero vector), and for unit vectors
-- |a - b|^2 = 2 - 2 a.b = 2 x cosine distance, so both metrics rank identically. The repository
-- reports d^2 / 2, i.e. the cosine distance. sqlite-vec's L2 loop is ~25% cheaper per vector
-- than its cosine loop (one accumulator, no norms), and the scan is the whole cost of a search.
-- chunk_size: see 0003 (512 scans as fast as 1024 at half the disk per small guild).
CREATE VIRTUAL TABLE experience_vectors USING vec0 (
    guild_id TEXT PARTITION KEY,
    embedding float[128] distance_metric=L2,
    chunk_size=512
);

INSERT INTO experience_vectors (rowid, guild_id, embedding)
    SELECT id, guild_id,
           CASE WHEN abs(norm - 1.0) <= 1e-5 THEN embedding ELSE vec_normalize(embedding) END
    FROM experience_vectors_copy WHERE norm > 0 ORDER BY id;

DROP TABLE experience_vectors_copy;
