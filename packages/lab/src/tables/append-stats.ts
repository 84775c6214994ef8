/**
 * What appending a Parquet file to a table would add, without writing it: per partition of the
 * table, the rows and the stats delta-rs would record for them (numRecords, min/max, nullCount of
 * the table's stats columns), counted by DuckDB in one query over the file. This is what lets a
 * forecast judge an append by the rows it really writes rather than by unknown stats.
 */
import {
  buildStats,
  DeltaTable,
  deltaToDuckType,
  type FileStats,
  resolveColumn,
  statsColumns,
  withConnection,
} from '@racelab/engine';
import { type Conn, sqlIdent, sqlString } from '../data/sql';

export interface AppendedFile {
  partitionValues: Record<string, string | null>;
  stats: FileStats;
}

export async function appendedFiles(conn: Conn, table: DeltaTable, file: string): Promise<AppendedFile[]> {
  const typed = (name: string) =>
    `CAST(${sqlIdent(name)} AS ${deltaToDuckType(resolveColumn(table.schema, name).type)})`;
  const parts = table.partitionColumns;
  const columns = statsColumns(table.schema, parts, table.configuration);
  // As text: partition values as the log holds them, min/max as buildStats reads DuckDB's output.
  const select = [
    ...parts.map((p) => `CAST(${typed(p)} AS VARCHAR)`),
    'count(*)',
    ...columns.flatMap((c) => [
      `CAST(min(${typed(c.name)}) AS VARCHAR)`,
      `CAST(max(${typed(c.name)}) AS VARCHAR)`,
      `count(*) - count(${sqlIdent(c.name)})`,
    ]),
  ];
  const groupBy = parts.length > 0 ? ` GROUP BY ${parts.map((_, i) => i + 1).join(', ')}` : '';
  const result = await conn.runAndReadAll(
    `SELECT ${select.join(', ')} FROM read_parquet(${sqlString(file)})${groupBy}`,
  );
  return (result.getRows() as unknown[][])
    .filter((row) => Number(row[parts.length]) > 0)
    .map((row) => {
      const partitionValues = Object.fromEntries(parts.map((p, i) => [p, (row[i] as string | null) ?? null]));
      const raw = new Map<string, { min?: string; max?: string; nullCount: number }>();
      columns.forEach((c, i) => {
        const at = parts.length + 1 + 3 * i;
        raw.set(c.name, {
          ...(row[at] !== null && { min: row[at] as string }),
          ...(row[at + 1] !== null && { max: row[at + 1] as string }),
          nullCount: Number(row[at + 2]),
        });
      });
      return { partitionValues, stats: buildStats(columns, Number(row[parts.length]), raw) };
    });
}

/** What appending `file` to the table (open, or at a location) would add, per partition (see appendedFiles). */
export async function previewAppend(at: DeltaTable | string, file: string): Promise<AppendedFile[]> {
  const table = typeof at === 'string' ? await DeltaTable.open(at) : at;
  return withConnection((conn) => appendedFiles(conn, table, file));
}
