/**
 * Where the rows of a write come from: Parquet files (the taxi data, the lab's prepared days) or
 * plain JS rows. Either becomes an engine-built DuckDB relation with the table's columns, in the
 * table's order, cast to the table's types; nothing the caller wrote is spliced into SQL.
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  type DeltaType,
  deltaToDuckType,
  duckToDeltaType,
  type StructField,
  type StructType,
} from '../../kernel/delta/protocol/schema';
import { sqlIdent, sqlList, sqlString } from './duck';

export type DataSource =
  | { kind: 'parquet'; paths: string[] }
  | { kind: 'rows'; schema: StructType; rows: Record<string, unknown>[] };

export class SchemaMismatchError extends Error {
  override name = 'SchemaMismatchError';
}

export interface PreparedSource {
  /** The relation's SQL; valid until `dispose()`. */
  sql: string;
  /** Whether `sql` also has a `__pos` column: each row's position in the source, counted from 0. */
  positioned: boolean;
  /** The source's own schema, for tables that do not exist yet. */
  schema: StructType;
  dispose(): Promise<void>;
}

const INTEGER_RANK: Partial<Record<string, number>> = { byte: 1, short: 2, integer: 3, long: 4 };

/** A type without its struct fields' metadata (column mapping annotations), which says nothing of the values. */
function bare(t: DeltaType): DeltaType {
  if (typeof t === 'string') return t;
  switch (t.type) {
    case 'struct':
      return { ...t, fields: t.fields.map((f) => ({ ...f, type: bare(f.type), metadata: {} })) };
    case 'array':
      return { ...t, elementType: bare(t.elementType) };
    case 'map':
      return { ...t, keyType: bare(t.keyType), valueType: bare(t.valueType) };
  }
}

/** Whether values of `from` can be written into a column of `to` without loss. */
function widens(from: DeltaType, to: DeltaType): boolean {
  if (JSON.stringify(bare(from)) === JSON.stringify(bare(to))) return true;
  if (typeof from !== 'string' || typeof to !== 'string') return false;
  const a = INTEGER_RANK[from];
  const b = INTEGER_RANK[to];
  if (a !== undefined && b !== undefined) return a <= b;
  return (from === 'float' && to === 'double') || (a !== undefined && to === 'double');
}

export async function prepareSource(
  conn: DuckDBConnection,
  source: DataSource,
  staging: string,
): Promise<PreparedSource> {
  if (source.kind === 'parquet') {
    if (source.paths.length === 0) throw new SchemaMismatchError('no Parquet files given to write');
    const list = sqlList(source.paths);
    const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list})`);
    const [names, types] = described.getColumns() as [string[], string[]];
    const fields: StructField[] = names.map((n, i) => ({
      name: n,
      type: duckToDeltaType(types[i] as string),
      nullable: true,
      metadata: {},
    }));
    // Positions from the files themselves (row number plus the rows of the files before it), so a
    // row cap can cut the rows by position while streaming, without numbering them in a window.
    const counts = await conn.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata(${list})`);
    const rowsByFile = new Map((counts.getRows() as [string, bigint][]).map(([f, n]) => [f, Number(n)]));
    let offset = 0;
    const offsets = source.paths.map((p) => {
      const o = `WHEN ${sqlString(p)} THEN ${offset}`;
      offset += rowsByFile.get(p) ?? 0;
      return o;
    });
    const pos =
      source.paths.length === 1 ? 'file_row_number' : `(CASE filename ${offsets.join(' ')} END) + file_row_number`;
    const sql = `SELECT * EXCLUDE (file_row_number, filename), ${pos} AS __pos FROM read_parquet(${list}, file_row_number=true, filename=true)`;
    return { sql, positioned: true, schema: { type: 'struct', fields }, dispose: async () => {} };
  }
  const file = join(staging, `${randomUUID()}.json`);
  const encode = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);
  await writeFile(file, source.rows.map((r) => JSON.stringify(r, encode)).join('\n'));
  const columns = source.schema.fields.map((f) => `${sqlString(f.name)}: ${sqlString(deltaToDuckType(f.type))}`);
  const sql = `SELECT * FROM read_json(${sqlString(file)}, format='newline_delimited', columns={${columns.join(', ')}})`;
  return { sql, positioned: false, schema: source.schema, dispose: () => rm(file, { force: true }) };
}

/**
 * The columns a write brings to an existing table, matched as delta-rs 1.6.6 matches them (measured with the real
 * deltalake 1.6.6, `write_deltalake(…, mode="append" | "overwrite")`): as many columns as the table, in any order,
 * each named exactly as one of the table's. A name that differs from the table's only by case is no match.
 */
export function assertSameColumns(data: StructType, table: StructType): void {
  if (data.fields.length !== table.fields.length) {
    throw new SchemaMismatchError(
      `Cannot cast schema, number of fields does not match: ${data.fields.length} vs ${table.fields.length}`,
    );
  }
  const names = new Set(table.fields.map((f) => f.name));
  const stranger = data.fields.find((f) => !names.has(f.name));
  if (stranger) throw new SchemaMismatchError(`Field ${stranger.name} not found in schema`);
}

/**
 * For each column of the table, in order, the column of the data that fills it, or null when the data lacks it
 * (written as NULL). Unknown columns, missing required ones and narrowing types are refused by name.
 */
export function conformFields(data: StructType, table: StructType): (StructField | null)[] {
  const byName = new Map(data.fields.map((f) => [f.name.toLowerCase(), f]));
  const extra = data.fields.filter((f) => !table.fields.some((t) => t.name.toLowerCase() === f.name.toLowerCase()));
  if (extra.length > 0) {
    throw new SchemaMismatchError(
      `the data has column(s) the table does not: ${extra.map((f) => f.name).join(', ')}; the table's columns are ${table.fields.map((f) => f.name).join(', ')}`,
    );
  }
  return table.fields.map((t) => {
    const f = byName.get(t.name.toLowerCase());
    if (!f) {
      if (!t.nullable) throw new SchemaMismatchError(`the data lacks column ${t.name}, which the table requires`);
      return null;
    }
    if (!widens(f.type, t.type)) {
      throw new SchemaMismatchError(
        `column ${t.name} is ${JSON.stringify(f.type)} in the data but ${JSON.stringify(t.type)} in the table`,
      );
    }
    return f;
  });
}

/**
 * The relation with the table's columns in order, cast to the table's types (plus `__pos` when asked
 * and the source has positions), as conformFields matches them.
 */
export function conformToSchema(prepared: PreparedSource, table: StructType, keepPosition = false): string {
  const sources = conformFields(prepared.schema, table);
  const cols = table.fields.map((t, i) => {
    const f = sources[i];
    const type = deltaToDuckType(t.type);
    return f
      ? `CAST(${sqlIdent(f.name)} AS ${type}) AS ${sqlIdent(t.name)}`
      : `CAST(NULL AS ${type}) AS ${sqlIdent(t.name)}`;
  });
  if (keepPosition && prepared.positioned) cols.push('__pos');
  return `SELECT ${cols.join(', ')} FROM (${prepared.sql})`;
}
