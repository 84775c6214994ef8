// One writer: loads the table and writes its data file, then waits for "go" and commits (pyiceberg's retries).
import { createInterface } from 'node:readline';
import { IcebergSqliteCatalog, openIcebergTable, prepareIcebergAppend } from '../../src/iceberg/index';

const [dbPath, id, source] = process.argv.slice(2) as [string, string, string];
const catalog = await IcebergSqliteCatalog.open({ path: dbPath });
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
