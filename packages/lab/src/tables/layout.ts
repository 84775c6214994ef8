/**
 * A table's layout at its latest version: every active file with its rows, partition values and
 * min/max stats, and optionally the rows per value of one column in each file. The per-value counts
 * come from the data (min/max cannot say whether a file spanning VendorID 1..7 holds a 6), which is
 * what a person needs to see why one update rewrites a file and another leaves it alone. Rows are net of
 * deletion vectors and columns are named as the schema names them (logical-files.ts), on every table.
 */
import {
  type Add,
  DeltaTable,
  type Expr,
  ExpressionError,
  fromLogPath,
  matchingFiles,
  type Protocol,
  parseStats,
  resolveColumn,
  type StructType,
  withConnection,
} from '@racelab/engine';
import { runnablePredicate } from '../data/expressions';
import { type Conn, sqlIdent } from '../data/sql';
import { logicalFile } from './logical-files';

export interface ValueCount {
  /** The value as DuckDB prints it (a partition value as the log holds it); null is SQL NULL. */
  value: string | null;
  rows: number;
}

export interface LayoutFile {
  /** The add action's path, relative to the table. */
  path: string;
  /** The rows a scan returns from it: net of its deletion vector. */
  rows: number;
  /** Partition values and min/max under the logical column names (the log keys them by physical name when mapped). */
  partitionValues: Record<string, string | null>;
  minValues: Record<string, unknown>;
  maxValues: Record<string, unknown>;
  /** Rows per value of the countBy column, values in the column's order, NULL last. */
  countsBy?: ValueCount[];
  /**
   * The add action's size in bytes and its stats JSON (for simulating commits), as logical-files.ts gives them:
   * logical names, numRecords net of the file's deletion vector.
   */
  size: number;
  stats: string | null;
  /** Rows matching each of the layout's predicates, in their order, counted from the data. */
  matches?: number[];
}

export interface TableLayout {
  version: number;
  files: LayoutFile[];
  /** What a simulation of commits on this table needs besides the files. */
  schema: StructType;
  partitionColumns: string[];
  protocol: Protocol;
  configuration: Record<string, string | null>;
}

export interface LayoutOptions {
  /** Predicates (parsed against the table's schema) whose matching rows are counted per file. */
  predicates?: string[];
}

/** Rows per value of `column` (per file when null) in each of `files`, keyed by add path: one DuckDB query. */
async function countPerFile(
  conn: Conn,
  table: DeltaTable,
  files: readonly Add[],
  column: string | null,
): Promise<Map<string, ValueCount[]>> {
  const out = new Map<string, ValueCount[]>(files.map((f) => [f.path, []]));
  if (files.length === 0) return out;
  const rel = await table.filesRelation(conn, files, { withFile: true });
  // Grouped and ordered on the typed value, so 10 sorts after 9; printed as text only at the end.
  const v = column === null ? 'NULL' : sqlIdent(column);
  const result = await conn.runAndReadAll(
    `SELECT __file, CAST(v AS VARCHAR), count(*) FROM (SELECT __file, ${v} AS v FROM (${rel})) GROUP BY __file, v ORDER BY __file, v NULLS LAST`,
  );
  const pathOf = new Map(files.map((f) => [fromLogPath(f.path), f.path]));
  for (const [key, value, n] of result.getRows() as [string, string | null, bigint][]) {
    out.get(pathOf.get(key) ?? '')?.push({ value, rows: Number(n) });
  }
  return out;
}

const sum = (counts: readonly ValueCount[] | undefined) => (counts ?? []).reduce((n, c) => n + c.rows, 0);

/** An empty partition value means null, as the Delta protocol says. */
const partitionValue = (v: string | null | undefined) => (v === undefined || v === '' ? null : v);

/** `at`: a table already open (its snapshot is the one laid out), or its location. */
export async function tableLayout(
  at: DeltaTable | string,
  countBy?: string,
  options: LayoutOptions = {},
): Promise<TableLayout> {
  const table = typeof at === 'string' ? await DeltaTable.open(at) : at;
  let column: string | undefined;
  if (countBy !== undefined) {
    try {
      column = resolveColumn(table.schema, countBy).name;
    } catch (e) {
      if (e instanceof ExpressionError) throw new ExpressionError(`countBy: ${e.message}`);
      throw e;
    }
  }
  // DuckDB reads the adds as the log holds them; people see them as logicalFile shows them.
  const files = table.activeFiles().sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shown = new Map(files.map((f) => [f.path, logicalFile(table, f)]));
  const stats = new Map(files.map((f) => [f.path, parseStats(shown.get(f.path)?.stats)]));
  const statsRows = (f: Add) => {
    const n = stats.get(f.path)?.numRecords;
    return typeof n === 'number' ? n : undefined;
  };
  const isPartition = column !== undefined && table.partitionColumns.includes(column);
  const { counts, unstated, matched } = await withConnection(async (conn) => {
    const predicates: Expr[] = [];
    for (const [i, text] of (options.predicates ?? []).entries()) {
      try {
        predicates.push(await runnablePredicate(conn, text, table.schema));
      } catch (e) {
        if (e instanceof ExpressionError) throw new ExpressionError(`predicates[${i}]: ${e.message}`);
        throw e;
      }
    }
    const matched = [];
    for (const p of predicates) {
      matched.push(new Map((await matchingFiles(conn, table, p)).map((m) => [m.add.path, m.matched])));
    }
    if (column !== undefined && !isPartition) {
      return { counts: await countPerFile(conn, table, files, column), matched };
    }
    // Stats are optional in the protocol: a file without numRecords is counted instead.
    const lacking = files.filter((f) => statsRows(f) === undefined);
    return { unstated: await countPerFile(conn, table, lacking, null), matched };
  });
  return {
    version: table.version,
    schema: table.schema,
    partitionColumns: table.partitionColumns,
    protocol: table.protocol,
    configuration: table.configuration,
    files: files.map((add) => {
      const f = shown.get(add.path) as Add;
      const s = stats.get(f.path);
      const rows = statsRows(f) ?? sum(counts?.get(f.path) ?? unstated?.get(f.path));
      const out: LayoutFile = {
        path: f.path,
        rows,
        partitionValues: f.partitionValues,
        minValues: s?.minValues ?? {},
        maxValues: s?.maxValues ?? {},
        size: f.size,
        stats: f.stats ?? null,
        ...(matched.length > 0 && { matches: matched.map((m) => m.get(f.path) ?? 0) }),
      };
      if (counts) out.countsBy = counts.get(f.path) ?? [];
      else if (isPartition && column !== undefined) {
        out.countsBy = rows > 0 ? [{ value: partitionValue(f.partitionValues[column]), rows }] : [];
      }
      return out;
    }),
  };
}
