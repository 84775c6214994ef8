/**
 * Runs cases: prepares the data set and base tables once, then every run of every case, each from
 * a fresh copy at version 0, and gathers the results file the report checker reads.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_RUNS } from '@racelab/contracts';
import { ENGINE_INFO, withConnection } from '@racelab/engine';
import { type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import { CASES, type LabCase, type PostgresCase, selectCases } from './cases/catalog';
import { type Dataset, datasetCacheDir, prepareDataset } from './data/index';
import { LAB_DATABASE, preparePostgresLab, runPostgresCase } from './formats/postgres/index';
import type { CaseResult, LabResults, RunResult } from './results/types';
import type { AcrossHosts } from './runner/across-hosts';
import { runDeltaCase } from './formats/delta/run';
import { runIcebergCase, seedIcebergTable } from './formats/iceberg/run';
import { RaceCancelledError, type WriterEvent } from './runner/race';
import { runDir } from './runner/run-context';
import { WriterPool } from './runner/writer-pool';
import { baseTablesDir, ensureBaseTables, ensureJan15 } from './tables/base-tables';
import { withSampleFiles } from './formats/delta/rows-sample';
import { baseTablesAt } from './tables/table-store';
import { VerdictMemo } from './verdict/memo';

export interface LabOptions {
  /** Case ids from the catalog, or whole cases (a custom race); all catalog cases when omitted. */
  cases?: (string | LabCase)[];
  runs?: number;
  scale?: number;
  /** Where data sets, base tables, runs and the lab's Postgres live (default var/lab in the repo). */
  workDir: string;
  /** Where the real TLC files may be (LAB_DATA_DIR, default ~/lab-data/de). */
  dataDir?: string;
  keepRuns?: boolean;
  /** Progress: called before each run and after it, and with the phase while setting up. */
  onProgress?: (p: LabProgress) => void;
  /** Cancels: running writer processes are killed, no further run starts, runLab rejects with RaceCancelledError. */
  signal?: AbortSignal;
  /** Where Delta run tables live: `s3://bucket/path` (settings from the AWS environment); the work folder when unset. */
  tableRoot?: string;
  /** Delta writers run on other hosts (see runWriterJob), their barrier in Postgres; needs an S3 tableRoot. */
  acrossHosts?: AcrossHosts;
  /** Start writer processes ahead of their race (default true); false: each race starts its own, as the bench compares. */
  warmWriters?: boolean;
  /** Keep a case's serial results for its later runs (default true); false: each run replays, as the bench compares. */
  verdictMemo?: boolean;
  /** LAB_ROOTS, resolved: where a user's table may keep deletion vectors at absolute paths (its own folder always). */
  roots?: readonly string[];
}

export type LabProgress =
  | { kind: 'setup'; message: string }
  | { kind: 'run'; caseId: string; run: number; runs: number; done: number; total: number; result?: RunResult }
  | { kind: 'writer'; caseId: string; run: number; writer: string; event: WriterEvent };

export class LabInputError extends Error {
  override name = 'LabInputError';
}

export { MAX_RUNS };

export function validateLabOptions(o: LabOptions): { cases: LabCase[]; runs: number; scale: number } {
  const runs = o.runs ?? 5;
  if (!Number.isInteger(runs) || runs < 1 || runs > MAX_RUNS) {
    throw new LabInputError(`--runs must be a whole number from 1 to ${MAX_RUNS}, got ${o.runs}`);
  }
  const scale = o.scale ?? 1;
  if (!Number.isFinite(scale) || scale < 0.01 || scale > 1)
    throw new LabInputError(`--scale must be from 0.01 to 1, got ${o.scale}`);
  if (o.tableRoot !== undefined && !/^s3:\/\/[^/]+/i.test(o.tableRoot)) {
    throw new LabInputError(`--table-root must be an S3 location such as s3://bucket/lab, got '${o.tableRoot}'`);
  }
  if (o.acrossHosts && o.tableRoot === undefined) {
    throw new LabInputError('writers on several hosts need a table they all reach: give an S3 table root');
  }
  const given = o.cases ?? [];
  // Ids alone keep the catalog's order (and every unknown id is named at once); mixed lists keep theirs.
  const cases = given.every((c) => typeof c === 'string')
    ? selectCases(given)
    : given.map((c) => (typeof c === 'string' ? (selectCases([c])[0] as LabCase) : c));
  return { cases, runs, scale };
}

async function duckdbVersion(): Promise<string> {
  return withConnection(async (c) => String((await c.runAndReadAll('SELECT version()')).getColumns()[0]?.[0]));
}

export async function runLab(o: LabOptions): Promise<LabResults> {
  const { cases, runs, scale } = validateLabOptions(o);
  const progress = o.onProgress ?? (() => {});
  await mkdir(o.workDir, { recursive: true });
  progress({ kind: 'setup', message: `data set at scale ${scale}` });
  const dataset: Dataset = await prepareDataset({
    scale,
    cacheDir: datasetCacheDir(o.workDir),
    ...(o.dataDir && { dataDir: o.dataDir }),
  });
  // A case on a table of the user's own copies that table: only the lab's own cases need base tables.
  const needsDelta = cases.some((c) => c.engine === 'delta' && typeof c.table === 'string');
  const needsIceberg = cases.some((c) => c.engine === 'iceberg');
  const needsPostgres = cases.some((c) => c.engine === 'postgres');
  progress({ kind: 'setup', message: needsDelta ? 'base tables' : 'no base tables needed' });
  const localBases = needsDelta || needsIceberg ? await ensureBaseTables(o.workDir, dataset) : null;
  if (needsDelta && o.tableRoot) progress({ kind: 'setup', message: `base tables on ${o.tableRoot}` });
  // The local base's marker names the data set it was built from; the S3 copy carries it along.
  const bases =
    localBases && needsDelta && o.tableRoot
      ? await baseTablesAt(
          o.tableRoot,
          localBases,
          `${dataset.source}-${dataset.scale}`,
          await readFile(join(baseTablesDir(o.workDir, dataset), 'done.json'), 'utf8'),
        )
      : localBases;
  const jan15 = needsIceberg ? await ensureJan15(o.workDir, dataset) : null;
  const versions: Record<string, string> = {
    node: process.version,
    engine: ENGINE_INFO,
    duckdb: await duckdbVersion(),
  };

  // Writer processes for this machine's races (not for writers on other hosts), started now so the first
  // run's are loaded by the time it races; each race refills it for the next one.
  const raced = cases.flatMap((c) =>
    c.engine === 'iceberg' || (c.engine === 'delta' && !o.acrossHosts) ? [c.writers.length] : [],
  );
  const pool = raced.length > 0 && o.warmWriters !== false ? await WriterPool.open(Math.max(...raced)) : null;
  const pg = needsPostgres
    ? await startPostgres(o.workDir, dataset, progress).catch(async (e) => {
        await pool?.close();
        throw e;
      })
    : null;
  if (pg) versions.postgres = pg.version;
  // What decides the Iceberg outcomes: the engine's reimplementation of pyiceberg's commit and retry.
  if (needsIceberg) versions.iceberg = 'pyiceberg 0.12.0 commit and retry rules, SQLite catalog (better-sqlite3)';
  const total = cases.length * runs;
  let done = 0;
  const results: CaseResult[] = [];
  try {
    for (const given of cases) {
      // Samples of a user's table become files once, before the case's first run, and go after its last.
      const sampled =
        given.engine === 'delta' && typeof given.table !== 'string'
          ? await withSampleFiles(given, given.table.location, o.workDir)
          : null;
      const c: LabCase = sampled?.case ?? given;
      // An Iceberg case's starting table is written once for its runs; each run registers a copy of it.
      const seedDir = c.engine === 'iceberg' ? runDir({ dataset, workDir: o.workDir }, `${c.id}-seed`, 0) : null;
      const caseResult: CaseResult = { id: c.id, title: c.title, runs: [] };
      // The case's serial results, kept for its later runs (its writers and starting table are the same in each);
      // Delta copies live where its runs do, Iceberg ones in the work folder. Removed when the case ends.
      const memo =
        o.verdictMemo === false
          ? undefined
          : new VerdictMemo((n) =>
              runDir(
                { dataset, workDir: o.workDir, ...(c.engine === 'delta' && o.tableRoot && { tableRoot: o.tableRoot }) },
                `${c.id}-replay-${n}`,
                0,
              ),
            );
      try {
        const seed =
          c.engine === 'iceberg' && seedDir ? await seedIcebergTable(seedDir, jan15 as string, c.properties) : null;
        for (let i = 1; i <= runs; i++) {
          if (o.signal?.aborted) throw new RaceCancelledError();
          progress({ kind: 'run', caseId: c.id, run: i, runs, done, total });
          const ctx = {
            dataset,
            workDir: o.workDir,
            ...(o.keepRuns && { keep: true }),
            ...(o.signal && { signal: o.signal }),
            ...(pool && { pool }),
            ...(memo && { memo }),
            onEvent: (writer: string, event: WriterEvent) =>
              progress({ kind: 'writer', caseId: c.id, run: i, writer, event }),
          };
          const run: RunResult =
            c.engine === 'delta'
              ? await runDeltaCase(c, i, {
                  ...ctx,
                  bases,
                  ...(o.tableRoot && { tableRoot: o.tableRoot }),
                  ...(o.acrossHosts && { acrossHosts: o.acrossHosts }),
                  ...(o.roots && { roots: o.roots }),
                })
              : c.engine === 'iceberg'
                ? await runIcebergCase(c, i, { ...ctx, seed: seed as string })
                : await postgresRun(i, (pg as NonNullable<typeof pg>).url, c, memo);
          caseResult.runs.push(run);
          done++;
          progress({ kind: 'run', caseId: c.id, run: i, runs, done, total, result: run });
        }
      } finally {
        try {
          await memo?.dispose();
        } finally {
          await sampled?.remove();
          if (seedDir) await rm(seedDir, { recursive: true, force: true });
        }
      }
      results.push(caseResult);
    }
  } finally {
    await pool?.close();
    await pg?.stop();
  }
  return {
    createdAt: new Date().toISOString(),
    scale,
    dataSource: dataset.source,
    versions,
    dataDir: dataset.dir,
    cases: results,
  };
}

async function startPostgres(workDir: string, dataset: Dataset, progress: (p: LabProgress) => void) {
  progress({ kind: 'setup', message: 'Postgres' });
  // LAB_POSTGRES_URL: the lab database's own role, as `npm start` gives its workers; else a user's
  // DATABASE_URL server, used as it is; else our embedded server, the lab database owned by its own role.
  const given = process.env.LAB_POSTGRES_URL || process.env.DATABASE_URL;
  const server = given ? null : await startPostgresServer({ dataDir: join(workDir, 'postgres') });
  try {
    const url = given || (await (server as PostgresServer).ownerUrl(LAB_DATABASE));
    progress({ kind: 'setup', message: 'loading January into Postgres' });
    const info = await preparePostgresLab(url, dataset.january);
    return { url, version: info.serverVersion, stop: async () => server?.stop() };
  } catch (e) {
    await server?.stop();
    throw e;
  }
}

async function postgresRun(
  index: number,
  serverUrl: string,
  c: PostgresCase,
  memo: VerdictMemo | undefined,
): Promise<RunResult> {
  const r = await runPostgresCase(
    serverUrl,
    { isolation: c.isolation, vendorA: c.vendorA, vendorB: c.vendorB },
    { ...(memo && { memo }) },
  );
  return {
    index,
    writers: r.writers,
    table: r.table,
    verdict: r.verdict,
    commitOrder: r.commitOrder,
    durationMs: r.durationMs,
  };
}

export { CASES };
