/**
 * The same catalog on Postgres (an embedded server from @racelab/pg-server, stopped by PID afterwards): create, append,
 * read, and the three ways a concurrent append ends (retry, "has changed", lost swap).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PostgresServer, processAlive, startPostgresServer } from '@racelab/pg-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitFailedException } from '../src/kernel/iceberg/types';
import { appendParquetToIcebergTable, createIcebergTable, prepareIcebergAppend } from '../src/ops/iceberg/append';
import { PostgresCatalog } from '../src/ops/iceberg/postgres-catalog';
import { scanIcebergTable } from '../src/ops/iceberg/scan';
import { openIcebergTable } from '../src/ops/iceberg/table';
import { writeTripsParquet } from './helpers/iceberg';
import { raceProcesses, releaseInOrder } from './helpers/processes';

// The server runs as OS user postgres when we are root: its folder's parents must be 0755.
const root = mkdtempSync(join(tmpdir(), 'racelab-iceberg-pg-'));
chmodSync(root, 0o755);
let server: PostgresServer;
const catalogs: PostgresCatalog[] = [];
let source: string;
let other: string;

async function catalog(): Promise<PostgresCatalog> {
  const c = await PostgresCatalog.open({ connectionString: server.url, name: 'lab', warehouse: join(root, 'wh') });
  catalogs.push(c);
  return c;
}

beforeAll(async () => {
  server = await startPostgresServer({ dataDir: join(root, 'pg') });
  source = await writeTripsParquet(join(root, 'jan15.parquet'), 1, 5);
  other = await writeTripsParquet(join(root, 'other.parquet'), 100, 7);
}, 120_000);

afterAll(async () => {
  for (const c of catalogs) await c.close();
  if (server) {
    await server.stop();
    expect(processAlive(server.pid)).toBe(false);
  }
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const WORKER = fileURLToPath(new URL('./helpers/iceberg-append-worker.ts', import.meta.url));
type Out = { snapshotId: string; attempts?: number; warnings?: string[]; error?: string; name?: string };
const parse = (r: { code: number | null; out: string[] }): Out => {
  expect(r.code).toBe(0);
  return JSON.parse(r.out[0] as string) as Out;
};

describe('two processes on a Postgres catalog', () => {
  it('with default retries both commit and exactly one warns', async () => {
    const c = await catalog();
    await createIcebergTable(c, 'lab.procs_default', { schemaFrom: source });
    await appendParquetToIcebergTable(c, 'lab.procs_default', [source]);
    const outs = (await raceProcesses(WORKER, () => [server.url, 'lab.procs_default', source], 2)).map(parse);
    expect(outs.map((o) => o.error)).toEqual([undefined, undefined]);
    expect(outs.flatMap((o) => o.warnings ?? [])).toHaveLength(1);
    expect((await scanIcebergTable(await openIcebergTable(c, 'lab.procs_default'))).rowCount).toBe(15);
  });

  it.each([0, 1])('with 0 retries, whichever arrives second fails with "has changed" (order %i)', async (order) => {
    const c = await catalog();
    const id = `lab.procs_zero_${order}`;
    await createIcebergTable(c, id, { schemaFrom: source, properties: { 'commit.retry.num-retries': '0' } });
    const base = (await appendParquetToIcebergTable(c, id, [source])).snapshotId;
    // releaseInOrder lets worker i commit only after worker i-1 has: swapping the sources swaps which day arrives first.
    const days = order === 0 ? [source, other] : [other, source];
    const outs = (await releaseInOrder(WORKER, (i) => [server.url, id, days[i] as string], 2)).map(parse);
    const [first, second] = outs as [Out, Out];
    expect(first.error).toBeUndefined();
    expect(second).toMatchObject({ name: 'CommitFailedException' });
    expect(second.error).toBe(
      `Requirement failed: branch main has changed: expected id ${base}, found ${first.snapshotId}`,
    );
    const rows = (await scanIcebergTable(await openIcebergTable(c, id))).rowCount;
    expect(rows).toBe(5 + (days[0] === source ? 5 : 7));
  });
});

describe('Iceberg on a Postgres SQL catalog', () => {
  it('creates pyiceberg tables, appends and reads back', async () => {
    const c = await catalog();
    await createIcebergTable(c, 'lab.trips', { schemaFrom: source });
    const r = await appendParquetToIcebergTable(c, 'lab.trips', [source]);
    const t = await openIcebergTable(c, 'lab.trips');
    expect(String(t.metadata['current-snapshot-id'])).toBe(r.snapshotId);
    expect((await scanIcebergTable(t)).rowCount).toBe(5);
    await expect(createIcebergTable(c, 'lab.trips', { schemaFrom: source })).rejects.toThrow(
      'Table lab.trips already exists',
    );
  });

  it('two writers on two connections: with retries both land, one warning', async () => {
    const [c1, c2] = [await catalog(), await catalog()];
    await createIcebergTable(c1, 'lab.race', { schemaFrom: source });
    await appendParquetToIcebergTable(c1, 'lab.race', [source]);
    const a = await prepareIcebergAppend(await openIcebergTable(c1, 'lab.race'), [source]);
    const b = await prepareIcebergAppend(await openIcebergTable(c2, 'lab.race'), [source]);
    const sleep = async () => {};
    const [ra, rb] = await Promise.all([
      a.commit({ sleep, onWarning: () => {} }),
      b.commit({ sleep, onWarning: () => {} }),
    ]);
    expect([...ra.warnings, ...rb.warnings]).toHaveLength(1);
    expect((await scanIcebergTable(await openIcebergTable(c1, 'lab.race'))).rowCount).toBe(15);
  });

  it('0 retries: "has changed" for the later writer, "updated by another process" for a lost swap', async () => {
    const [c1, c2] = [await catalog(), await catalog()];
    await createIcebergTable(c1, 'lab.zero', { schemaFrom: source, properties: { 'commit.retry.num-retries': '0' } });
    const base = await appendParquetToIcebergTable(c1, 'lab.zero', [source]);
    const a = await prepareIcebergAppend(await openIcebergTable(c1, 'lab.zero'), [source]);
    const b = await prepareIcebergAppend(await openIcebergTable(c2, 'lab.zero'), [source]);
    const ra = await a.commit();
    await expect(b.commit()).rejects.toThrow(
      `Requirement failed: branch main has changed: expected id ${base.snapshotId}, found ${ra.snapshotId}`,
    );

    const x = await prepareIcebergAppend(await openIcebergTable(c1, 'lab.zero'), [source]);
    const y = await prepareIcebergAppend(await openIcebergTable(c2, 'lab.zero'), [source]);
    const err = await x.commit({ beforeSwap: async () => void (await y.commit()) }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(CommitFailedException);
    expect((err as Error).message).toBe('Table has been updated by another process: lab.zero');
    const t = await openIcebergTable(c1, 'lab.zero');
    expect(String(t.metadata['current-snapshot-id'])).toBe(y.snapshotId);
  });
});
