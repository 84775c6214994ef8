// One committer of log-only appends (one add each) to the table at `root`: after the barrier it commits `count`
// times, each time from the latest version it knows, letting delta-rs's loop move past versions others took.
import { createInterface } from 'node:readline';
import { buildCommitInfo, commit, latestVersion, storeFor } from '../../src/index';

const [root, writer, count] = process.argv.slice(2) as [string, string, string];
const store = storeFor(root);
console.log('ready');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
let read = 0;
for (let i = 0; i < Number(count); i++) {
  read = await latestVersion(store, read);
  const actions = [
    { commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: { mode: 'Append' } }) },
    { add: { path: `${writer}-${i}.parquet`, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true } },
  ];
  read = (await commit({ store, readVersion: read, actions, maxRetries: 10_000 })).version;
}
console.log('done');
