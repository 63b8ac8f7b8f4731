-- The Merkle log's inner nodes, so a proof reads O(log² n) stored hashes instead of every leaf of the
-- tree: node (level, node_index) is the root of the perfect subtree of 2^level leaves starting at leaf
-- node_index·2^level (the leaves themselves, level 0, stay in audit_leaves). Levels 1 to 3 are not kept
-- (a proof makes one from at most 8 leaves), so the table holds one row per 16 leaves. The audit_log
-- reactor inserts the nodes each leaf completes, in the statement that inserts the leaf.
CREATE TABLE audit_nodes (
  level      smallint NOT NULL CHECK (level BETWEEN 1 AND 62),
  node_index bigint   NOT NULL CHECK (node_index >= 0),
  hash       bytea    NOT NULL CHECK (octet_length(hash) = 32),
  PRIMARY KEY (level, node_index)
);

-- The nodes of the leaves already there, level by level (RFC 9162 node hash: SHA-256(0x01 || left || right)).
DO $$
DECLARE
  lvl smallint := 1;
  made bigint;
BEGIN
  INSERT INTO audit_nodes (level, node_index, hash)
  SELECT 1, l.leaf_index / 2, sha256('\x01'::bytea || l.leaf_hash || r.leaf_hash)
  FROM audit_leaves l JOIN audit_leaves r ON r.leaf_index = l.leaf_index + 1
  WHERE l.leaf_index % 2 = 0;
  GET DIAGNOSTICS made = ROW_COUNT;
  WHILE made > 1 LOOP
    INSERT INTO audit_nodes (level, node_index, hash)
    SELECT lvl + 1, l.node_index / 2, sha256('\x01'::bytea || l.hash || r.hash)
    FROM audit_nodes l JOIN audit_nodes r ON r.level = lvl AND r.node_index = l.node_index + 1
    WHERE l.level = lvl AND l.node_index % 2 = 0;
    GET DIAGNOSTICS made = ROW_COUNT;
    lvl := lvl + 1;
  END LOOP;
  -- The levels below 4 were only steps to the ones above.
  DELETE FROM audit_nodes WHERE level < 4;
END
$$;
