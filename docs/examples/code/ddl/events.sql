-- The events table, as the platform team created it.
CREATE TABLE IF NOT EXISTS lake.events (
  event_id BIGINT,
  kind STRING,
  at TIMESTAMP
) USING DELTA
TBLPROPERTIES (
  'delta.isolationLevel' = 'Serializable',
  'delta.enableDeletionVectors' = 'true'
);

-- ALTER TABLE lake.events SET TBLPROPERTIES ('delta.isolationLevel' = 'SnapshotIsolation');
