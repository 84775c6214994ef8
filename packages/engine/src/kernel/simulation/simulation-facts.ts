/**
 * What the conflict simulation needs from outside: the read snapshot (the log's view of the table)
 * and the few facts only the data knows. Whoever runs a forecast backs them: the lab with DuckDB
 * over the table's Parquet, the browser with the counts its table layout query already fetched.
 * The simulation asks for nothing else, so a forecast never guesses from min/max what a count says.
 */
import type { Add, Protocol } from '../delta/protocol/actions';
import type { StructType } from '../delta/protocol/schema';
import type { FileStats } from '../delta/protocol/stats';
import type { SimulatedWriter } from './simulated-writer';

/** The version both writers read, as its log describes it. */
export interface TableSnapshot {
  version: number;
  /**
   * The active files as the writers' predicates see them: partition values and stats under logical column names,
   * `numRecords` net of each file's deletion vector (on a column-mapped or DV table the log's differ). The
   * simulation counts and prunes with these as they are.
   */
  files: readonly Add[];
  protocol: Protocol;
  schema: StructType;
  /** Empty for an unpartitioned table: Delta Spark's checker treats those differently (any concurrent add conflicts). */
  partitionColumns: readonly string[];
  /** The table's properties; `delta.isolationLevel` and the target file size come from here. */
  configuration: Readonly<Record<string, string | null>>;
}

/** One file an append would add: its partition and the stats of its rows (unknown stats match every predicate). */
export interface AppendedFile {
  partitionValues: Record<string, string | null>;
  stats?: FileStats;
}

export interface SimulationFacts {
  snapshot: TableSnapshot;
  /**
   * Rows matching `predicate` (a writer's text) in each file of the snapshot, by add path, counted
   * from the data; a file without a match may be left out. Throws when the predicate was not counted.
   */
  matches(predicate: string): ReadonlyMap<string, number>;
  /** The files appending the rows named `rows` would add, one per partition; null when those rows are unknown. */
  appended(rows: string): readonly AppendedFile[] | null;
}

/** What a forecast of `writers` will ask the facts for: the predicates to count and the rows to describe. */
export function factsNeeded(writers: readonly SimulatedWriter[]): { predicates: string[]; appends: string[] } {
  const predicates = new Set<string>();
  const appends = new Set<string>();
  for (const { change } of writers) {
    if (change.kind === 'update' || change.kind === 'delete' || change.kind === 'overwrite') {
      predicates.add(change.predicate);
    }
    if (change.kind === 'check-then-append') predicates.add(change.check);
    if (change.kind === 'append' || change.kind === 'check-then-append' || change.kind === 'overwrite') {
      appends.add(change.rows);
    }
  }
  return { predicates: [...predicates], appends: [...appends] };
}
