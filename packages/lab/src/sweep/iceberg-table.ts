/**
 * An Iceberg sweep point's table: a folder holding its own SQLite SQL catalog and warehouse, and the table
 * `sweep.rows` with the sweep's schema (writer, seq, part, value), empty at the start. The policy's engine-loop
 * retries become the table's `commit.retry.num-retries`, with no pause of the engine's own: the policy's pauses
 * are the application loop's, as they are for Delta (delta-rs's loop does not pause).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RetryPolicy } from '@racelab/contracts';
import { createIcebergTable, IcebergSqliteCatalog, icebergSchemaFromFields } from '@racelab/engine';

export const ICEBERG_SWEEP_TABLE = 'sweep.rows';

const SCHEMA = icebergSchemaFromFields([
  { name: 'writer', type: 'int' },
  { name: 'seq', type: 'int' },
  { name: 'part', type: 'int' },
  { name: 'value', type: 'long' },
]);

/** The point folder's catalog. */
export const openSweepCatalog = (point: string) =>
  IcebergSqliteCatalog.open({ path: join(point, 'catalog.db'), warehouse: join(point, 'warehouse') });

/** The table's commit properties for a policy: its engine-loop retries, unpaused. */
export const icebergCommitProperties = (policy: RetryPolicy): Record<string, string> => ({
  'commit.retry.num-retries': String(policy.maxCommitRetries),
  'commit.retry.min-wait-ms': '0',
  'commit.retry.max-wait-ms': '0',
});

/** Creates the point's empty table (no snapshot: the first append is sequence number 1). */
export async function createIcebergSweepTable(point: string, policy: RetryPolicy): Promise<void> {
  await mkdir(point, { recursive: true });
  const catalog = await openSweepCatalog(point);
  try {
    await createIcebergTable(catalog, ICEBERG_SWEEP_TABLE, {
      schema: SCHEMA,
      properties: icebergCommitProperties(policy),
    });
  } finally {
    await catalog.close();
  }
}
