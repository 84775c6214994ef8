/**
 * A run's own table: a new folder of hard links to the base's data files (Parquet files are never
 * modified, so sharing inodes is safe) and a new version 0 carrying the case's table properties.
 * O(files), not O(bytes), and nothing a run does can reach the base: new files get new names and
 * the log is the run's own.
 */
import { link, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildCommitInfo, commit, DeltaTable, fromLogPath, LocalObjectStore, newTableMetadata } from '@racelab/engine';

export async function freshCopy(base: string, dest: string, properties: Record<string, string> = {}): Promise<void> {
  const table = await DeltaTable.open(base);
  const files = table.activeFiles();
  for (const f of files) {
    const key = fromLogPath(f.path);
    await mkdir(dirname(join(dest, key)), { recursive: true });
    await link(join(base, key), join(dest, key));
  }
  const metaData = newTableMetadata(table.schema, {
    partitionBy: table.partitionColumns,
    configuration: { ...table.configuration, ...properties },
  });
  await commit({
    store: new LocalObjectStore(dest),
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
