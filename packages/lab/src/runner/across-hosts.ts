/**
 * A race whose writers run on other hosts: the coordinator creates the barrier rows in Postgres,
 * hands the writer jobs to whatever carries them to writer hosts (`dispatch`: a queue in the
 * control plane), and waits until every writer is done. A writer host runs each job in its own
 * OS process (runWriterJob), which releases itself through the same rows. Cancelling deletes
 * the rows: a writer still at the barrier then stops without changing anything.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { datasetCacheDir, prepareDataset } from '../data/index';
import { namedRoots } from '../results/safe-message';
import type { WriterResult } from '../results/types';
import type { WriterJob } from './messages';
import { type BarrierRow, PgBarrier } from './pg-barrier';
import { type Done, RaceCancelledError, type RaceHooks, result } from './race';
import { giveJob, startWriterProcess, writerEntry } from './writer-pool';

/** A writer job as it travels to another host: a day is named, not a file on this host. */
export type RemoteWriterJob = WriterJob & {
  barrier: { url: string; raceKey: string };
  /** The data set to take the day's file from, on the writer's host. */
  dataset: { scale: number };
};

export interface AcrossHosts {
  /** Postgres, shared by the coordinator and every writer host. */
  url: string;
  dispatch: (jobs: RemoteWriterJob[]) => Promise<void>;
  /** How long to wait for every writer to be done before calling the missing ones lost (default 10 min). */
  timeoutMs?: number;
}

const finished = (r: BarrierRow) => r.state === 'done';

export async function raceAcrossHosts(
  jobs: WriterJob[],
  started: number,
  scale: number,
  hosts: AcrossHosts,
  hooks: RaceHooks = {},
): Promise<WriterResult[]> {
  if (hooks.signal?.aborted) throw new RaceCancelledError();
  const raceKey = randomUUID();
  const barrier = await PgBarrier.open({ url: hosts.url, raceKey });
  const deadline = AbortSignal.timeout(hosts.timeoutMs ?? 600_000);
  const stop = hooks.signal ? AbortSignal.any([hooks.signal, deadline]) : deadline;
  try {
    await barrier.create(jobs.map((j) => j.writer.name));
    await hosts.dispatch(
      // A day's file is this host's: the writer's host takes it from its own data set. Any other rows file is
      // sent as named (a table raced across hosts is on S3, and so must be what it reads).
      jobs.map(({ rowsFile, ...j }) => ({
        ...j,
        ...(rowsFile && !('day' in j.writer.operation) && { rowsFile }),
        barrier: { url: hosts.url, raceKey },
        dataset: { scale },
      })),
    );
    const seen = new Map<string, string>();
    let rows: BarrierRow[];
    try {
      rows = await barrier.until((now) => {
        for (const r of now) {
          if (seen.get(r.writer) !== r.state && r.state !== 'waiting') hooks.onEvent?.(r.writer, r.state);
          seen.set(r.writer, r.state);
        }
        return now.every(finished);
      }, stop);
    } catch (e) {
      if (hooks.signal?.aborted) throw new RaceCancelledError();
      if (!deadline.aborted) throw e;
      rows = await barrier.rows();
    }
    const roots = namedRoots({ workDir: hooks.workDir });
    return jobs.map((j) => {
      const row = rows.find((r) => r.writer === j.writer.name);
      const d = row?.data as { opened?: number; prepared?: number } & Partial<Done & { crashed: string }>;
      const done: Done | undefined =
        row && finished(row)
          ? d.crashed !== undefined
            ? { crashed: d.crashed }
            : (d as Done)
          : { crashed: `writer ${j.writer.name} did not finish in time (last seen: ${row?.state ?? 'never'})` };
      const ready = d?.opened !== undefined ? { opened: d.opened, prepared: d.prepared ?? d.opened } : undefined;
      return { ...result(j.writer, ready, done, started, roots), ...(row?.host && { host: row.host }) };
    });
  } finally {
    // Deleting the rows is also what tells writers still waiting that the race is off.
    await barrier.drop();
    await barrier.close();
  }
}

export interface WriterHost {
  /** This host's lab folder: its data sets (the day files appends write). */
  workDir: string;
  dataDir?: string;
}

/**
 * Runs one writer job on this host, in its own OS process, and waits for it. A writer that ends
 * without reporting (it crashed) is marked done with the reason, so the race never waits on it.
 */
export async function runWriterJob(job: RemoteWriterJob, host: WriterHost): Promise<void> {
  const op = job.writer.operation;
  let rowsFile = job.rowsFile;
  if ('day' in op) {
    const dataset = await prepareDataset({
      scale: job.dataset.scale,
      cacheDir: datasetCacheDir(host.workDir),
      ...(host.dataDir && { dataDir: host.dataDir }),
    });
    rowsFile = dataset.february(op.day);
  }
  const writer = startWriterProcess(await writerEntry());
  giveJob(writer, { ...job, ...(rowsFile && { rowsFile }) });
  const { child, stderr } = writer;
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  const barrier = await PgBarrier.open(job.barrier);
  try {
    const row = (await barrier.rows()).find((r) => r.writer === job.writer.name);
    if (row && row.state !== 'done') {
      await barrier.mark(job.writer.name, 'done', `${hostname()}:${process.pid}`, {
        crashed: `writer ${job.writer.name} ended without a result (exit ${code}): ${stderr.join('').trim()}`,
      });
    }
  } finally {
    await barrier.close();
  }
}
