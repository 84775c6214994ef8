/**
 * A Delta writer's change after the barrier; with a retry loop, a CommitFailedError makes it
 * reopen the table and redo the whole change.
 */
import { CommitFailedError, DeltaTable } from '@racelab/engine';
import type { WriterJob, WriterOutcome } from './messages';
import { prepareChange } from './operations';
import { asError, emptyOutcome } from './outcome';
import type { Send } from './writer-process';

export async function deltaChange(
  opened: DeltaTable,
  job: Extract<WriterJob, { engine: 'delta' }>,
  observed: Record<string, number>,
  send: Send,
): Promise<WriterOutcome> {
  const { writer } = job;
  const options = {
    customMetadata: { writer: writer.name },
    ...(writer.maxCommitRetries !== undefined && { maxCommitRetries: writer.maxCommitRetries }),
  };
  const tries = writer.retryLoop ?? 1;
  const outcome = emptyOutcome(observed);
  let table = opened;
  for (let attempt = 1; attempt <= tries; attempt++) {
    if (attempt > 1) table = await DeltaTable.open(job.table);
    outcome.attempts = attempt;
    outcome.readVersion = table.version;
    try {
      const { prepared } = await prepareChange(table, writer.operation, options, job.rowsFile, observed);
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
      const err = asError(e);
      if (e instanceof CommitFailedError && attempt < tries) {
        outcome.attemptErrors.push({
          attempt,
          errorClass: err.name,
          errorMessage: err.message,
          readVersion: table.version,
        });
        continue;
      }
      outcome.errorClass = err.name;
      outcome.errorMessage = err.message;
      break;
    }
  }
  return outcome;
}
