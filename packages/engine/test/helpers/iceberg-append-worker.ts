// One writer: loads the table and writes its data file, then waits for "go" and commits (pyiceberg's retries).
import { createInterface } from 'node:readline';
import {
  IcebergPostgresCatalog,
  IcebergSqliteCatalog,
  openIcebergTable,
  prepareIcebergAppend,
} from '../../src/ops/iceberg/index';

// The catalog is a SQLite file, or a Postgres URL (then named 'lab', as the Postgres tests create it).
const [where, id, source] = process.argv.slice(2) as [string, string, string];
const catalog = where.startsWith('postgres')
  ? await IcebergPostgresCatalog.open({ connectionString: where, name: 'lab' })
  : await IcebergSqliteCatalog.open({ path: where });
const append = await prepareIcebergAppend(await openIcebergTable(catalog, id), [source]);
console.log('ready');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
try {
  const r = await append.commit({ onWarning: () => {} });
  console.log(JSON.stringify({ snapshotId: r.snapshotId, attempts: r.attempts, warnings: r.warnings }));
} catch (e) {
  console.log(JSON.stringify({ snapshotId: append.snapshotId, error: (e as Error).message, name: (e as Error).name }));
} finally {
  await catalog.close();
}
