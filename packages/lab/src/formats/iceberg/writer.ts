/**
 * An Iceberg writer's append after the barrier: write the day's data file, then commit through the
 * SQL catalog with pyiceberg's retries (the table's `commit.retry.num-retries`); its warnings are
 * what pyiceberg would have logged.
 */
import { IcebergSqliteCatalog, type IcebergTable, openIcebergTable, prepareIcebergAppend } from '@racelab/engine';
import type { Send, WriterJob, WriterOutcome } from '../../runner/messages';
import { asError, emptyOutcome } from '../../runner/outcome';

export async function icebergAppend(table: IcebergTable, job: WriterJob, send: Send): Promise<WriterOutcome> {
  const outcome = emptyOutcome();
  outcome.attempts = 1;
  if (!job.rowsFile) throw new Error(`${job.writer.name}: an Iceberg append needs a day file`);
  try {
    // The snapshot names its writer, as Delta's commitInfo does: Iceberg writers report no version to match.
    const prepared = await prepareIcebergAppend(table, [job.rowsFile], {
      snapshotProperties: { writer: job.writer.name },
    });
    outcome.filesWritten = 1;
    const r = await prepared.commit({ onWarning: (text) => outcome.warnings.push(text) });
    await send({ type: 'committed', version: null });
    Object.assign(outcome, { committed: true, commitRetries: r.attempts - 1 });
  } catch (e) {
    const err = asError(e);
    outcome.errorClass = err.name;
    outcome.errorMessage = err.message;
  }
  return outcome;
}

/** An Iceberg writer in its process: opens the run's table in its SQLite catalog; returns the append to run. */
export async function openIcebergWriter(job: WriterJob, send: Send): Promise<() => Promise<WriterOutcome>> {
  if (!job.catalog) throw new Error(`${job.writer.name}: an Iceberg writer needs its table's catalog`);
  const catalog = await IcebergSqliteCatalog.open({ path: job.catalog });
  const table = await openIcebergTable(catalog, job.table);
  return () => icebergAppend(table, job, send);
}
