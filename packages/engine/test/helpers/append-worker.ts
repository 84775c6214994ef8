// One committer: appends a log-only add at read version 0 after the barrier, with delta-rs's retries.
import { createInterface } from 'node:readline';
import { buildCommitInfo, commit, storeFor } from '../../src/index';

const [root, name, retries] = process.argv.slice(2) as [string, string, string];
const store = storeFor(root); // a folder, or s3://bucket/path
const actions = [
  {
    commitInfo: buildCommitInfo({
      operation: 'WRITE',
      operationParameters: { mode: 'Append' },
      customMetadata: { writer: name },
    }),
  },
  { add: { path: `${name}.parquet`, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true } },
];
console.log('ready');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
try {
  const r = await commit({ store, readVersion: 0, actions, maxRetries: Number(retries) });
  console.log(JSON.stringify({ version: r.version, attempts: r.attempts }));
} catch (e) {
  console.log(JSON.stringify({ error: (e as Error).message }));
}
