/**
 * An Iceberg sweep writer, in its own process: a fast append of one row per commit through the point's SQL
 * catalog, committed by the engine's pyiceberg loop (compare-and-swap of the catalog row's metadata location;
 * a loser refreshes the metadata and stages its manifests again) with the table's retries. Each commit's one-row
 * source file is written before the barrier; a try writes the table's data file from it (what pyiceberg's
 * `append` writes) and commits. The application loop around it is app-loop.ts's.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CommitFailedException,
  type IcebergTable,
  icebergMetadataVersion,
  openIcebergTable,
  prepareIcebergAppend,
  withConnection,
} from '@racelab/engine';
import { makeCommits, type SweepTries } from './app-loop';
import { ICEBERG_SWEEP_TABLE, openSweepCatalog } from './iceberg-table';
import type { FromSweepWriter, SweepJob } from './job';
import { appendRow } from './table';

const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The job's K one-row Parquet files (`sources/<name>-<seq>.parquet` in the point's folder). */
async function writeSources(job: SweepJob): Promise<string[]> {
  const dir = join(job.table, 'sources');
  await mkdir(dir, { recursive: true });
  const files = Array.from({ length: job.commits }, (_, i) => join(dir, `${job.name}-${i + 1}.parquet`));
  await withConnection(async (c) => {
    for (const [i, file] of files.entries()) {
      const r = appendRow(job.index, i + 1);
      await c.run(
        `COPY (SELECT ${r.writer}::INTEGER AS writer, ${r.seq}::INTEGER AS seq, ${r.part}::INTEGER AS part, ${r.value}::BIGINT AS value) TO ${quoted(file)} (FORMAT parquet)`,
      );
    }
  });
  return files;
}

/** The job's tries on its Iceberg table: the first on the table as opened before the barrier, then reloaded. */
function icebergTries(job: SweepJob, opened: IcebergTable, sources: readonly string[]): SweepTries {
  let held: IcebergTable | null = opened;
  return {
    forget: () => {
      held = null;
    },
    async prepare(seq) {
      const table = held ?? (await openIcebergTable(opened.catalog, ICEBERG_SWEEP_TABLE));
      held = null;
      const prepared = await prepareIcebergAppend(table, [sources[seq - 1] as string], {
        // The snapshot names its writer and commit, as Delta's commitInfo does: the checks find each commit by them.
        snapshotProperties: { writer: job.name, seq: String(seq) },
      });
      return {
        readVersion: table.metadata['last-sequence-number'],
        written: { files: 1, bytes: Number(prepared.dataFile.fileSizeInBytes) },
        async commit(onAttemptFailed) {
          // Each warning is a lost compare-and-swap that the loop retries.
          const r = await prepared.commit({ onWarning: () => onAttemptFailed() });
          return { version: icebergMetadataVersion(r.metadataLocation), attempts: r.attempts };
        },
        failed(e, claims) {
          const lost = e instanceof CommitFailedException;
          // A lost swap is the try's last attempt; any other error ended it in the attempt after the lost ones.
          return { attempts: claims + 1, retryable: lost };
        },
      };
    },
  };
}

/**
 * An Iceberg sweep job in its writer process: open the catalog and the table and write the sources (before the
 * barrier), say ready, wait for the release, make the commits, report each, then the end.
 */
export async function runIcebergSweepJob(
  job: SweepJob,
  send: (msg: FromSweepWriter) => Promise<void>,
  go: () => Promise<void>,
): Promise<void> {
  const catalog = await openSweepCatalog(job.table);
  try {
    const table = await openIcebergTable(catalog, ICEBERG_SWEEP_TABLE);
    const sources = await writeSources(job);
    const opened = Date.now();
    const release = go();
    await send({ type: 'ready', opened, prepared: Date.now() });
    await release;
    const released = Date.now();
    const tries = icebergTries(job, table, sources);
    await makeCommits(job, tries, released, (record) => send({ type: 'sweep-commit', record }));
    await send({ type: 'sweep-done', released, finished: Date.now() });
  } finally {
    await catalog.close();
  }
  process.disconnect();
}
