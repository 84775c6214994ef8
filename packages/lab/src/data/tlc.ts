/**
 * The real NYC TLC yellow-taxi files: `yellow_tripdata_2025-01.parquet` and `-02.parquet` in the data folder.
 * january.parquet is the January file as it is (every row, in file order) with trip_id = the row's 0-based
 * position; feb-<day>.parquet holds the February rows picked up on that day, in file order, with
 * trip_id = 10,000,000 + the row's position in the February file. Columns are matched by name ignoring case
 * (TLC spelled `airport_fee` in some months), cast to the 2025 types and written in TLC_COLUMNS order;
 * columns outside the 2025 schema are left out.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetError } from './errors';
import { FEBRUARY_DAYS, FEBRUARY_ID_OFFSET, type FebruaryDay } from './figures';
import { TLC_COLUMNS } from './schema';
import { type Conn, runWatched, type StepProgress, sqlIdent, sqlString } from './sql';

export const TLC_JANUARY = 'yellow_tripdata_2025-01.parquet';
export const TLC_FEBRUARY = 'yellow_tripdata_2025-02.parquet';

export interface TlcFiles {
  january: string;
  february: string;
}

/** Both TLC files in `dataDir`, or null when either is missing. */
export function findTlcFiles(dataDir: string): TlcFiles | null {
  const january = join(dataDir, TLC_JANUARY);
  const february = join(dataDir, TLC_FEBRUARY);
  return existsSync(january) && existsSync(february) ? { january, february } : null;
}

const INTEGERS = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER'];

/** The DuckDB types a file may hold for each 2025 type: ones that cast to it without changing a value. */
function compatible(expected: string, actual: string): boolean {
  const t = actual.toUpperCase();
  switch (expected) {
    case 'INTEGER':
    case 'BIGINT':
      return INTEGERS.includes(t);
    case 'DOUBLE':
      return t === 'DOUBLE' || t === 'FLOAT' || t.startsWith('DECIMAL') || INTEGERS.includes(t);
    case 'TIMESTAMP':
      return ['TIMESTAMP', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP WITH TIME ZONE'].includes(t);
    default:
      return t === expected;
  }
}

/**
 * Checks that `file` has every 2025 TLC column with a compatible type; returns each TLC column's name in
 * the file. Throws a DatasetError naming the file and the column otherwise.
 */
export async function checkTlcSchema(c: Conn, file: string): Promise<Map<string, string>> {
  let described: [string, string][];
  try {
    const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`);
    described = (r.getRows() as unknown[][]).map((row) => [String(row[0]), String(row[1])]);
  } catch (e) {
    throw new DatasetError(`${file}: not a readable Parquet file (${(e as Error).message})`, { cause: e });
  }
  const names = new Map<string, string>();
  for (const { name, type } of TLC_COLUMNS) {
    const found =
      described.find(([n]) => n === name) ?? described.find(([n]) => n.toLowerCase() === name.toLowerCase());
    if (!found) throw new DatasetError(`${file}: column ${name} is missing (expected ${type})`);
    const [actualName, actualType] = found;
    if (!compatible(type, actualType)) {
      throw new DatasetError(`${file}: column ${actualName} has type ${actualType}, expected ${type}`);
    }
    names.set(name, actualName);
  }
  return names;
}

/** The TLC columns of a checked file, cast to the 2025 types, followed by trip_id = idOffset + row position. */
function selectColumns(names: Map<string, string>, idOffset: number): string {
  const columns = TLC_COLUMNS.map(({ name, type }) => {
    const actual = names.get(name) ?? name;
    return `CAST(${sqlIdent(actual)} AS ${type}) AS ${sqlIdent(name)}`;
  });
  return `${columns.join(', ')}, CAST(${idOffset} + file_row_number AS BIGINT) AS trip_id`;
}

export interface TlcTargets {
  january: string;
  february(day: FebruaryDay): string;
}

/**
 * Checks both files' schemas, then writes january.parquet and the three feb-<day>.parquet files.
 * `onProgress` hears the rows DuckDB has read of the file it is converting (each file's own count).
 */
export async function writeTlc(
  c: Conn,
  files: TlcFiles,
  out: TlcTargets,
  onProgress?: (p: StepProgress) => void,
): Promise<void> {
  const watch = (detail: string) =>
    onProgress && ((done: number, total: number) => onProgress({ done, total, detail }));
  const janNames = await checkTlcSchema(c, files.january);
  const febNames = await checkTlcSchema(c, files.february);
  // Plain scans keep file order in the COPY (preserve_insertion_order); measureDataset checks it.
  await runWatched(
    c,
    `COPY (SELECT ${selectColumns(janNames, 0)} FROM read_parquet(${sqlString(files.january)}, file_row_number = true))
     TO ${sqlString(out.january)} (FORMAT parquet, COMPRESSION snappy)`,
    watch('converting January'),
  );
  const pickup = sqlIdent(febNames.get('tpep_pickup_datetime') ?? 'tpep_pickup_datetime');
  for (const day of FEBRUARY_DAYS) {
    await runWatched(
      c,
      `COPY (SELECT ${selectColumns(febNames, FEBRUARY_ID_OFFSET)}
             FROM read_parquet(${sqlString(files.february)}, file_row_number = true)
             WHERE CAST(CAST(${pickup} AS TIMESTAMP) AS DATE) = DATE ${sqlString(day)})
       TO ${sqlString(out.february(day))} (FORMAT parquet, COMPRESSION snappy)`,
      watch(`converting ${day}`),
    );
  }
}
