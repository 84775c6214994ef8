/**
 * One writer of a race, in its own OS process: open the table (holding its version or snapshot),
 * prepare, say "ready", wait for "go", then run the change. Started by the race with `fork()`.
 */
import { hostname } from 'node:os';
import { formatById } from '../formats/registry';
import type { FromWriter, Send, ToWriter, WriterJob } from '../runner/messages';
import { type BarrierRef, PgBarrier, released } from '../runner/pg-barrier';
import { runSweepJob } from '../sweep/formats';
import type { FromSweepWriter, SweepJob } from '../sweep/job';

/** Any job a writer process takes: a race's writer, or one writer (or the compactor) of a sweep's point. */
type ProcessJob = WriterJob | SweepJob;

const post = (msg: FromWriter | FromSweepWriter) =>
  new Promise<void>((resolve, reject) => process.send?.(msg, (e: Error | null) => (e ? reject(e) : resolve())));
const send: Send = post;

/** Opens what the writer holds before the barrier and returns the change to run after it: its format's doing. */
async function openWith(job: WriterJob, send: Send) {
  const format = formatById(job.format);
  if (!format.openWriter) throw new Error(`${job.format} tables have no writer processes`);
  return format.openWriter(job, send);
}

/** The barrier's release: the parent's `go`. */
const go = () =>
  new Promise<void>((resolve) => process.once('message', (m: ToWriter<ProcessJob>) => m.type === 'go' && resolve()));

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
    const take = (m: ToWriter<ProcessJob>) => {
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
  job.kind === 'sweep'
    ? runSweepJob(job, post, go)
    : job.barrier
      ? mainWithBarrier({ ...job, barrier: job.barrier })
      : main(job);
run.catch(async (e: unknown) => {
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`writer ${job.kind === 'sweep' ? job.name : job.writer.name}: ${err.name}: ${err.message}\n`);
  process.exit(1);
});
