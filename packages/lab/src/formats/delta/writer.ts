/**
 * A Delta writer's change after the barrier; with a retry loop, a CommitFailedError (or, with `retryOn:
 * 'any-error'`, any error) makes it reopen the table and redo the whole change. With a txn, each try first reads
 * the app's last version in the table and skips a batch that is already there.
 */
import { CommitFailedError, type CommitOptions, DeltaTable, readCommit, type Txn } from '@racelab/engine';
import type { WriterSpec } from '../../cases/catalog';
import { checkOf, prepareChange } from '../../cases/operations';
import type { Send, WriterJob, WriterOutcome } from '../../runner/messages';
import { asError, emptyOutcome } from '../../runner/outcome';
import { faultWarnings, writerStore } from './writer-store';

/** The engine's commit options a writer's spec asks for. */
export function commitOptionsOf(writer: WriterSpec): CommitOptions {
  return {
    customMetadata: { writer: writer.name },
    ...(writer.maxCommitRetries !== undefined && { maxCommitRetries: writer.maxCommitRetries }),
    ...(writer.recogniseOwnCommit && { recogniseOwnCommit: true }),
    ...(writer.txn && { appTransactions: [{ ...writer.txn, lastUpdated: Date.now() }] }),
  };
}

/**
 * The version whose commit carries `txn` (appId and version), looked for from the newest down to `after` + 1;
 * null when no commit there carries it. What a job learns when it finds its batch already committed.
 */
async function versionCarrying(table: DeltaTable, txn: Pick<Txn, 'appId' | 'version'>, after: number) {
  for (let v = table.version; v > after; v--) {
    const actions = await readCommit(table.store, v);
    if (actions.some((a) => 'txn' in a && a.txn.appId === txn.appId && a.txn.version === txn.version)) return v;
  }
  return null;
}

const retries = (writer: WriterSpec, e: unknown) => e instanceof CommitFailedError || writer.retryOn === 'any-error';

export async function deltaChange(
  opened: DeltaTable,
  job: WriterJob,
  observed: Record<string, number>,
  send: Send,
): Promise<WriterOutcome> {
  const { writer } = job;
  const options = commitOptionsOf(writer);
  const tries = writer.retryLoop ?? 1;
  const outcome = emptyOutcome(observed);
  let table = opened;
  for (let attempt = 1; attempt <= tries; attempt++) {
    // Reopened through the same store: a fault it injects happens once per writer, not once per try.
    if (attempt > 1) table = await DeltaTable.open(opened.store);
    outcome.attempts = attempt;
    outcome.readVersion = table.version;
    try {
      const done = writer.txn && (table.appTransactions().get(writer.txn.appId)?.version ?? -1) >= writer.txn.version;
      if (writer.txn && done) {
        const version = await versionCarrying(table, writer.txn, opened.version);
        outcome.warnings.push(
          `batch already committed: the table's txn for app ${writer.txn.appId} is at version ${writer.txn.version} or later; skipped`,
        );
        Object.assign(outcome, { committed: version !== null, version, commitRetries: null });
        break;
      }
      const { prepared } = await prepareChange(table, writer.operation, options, job.rowsFile, observed);
      if (!prepared) {
        outcome.warnings.push('nothing to commit');
        break;
      }
      outcome.filesWritten += prepared.summary.filesAdded;
      outcome.bytesWritten += prepared.summary.bytesWritten;
      const r = await prepared.commit();
      await send({ type: 'committed', version: r.version });
      if (r.recognisedOwnCommit) {
        outcome.warnings.push(
          `version ${r.version} was found taken by this commit's own bytes: committed (recogniseOwnCommit, this engine's option)`,
        );
      }
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
      if (retries(writer, e) && attempt < tries) {
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
  outcome.warnings.unshift(...faultWarnings(opened.store));
  return outcome;
}

/**
 * A Delta writer in its process: opens the run's table through the writer's store (with its fault, if any) and,
 * for a check-then-append, counts what it checks; returns the change to run after the barrier.
 */
export async function openDeltaWriter(job: WriterJob, send: Send): Promise<() => Promise<WriterOutcome>> {
  const table = await DeltaTable.open(writerStore(job.table, job.writer));
  const observed: Record<string, number> = {};
  const check = checkOf(job.writer.operation);
  // The job's check reads the table as it opened it, before the barrier, as the lesson's job did.
  if (check) observed[check.key] = await table.count(check.predicate);
  return () => deltaChange(table, job, observed, send);
}
