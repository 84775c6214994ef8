/**
 * Runs cases: through each case's table format (formats/registry.ts), what the cases of a format share, with the
 * data set prepared once and only when a case uses it (a race on a table of the user's own may never); then every run of every case, each from a fresh starting table, and gathers the
 * results file the report checker reads.
 */
import { mkdir } from 'node:fs/promises';
import { MAX_RUNS } from '@racelab/contracts';
import { ENGINE_INFO, withConnection } from '@racelab/engine';
import type { LabCase } from './cases/catalog';
import { refuseWithoutStore } from './cases/groups';
import { hasJobCommands } from './cases/job-roots';
import { datasetCacheDir, lazyDataset } from './data/index';
import { formatOf, selectCases, tableFormats } from './formats/registry';
import { VerdictMemo } from './oracle/memo';
import { type PythonEnv, pythonEnv, REAL_LIBRARIES, type RealLibrary } from './real/python-env';
import { realLibraries, realLibrary } from './real/refusals';
import { SparkHosting, sparkHostCommand } from './real/spark-host';
import { REAL_WRITER_TIMEOUT_MS, realWriterCommand } from './real/writer-command';
import { withOutcome } from './results/summary';
import type { CaseResult, LabResults, RunResult, WriterResult } from './results/types';
import type { AcrossHosts } from './runner/across-hosts';
import { JOB_TIMEOUT_MS } from './runner/job-command';
import { RaceCancelledError, type WriterEvent } from './runner/race';
import type { FormatSession, LabSetting, TableFormat } from './runner/table-format';
import { WriterPool } from './runner/writer-pool';

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
  /** The cases' writers run in the real library (the Python side, see real/), not the engine's emulation of it. */
  real?: boolean;
  /**
   * With `real`: the library, by the engine's name; each case's format's when omitted (delta-rs, pyiceberg for F1/F2).
   * `delta-spark` implies `real`: there is no emulated Delta Spark writer.
   */
  library?: string;
  /** How long a command writer's job may run before it is stopped by process group (default JOB_TIMEOUT_MS). */
  jobTimeoutMs?: number;
}

export type LabProgress =
  | { kind: 'setup'; message: string }
  | { kind: 'run'; caseId: string; run: number; runs: number; done: number; total: number; result?: RunResult }
  | { kind: 'writer'; caseId: string; run: number; writer: string; event: WriterEvent };

export class LabInputError extends Error {
  override name = 'LabInputError';
}

export { MAX_RUNS };

export function validateLabOptions(o: LabOptions): {
  cases: LabCase[];
  runs: number;
  scale: number;
  /** With `real`: the library that runs each case's writers, by case id. */
  libraries: Map<string, RealLibrary> | null;
} {
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
  // There is no emulated Delta Spark writer: naming it is asking for a real run.
  const real = o.real === true || o.library === 'delta-spark';
  if (o.library !== undefined && !real)
    throw new LabInputError('--library picks the real library: give --real with it');
  // A real run's reasons first: a store case is refused as a store case there, whatever its store.
  const libraries = real ? realLibraries(cases, o, realLibrary(o.library)) : null;
  for (const c of cases) refuseWithoutStore(c, o.tableRoot);
  if (cases.some(hasJobCommands)) {
    // A job runs on this machine, on a copy on its disk, and is its own code: not another library's writer.
    if (o.tableRoot !== undefined || o.acrossHosts)
      throw new LabInputError(
        'command writers race local copies on this machine: give no S3 table root or other hosts',
      );
    if (real) throw new LabInputError("command writers run their own code: --real applies to the lab's writers only");
  }
  return { cases, runs, scale, libraries };
}

/** Names the library that ran each writer: a real writer's own words, else the engine's emulation of its format's. */
function withLibrary(
  w: WriterResult,
  format: TableFormat,
  real: { library: RealLibrary; env: PythonEnv } | null,
): WriterResult {
  // A command writer's job is the user's own code: real, whatever it uses.
  if (w.operation === 'command') return { ...w, run: 'real' };
  if (real) {
    const installed = real.env.versions[REAL_LIBRARIES[real.library].package] as string;
    return { ...w, library: w.library ?? real.library, libraryVersion: w.libraryVersion ?? installed, run: 'real' };
  }
  if (!format.emulatedLibrary) return w;
  return { ...w, library: format.emulatedLibrary, libraryVersion: ENGINE_INFO, run: 'emulated' };
}

async function duckdbVersion(): Promise<string> {
  return withConnection(async (c) => String((await c.runAndReadAll('SELECT version()')).getColumns()[0]?.[0]));
}

export async function runLab(o: LabOptions): Promise<LabResults> {
  const { cases, runs, scale, libraries } = validateLabOptions(o);
  // Without the Python side (or with a library at another version) a real run stops here, before any data set or
  // table is made.
  const envs = new Map<RealLibrary, PythonEnv>();
  for (const library of new Set(libraries?.values())) envs.set(library, await pythonEnv(library));
  const realOf = (c: LabCase) => {
    const library = libraries?.get(c.id);
    return library ? { library, env: envs.get(library) as PythonEnv } : null;
  };
  const progress = o.onProgress ?? (() => {});
  await mkdir(o.workDir, { recursive: true });
  const dataset = lazyDataset({
    scale,
    cacheDir: datasetCacheDir(o.workDir),
    ...(o.dataDir && { dataDir: o.dataDir }),
    onPrepare: () => progress({ kind: 'setup', message: `data set at scale ${scale}` }),
  });
  const lab: LabSetting = {
    dataset,
    workDir: o.workDir,
    ...(o.tableRoot && { tableRoot: o.tableRoot }),
    ...(o.acrossHosts && { acrossHosts: o.acrossHosts }),
    ...(o.roots && { roots: o.roots }),
    progress: (message) => progress({ kind: 'setup', message }),
  };
  const versions: Record<string, string> = {
    node: process.version,
    engine: ENGINE_INFO,
    duckdb: await duckdbVersion(),
  };
  // The real libraries' versions (with python, and pyarrow that feeds delta-rs and pyiceberg their rows; pyspark
  // under Delta Spark), only on a run that used them.
  for (const [library, env] of envs)
    for (const name of [
      'python',
      ...(library === 'delta-spark' ? ['pyspark'] : ['pyarrow']),
      REAL_LIBRARIES[library].package,
    ])
      if (env.versions[name] !== undefined) versions[name] = env.versions[name];
  // Delta Spark's writers are threads of one host process, started by the first race that needs it.
  const sparkEnv = envs.get('delta-spark');
  const spark = sparkEnv ? new SparkHosting(sparkHostCommand(sparkEnv)) : null;
  // Each format the cases use prepares what its cases share (base tables, a server) once.
  const sessions = new Map<TableFormat, FormatSession>();
  let pool: WriterPool | null = null;
  const results: CaseResult[] = [];
  try {
    // Writer processes for this machine's races, started before the formats' setup so that they load while it
    // runs (a Postgres start and load, base tables) and the first run's are ready by the time it races; each race
    // refills the pool for the next one.
    const raced = cases.map((c) => formatOf(c).localWriters(c, lab)).filter((n) => n > 0);
    // Real writers are the library's own processes: no lab writer process waits for them.
    pool = raced.length > 0 && o.warmWriters !== false && !libraries ? await WriterPool.open(Math.max(...raced)) : null;
    for (const format of tableFormats()) {
      const mine = cases.filter((c) => formatOf(c) === format);
      if (mine.length === 0) continue;
      const session = await format.setup(mine, lab);
      sessions.set(format, session);
      Object.assign(versions, session.versions);
    }
    const total = cases.length * runs;
    let done = 0;
    let reportedStarts = 0;
    for (const c of cases) {
      const caseRuns = await (sessions.get(formatOf(c)) as FormatSession).forCase(c);
      const caseResult: CaseResult = { id: c.id, title: c.title, runs: [] };
      const real = realOf(c);
      // The case's serial results, kept for its later runs (its writers and starting table are the same in each),
      // where its format keeps replays. Removed when the case ends.
      const memo = o.verdictMemo === false ? undefined : new VerdictMemo((n) => caseRuns.replayDir(n));
      try {
        for (let i = 1; i <= runs; i++) {
          if (o.signal?.aborted) throw new RaceCancelledError();
          progress({ kind: 'run', caseId: c.id, run: i, runs, done, total });
          const raced = await caseRuns.run(i, {
            dataset,
            workDir: o.workDir,
            ...(o.keepRuns && { keep: true }),
            ...(o.signal && { signal: o.signal }),
            ...(pool && { pool }),
            ...(memo && { memo }),
            ...(real && { timeoutMs: REAL_WRITER_TIMEOUT_MS }),
            ...(real &&
              (real.library === 'delta-spark' && spark ? { host: spark } : { command: realWriterCommand(real.env) })),
            ...(hasJobCommands(c) && { timeoutMs: o.jobTimeoutMs ?? JOB_TIMEOUT_MS }),
            onEvent: (writer: string, event: WriterEvent) =>
              progress({ kind: 'writer', caseId: c.id, run: i, writer, event }),
          });
          const run = { ...raced, writers: raced.writers.map((w) => withLibrary(withOutcome(w), formatOf(c), real)) };
          const hostStarts = spark?.starts.startsMs ?? [];
          if (hostStarts.length > reportedStarts) {
            reportedStarts = hostStarts.length;
            progress({ kind: 'setup', message: `the Spark host was ready in ${hostStarts.at(-1)} ms` });
          }
          caseResult.runs.push(run);
          done++;
          progress({ kind: 'run', caseId: c.id, run: i, runs, done, total, result: run });
        }
      } finally {
        try {
          await memo?.dispose();
        } finally {
          await caseRuns.dispose();
        }
      }
      results.push(caseResult);
    }
  } finally {
    try {
      await pool?.close();
      await spark?.close();
    } finally {
      for (const session of sessions.values()) await session.close();
    }
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
