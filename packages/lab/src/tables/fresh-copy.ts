/**
 * A run's own table: the base's data files copied cheaply (hard links on a local disk, since
 * Parquet files are never modified and sharing inodes is safe; server-side copies on S3) and a
 * new version 0 carrying the case's table properties. O(files), not O(bytes), and nothing a run
 * does can reach the base: new files get new names and the log is the run's own.
 */
import { buildCommitInfo, commit, DeltaTable, fromLogPath, newTableMetadata, storeFor } from '@racelab/engine';

export async function freshCopy(base: string, dest: string, properties: Record<string, string> = {}): Promise<void> {
  const table = await DeltaTable.open(base);
  const files = table.activeFiles();
  const to = storeFor(dest);
  for (const f of files) await to.copyIn(table.store, fromLogPath(f.path));
  const metaData = newTableMetadata(table.schema, {
    partitionBy: table.partitionColumns,
    configuration: { ...table.configuration, ...properties },
  });
  await commit({
    store: to,
    readVersion: -1,
    actions: [
      {
        commitInfo: buildCommitInfo({
          operation: 'CREATE TABLE',
          operationParameters: { mode: 'ErrorIfExists', location: base },
          customMetadata: { writer: 'lab-copy' },
        }),
      },
      { protocol: table.protocol },
      { metaData },
      ...files.map((add) => ({ add: { ...add, dataChange: true } })),
    ],
  });
}
