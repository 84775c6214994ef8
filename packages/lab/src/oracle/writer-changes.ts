/**
 * Per writer, for a run that is not serializable: its own commit in the race against its commit in the
 * commit-order replay (a Delta version's adds and removes; an Iceberg append's added files). A commit's
 * change is the multiset (rows of its adds) − (rows of its removes); two changes are equal when
 * adds(race) + removes(replay) = adds(replay) + removes(race) as multisets, which one DuckDB comparison
 * answers without reading anything else. A writer whose race commit put rows in that
 * its replay did not, in a table holding rows twice, applied its change twice (E1's second job appended
 * though the first job's rows were there); one whose replayed change is absent from its race commit, in a
 * table missing rows, was not applied.
 */
import { type Add, type DeltaTable, readCommit } from '@racelab/engine';
import type { VerdictWriter } from '../results/types';
import { deltaRows, diffRows, type RowDiff, type RowSource } from './compare';

interface CommitFiles {
  adds: Add[];
  removes: Add[];
}

/** The files a version's commit added and removed (a removed file is still on disk: nothing vacuums a run). */
async function commitFiles(table: DeltaTable, version: number | undefined): Promise<CommitFiles> {
  if (version === undefined) return { adds: [], removes: [] };
  const actions = await readCommit(table.store, version);
  return {
    adds: actions.flatMap((a) => ('add' in a ? [a.add] : [])),
    removes: actions.flatMap((a) =>
      'remove' in a
        ? [
            {
              path: a.remove.path,
              partitionValues: a.remove.partitionValues ?? {},
              size: 0,
              modificationTime: 0,
              dataChange: true,
            },
          ]
        : [],
    ),
  };
}

export interface WriterCommits {
  name: string;
  /** Its version in the raced log (absent when its commit is not there) and in the replay's. */
  racedVersion?: number;
  serialVersion?: number;
}

/** A commit's change: the rows of the files it added and of the files it removed. */
export interface CommitChange {
  adds: RowSource[];
  removes: RowSource[];
}

/** Whether a committed writer's change is missing from the raced table, or in it twice. */
export async function writerChange(
  name: string,
  raced: CommitChange,
  serial: CommitChange,
  overall: RowDiff,
): Promise<VerdictWriter> {
  const d = await diffRows([...raced.adds, ...serial.removes], [...serial.adds, ...raced.removes]);
  const excess = d.duplicated + d.extra;
  return {
    name,
    notApplied: d.missing > 0 && excess === 0 && overall.missing > 0,
    appliedTwice: excess > 0 && d.missing === 0 && overall.duplicated > 0,
  };
}

export async function writerChanges(
  raced: DeltaTable,
  serial: DeltaTable,
  writers: WriterCommits[],
  overall: RowDiff,
): Promise<VerdictWriter[]> {
  const out: VerdictWriter[] = [];
  for (const w of writers) {
    const change = async (table: DeltaTable, version: number | undefined): Promise<CommitChange> => {
      const files = await commitFiles(table, version);
      return { adds: [deltaRows(table, files.adds)], removes: [deltaRows(table, files.removes)] };
    };
    out.push(
      await writerChange(w.name, await change(raced, w.racedVersion), await change(serial, w.serialVersion), overall),
    );
  }
  return out;
}
