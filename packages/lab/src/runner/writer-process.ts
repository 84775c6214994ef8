/**
 * One writer of a race, in its own OS process: open the table (holding its version), prepare, say
 * "ready", wait for "go", then run the change; with a retry loop, a CommitFailedError makes it
 * reopen the table and redo the whole change. Started by the run with `fork()`.
 */
import { CommitFailedError, DeltaTable } from '@racelab/engine';
import type { AttemptError } from '../results/types';
import type { FromWriter, ToWriter, WriterJob, WriterOutcome } from './messages';
import { dayPredicate, prepareChange } from './operations';

function send(msg: FromWriter): Promise<void> {
  return new Promise((resolve, reject) => process.send?.(msg, (e: Error | null) => (e ? reject(e) : resolve())));
}

async function main(job: WriterJob): Promise<void> {
  const { writer } = job;
  let table = await DeltaTable.open(job.table);
  const opened = Date.now();
  const observed: Record<string, number> = {};
  if (writer.operation.kind === 'check-then-append') {
    // The job's check reads the table as it opened it, before the barrier, as the lesson's job did.
    observed[writer.operation.day] = await table.count(dayPredicate(writer.operation.day));
  }
  const go = new Promise<void>((resolve) => process.once('message', (m: ToWriter) => m.type === 'go' && resolve()));
  await send({ type: 'ready', opened, prepared: Date.now() });
  await go;
  const released = Date.now();

  const options = {
    customMetadata: { writer: writer.name },
    ...(writer.maxCommitRetries !== undefined && { maxCommitRetries: writer.maxCommitRetries }),
  };
  const tries = writer.retryLoop ?? 1;
  const attemptErrors: AttemptError[] = [];
  const outcome: WriterOutcome = {
    committed: false,
    version: null,
    readVersion: null,
    attempts: 0,
    commitRetries: null,
    attemptErrors,
    errorClass: null,
    errorMessage: null,
    warnings: [],
    filesWritten: 0,
    bytesWritten: 0,
    ...(Object.keys(observed).length > 0 && { observed }),
  };
  for (let attempt = 1; attempt <= tries; attempt++) {
    if (attempt > 1) table = await DeltaTable.open(job.table);
    outcome.attempts = attempt;
    outcome.readVersion = table.version;
    try {
      const { prepared } = await prepareChange(table, writer.operation, options, job.dayFile, observed);
      if (!prepared) {
        outcome.warnings.push('nothing to commit');
        break;
      }
      outcome.filesWritten += prepared.summary.filesAdded;
      outcome.bytesWritten += prepared.summary.bytesWritten;
      const r = await prepared.commit();
      await send({ type: 'committed', version: r.version });
      Object.assign(outcome, {
        committed: true,
        version: r.version,
        commitRetries: r.version - table.version - 1,
        filesRemoved: r.filesRemoved,
        filesAdded: r.filesAdded,
      });
      break;
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const retryable = e instanceof CommitFailedError && attempt < tries;
      if (retryable) {
        attemptErrors.push({ attempt, errorClass: err.name, errorMessage: err.message, readVersion: table.version });
        continue;
      }
      outcome.errorClass = err.name;
      outcome.errorMessage = err.message;
      break;
    }
  }
  outcome.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  await send({ type: 'done', released, finished: Date.now(), outcome });
  process.disconnect();
}

const job = JSON.parse(process.argv[2] as string) as WriterJob;
main(job).catch(async (e: unknown) => {
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`writer ${job.writer.name}: ${err.name}: ${err.message}\n`);
  process.exit(1);
});
