/**
 * One writer of a race, in its own OS process: open the table (holding its version or snapshot),
 * prepare, say "ready", wait for "go", then run the change. Started by the race with `fork()`.
 */
import { hostname } from 'node:os';
import { DeltaTable, IcebergSqliteCatalog, openIcebergTable } from '@racelab/engine';
import { runSweepJob } from '../sweep/writer';
import { deltaChange } from '../formats/delta/writer';
import { icebergAppend } from '../formats/iceberg/writer';
import type { FromSweepWriter, FromWriter, ProcessJob, ToWriter, WriterJob, WriterOutcome } from '../runner/messages';
import { checkOf } from '../cases/operations';
import { type BarrierRef, PgBarrier, released } from '../runner/pg-barrier';
import { writerStore } from '../formats/delta/writer-store';

export type Send = (msg: FromWriter) => Promise<void>;

const post = (msg: FromWriter | FromSweepWriter) =>
  new Promise<void>((resolve, reject) => process.send?.(msg, (e: Error | null) => (e ? reject(e) : resolve())));
const send: Send = post;

/** Opens what the writer holds before the barrier and returns the change to run after it. */
async function openWith(job: WriterJob, send: Send): Promise<() => Promise<WriterOutcome>> {
  if (job.engine === 'iceberg') {
    const catalog = await IcebergSqliteCatalog.open({ path: job.catalog });
    const table = await openIcebergTable(catalog, job.table);
    return () => icebergAppend(table, job, send);
  }
  const table = await DeltaTable.open(writerStore(job.table, job.writer));
  const observed: Record<string, number> = {};
  const op = job.writer.operation;
  const check = checkOf(op);
  // The job's check reads the table as it opened it, before the barrier, as the lesson's job did.
  if (check) observed[check.key] = await table.count(check.predicate);
  return () => deltaChange(table, job, observed, send);
}

/** The barrier's release: the parent's `go`. */
const go = () => new Promise<void>((resolve) => process.once('message', (m: ToWriter) => m.type === 'go' && resolve()));

async function main(job: WriterJob): Promise<void> {
  const change = await openWith(job, send);
  const opened = Date.now();
  const release = go();
  await send({ type: 'ready', opened, prepared: Date.now() });
  await release;
  const released = Date.now();
  const outcome = await change();
  outcome.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  await send({ type: 'done', released, finished: Date.now(), outcome });
  process.disconnect();
}

/** The same writer with its race's barrier in Postgres: its steps are rows, its release a query. */
async function mainWithBarrier(job: WriterJob & { barrier: BarrierRef }): Promise<void> {
  const barrier = await PgBarrier.open(job.barrier);
  // The worker that ran this writer process (its parent): the host that took the writer's job.
  const host = `${hostname()}:${process.ppid}`;
  const name = job.writer.name;
  try {
    const mark: Send = async (msg) => {
      const { type, ...data } = msg;
      await barrier.mark(name, type, host, data);
    };
    const change = await openWith(job, mark);
    const opened = Date.now();
    await mark({ type: 'ready', opened, prepared: Date.now() });
    // The coordinator deletes the rows when it cancels the race: then this writer stops unchanged.
    const rows = await barrier.until(
      (now) => !now.some((r) => r.writer === name) || released(now, job.writer.startAfter),
    );
    if (!rows.some((r) => r.writer === name)) return;
    const releasedAt = Date.now();
    const outcome = await change();
    outcome.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    await mark({ type: 'done', released: releasedAt, finished: Date.now(), outcome });
  } finally {
    await barrier.close();
  }
}

/** The job: the first message from the parent (which may have started this process ahead of its race). */
function jobOf(): Promise<ProcessJob> {
  return new Promise((resolve) => {
    const take = (m: ToWriter) => {
      if (m.type !== 'job') return;
      process.off('message', take);
      resolve(m.job);
    };
    process.on('message', take);
  });
}

// No writer outlives its race: when the process that started it dies or cancels (the IPC channel
// closes), it stops where it stands instead of committing to a run nobody watches any more. A warm
// process still waiting for its job stops the same way.
process.once('disconnect', () => process.exit(0));
const job = await jobOf();
const run =
  job.engine === 'sweep'
    ? runSweepJob(job, post, go)
    : job.engine === 'delta' && job.barrier
      ? mainWithBarrier({ ...job, barrier: job.barrier })
      : main(job);
run.catch(async (e: unknown) => {
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`writer ${job.engine === 'sweep' ? job.name : job.writer.name}: ${err.name}: ${err.message}\n`);
  process.exit(1);
});
