/**
 * A table's add actions as a person (and the conflict simulation) sees them, not as the log keys them. On a
 * column-mapped table the log keys partition values and stats by physical names (`col-5f1c…`), which no
 * predicate, layout or finding should show; with deletion vectors a file's `numRecords` counts the rows it was
 * written with, before its vector deleted some. Layouts, forecasts and audits all count from these, so the
 * rows they show are the rows a scan returns and the columns are those a predicate names.
 */
import { type Add, type DeltaTable, parseStats } from '@racelab/engine';

/**
 * `add` with its partition values and stats under the table's logical column names, and `numRecords` net of
 * its deletion vector (numRecords − cardinality: the vector deletes exactly that many of the file's rows). The
 * vector itself stays on the action, so its identity is kept; nothing should subtract it again.
 */
export function logicalFile(table: DeltaTable, add: Add): Add {
  const { partitionValues, ...stats } = table.fileStats(add);
  const out: Add = { ...add, partitionValues };
  if (parseStats(add.stats) === null) return out;
  const deleted = add.deletionVector?.cardinality ?? 0;
  const numRecords = typeof stats.numRecords === 'number' ? stats.numRecords - deleted : undefined;
  out.stats = JSON.stringify({ ...stats, ...(numRecords !== undefined && { numRecords }) });
  return out;
}

/** The table's active files, in the snapshot's order, each as `logicalFile` gives it. */
export function logicalFiles(table: DeltaTable): Add[] {
  return table.activeFiles().map((f) => logicalFile(table, f));
}
