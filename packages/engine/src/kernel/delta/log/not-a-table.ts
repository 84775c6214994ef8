/**
 * What is at a location that holds no Delta table, in one wording for every surface (the engine's error, the
 * API, the CLIs, the audit): nothing at all, a file, a folder without a log, or a log without a commit. The
 * engine itself sees only its store, so it says "no commits"; a caller that can look at a local folder says which.
 */

/** The log folder of a Delta table, relative to the table's root. */
const LOG = '_delta_log/';

/** What a location that holds no Delta table holds instead. */
export type NotATableFound =
  | { kind: 'nothing' }
  | { kind: 'file' }
  | { kind: 'no-log'; parquetFiles: number }
  | { kind: 'empty-log' }
  | { kind: 'no-commits' };

/** "t does not exist: no table at this location", "t is not a Delta table: it has no _delta_log/ folder", … */
export function notATableWords(location: string, found: NotATableFound): string {
  switch (found.kind) {
    case 'nothing':
      return `${location} does not exist: no table at this location`;
    case 'file':
      return `${location} is a file, not a table's folder`;
    case 'no-log': {
      // Parquet files without a log are what a table looks like to a reader that lists folders: say what is there.
      const n = found.parquetFiles;
      const holds = n === 0 ? '' : ` (it holds ${n} Parquet ${n === 1 ? 'file' : 'files'}, which no log names)`;
      return `${location} is not a Delta table: it has no ${LOG} folder${holds}`;
    }
    case 'empty-log':
      return `${location} is not a Delta table: its ${LOG} holds no commit`;
    case 'no-commits':
      return `${location} is not a Delta table: no commits in ${LOG}`;
  }
}
