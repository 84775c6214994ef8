/**
 * H1 (two appenders, A1-shaped) on radosgw and through a store that lies about put-if-absent. The writers are
 * separate processes reading the AWS environment: each run sets AWS_ENDPOINT_URL_S3 (which wins over
 * AWS_ENDPOINT_URL) for the processes it forks, to radosgw itself or to the S3 fault proxy in front of it. The
 * lab's own copies, checks and replays keep the client made before any run, straight to radosgw.
 *
 * Left to themselves the two writers seldom claim version 1 at the same moment: the later one usually lists
 * the log after the earlier one's commit landed and goes to version 2 without ever sending a conditional put
 * that could lose. So the runs through the proxy hold the first conditional put of version 1 until the second
 * arrives (both writers listed an empty log by then), and then the store alone decides what each put does.
 * The outcomes below come from the store's answers and the data, never from the case: the lab does not know
 * which store it writes to.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeFor, withConnection } from '@racelab/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type S3FaultProxy, startS3FaultProxy } from '../../engine/test/helpers/s3-fault-proxy';
import { s3Env, s3Root } from '../../engine/test-s3/env';
import type { DeltaCase, FebDay } from '../src/cases/catalog';
import { type Dataset, prepareDataset } from '../src/data/index';
import { type RunResult, runLab, selectCases } from '../src/index';

const SCALE = 0.01;
const work = join(tmpdir(), `racelab-h1-s3-${process.pid}`);
const tableRoot = s3Root('h1');
const radosgw = s3Env().endpoint;
const H1 = selectCases(['H1'])[0] as DeltaCase;
/** The key every writer of H1 tries first: both read version 0. */
const VERSION_1 = '/_delta_log/00000000000000000001.json';

let proxy: S3FaultProxy;
let dataset: Dataset;
/** Rows of each file the runs read, counted from the data set's own Parquet files. */
const rowsOf = new Map<string, number>();
const dayOf = (writer: string): FebDay => {
  const op = H1.writers.find((w) => w.name === writer)?.operation;
  if (!op || !('day' in op)) throw new Error(`H1 has no appender ${writer}`);
  return op.day;
};
const dayRows = (writer: string) => rowsOf.get(dataset.february(dayOf(writer))) as number;
const januaryRows = () => rowsOf.get(dataset.january) as number;

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  proxy = await startS3FaultProxy(radosgw);
  // The data set runLab will find in the same work folder.
  dataset = await prepareDataset({ scale: SCALE, cacheDir: join(work, 'data') });
  const files = [dataset.january, ...H1.writers.map((w) => dataset.february(dayOf(w.name)))];
  await withConnection(async (c) => {
    for (const file of files) {
      const sql = `SELECT count(*) FROM read_parquet('${file.replaceAll("'", "''")}')`;
      rowsOf.set(file, Number((await c.runAndReadAll(sql)).getRows()[0]?.[0]));
    }
  });
  // The lab's own S3 client is made now, from the environment as the script set it: radosgw itself.
  await storeFor(tableRoot).list('');
});
afterAll(async () => {
  await proxy?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** One run of H1 whose writer processes reach S3 at `endpoint`. */
async function runH1(endpoint: string): Promise<RunResult> {
  const before = process.env.AWS_ENDPOINT_URL_S3;
  process.env.AWS_ENDPOINT_URL_S3 = endpoint;
  try {
    const results = await runLab({ cases: ['H1'], runs: 1, scale: SCALE, workDir: work, tableRoot });
    const run = results.cases[0]?.runs[0];
    if (!run) throw new Error('H1 did not run');
    return run;
  } finally {
    if (before === undefined) delete process.env.AWS_ENDPOINT_URL_S3;
    else process.env.AWS_ENDPOINT_URL_S3 = before;
  }
}

/** Through the proxy, the writers' two conditional puts of version 1 go on only once both have arrived. */
function holdVersion1Together(): void {
  proxy.failNext(
    { method: 'PUT', header: 'if-none-match', pathIncludes: VERSION_1, times: 2 },
    'hold-until-all-arrive',
  );
}

/** What the writers' puts of version 1 got, as the proxy saw them (statuses in order). */
const version1Answers = (from: number) =>
  proxy.requests
    .slice(from)
    .filter((r) => r.method === 'PUT' && r.path.includes(VERSION_1))
    .map((r) => r.status)
    .sort();

/** Both appends in the table, each trip once, each writer at its own version. */
function expectBothCommitted(run: RunResult): void {
  expect(run.writers.map((w) => [w.name, w.committed, w.errorMessage])).toEqual(
    H1.writers.map((w) => [w.name, true, null]),
  );
  expect(run.writers.map((w) => w.version).sort()).toEqual([1, 2]);
  expect(run.commitOrder).toHaveLength(2);
  const all = januaryRows() + H1.writers.reduce((n, w) => n + dayRows(w.name), 0);
  expect(run.table).toMatchObject({ version: 2, rows: all, distinctTripIds: all });
  expect(run.verdict).toMatchObject({ status: 'serializable', summary: 'data OK' });
}

/** Both writers report version 1; the log holds one commit there; the other's rows are missing. */
function expectLostCommit(run: RunResult): void {
  expect(run.writers.map((w) => [w.name, w.committed, w.version, w.errorMessage])).toEqual(
    H1.writers.map((w) => [w.name, true, 1, null]),
  );
  expect(run.commitOrder).toHaveLength(1);
  const kept = run.commitOrder?.[0] as string;
  const lost = H1.writers.map((w) => w.name).find((n) => n !== kept) as string;
  expect(H1.writers.map((w) => w.name)).toContain(kept);
  const missing = dayRows(lost);
  const rows = januaryRows() + dayRows(kept);
  expect(run.table).toMatchObject({ version: 1, rows, distinctTripIds: rows });
  // The lost writer's data file is on S3, named by no log entry.
  expect((run.table.dataFilesOnDisk as number) - (run.table.dataFilesInLog as number)).toBe(1);
  expect(run.verdict).toMatchObject({
    status: 'not-serializable',
    rowsMissing: missing,
    rowsDuplicated: 0,
    rowsExtra: 0,
  });
  // Listed in commit order, the lost writer last: compared by name.
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  expect([...(run.verdict?.writers ?? [])].sort(byName)).toEqual(
    H1.writers.map((w) => ({ name: w.name, notApplied: w.name === lost, appliedTwice: false })).sort(byName),
  );
  const names = run.writers.map((w) => w.name).join(' and ');
  expect(run.verdict?.summary).toBe(
    `${missing.toLocaleString('en-US')} rows missing; ${lost}'s commit lost: ${names} both report version 1, the log holds ${kept}'s`,
  );
}

it('H1 on radosgw: both appends commit, at versions 1 and 2; data OK, every trip once', async () => {
  const from = proxy.requests.length;
  expectBothCommitted(await runH1(radosgw));
  // Straight: nothing of this run went through the proxy.
  expect(proxy.requests.length).toBe(from);
});

it('H1 on radosgw, both puts of version 1 sent together (honest proxy): one is refused with 412, its writer commits version 2; data OK', async () => {
  proxy.lie(null);
  holdVersion1Together();
  const from = proxy.requests.length;
  const run = await runH1(proxy.endpoint);
  expect(version1Answers(from)).toEqual([200, 412]);
  expectBothCommitted(run);
  // The refused writer moved past the taken version inside its one call, as on a local disk.
  expect(run.writers.map((w) => w.commitRetries).sort()).toEqual([0, 1]);
});

it.each(['ignore-if-none-match', 'precondition-failed-as-ok'] as const)(
  'H1 through the lying proxy (%s): both writers report version 1, the log holds one commit, the other writer’s rows are missing',
  async (mode) => {
    proxy.lie(mode);
    holdVersion1Together();
    const from = proxy.requests.length;
    try {
      const run = await runH1(proxy.endpoint);
      // Both puts of version 1 were the writers' own, through the proxy, and both were told they succeeded.
      expect(version1Answers(from)).toEqual([200, 200]);
      expectLostCommit(run);
    } finally {
      proxy.lie(null);
    }
  },
);
