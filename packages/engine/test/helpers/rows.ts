/**
 * Encodes a table's rows the way the golden fixtures' expected.json does (fixtures/GOLDEN.md
 * section 3), so rows can be compared with numbers neither this engine nor its authors produced.
 */
import type { DeltaTable, DeltaType, StructField } from '../../src/index';

function q(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function encodeColumn(name: string, type: DeltaType): string {
  const c = q(name);
  if (typeof type !== 'string') return `to_json(${c})::VARCHAR`;
  if (type.startsWith('decimal')) return `CAST(${c} AS VARCHAR)`;
  switch (type) {
    case 'timestamp':
      return `strftime(${c}, '%Y-%m-%dT%H:%M:%S.%fZ')`;
    case 'timestamp_ntz':
      return `strftime(${c}, '%Y-%m-%dT%H:%M:%S.%f')`;
    case 'date':
      return `strftime(${c}, '%Y-%m-%d')`;
    case 'binary':
      return `lower(hex(${c}))`;
    default:
      return c;
  }
}

export async function encodedRows(table: DeltaTable): Promise<Record<string, unknown>[]> {
  const cols = table.schema.fields.map((f) => `${encodeColumn(f.name, f.type)} AS ${q(f.name)}`);
  const rows = await table.query((rel) => `SELECT ${cols.join(', ')} FROM (${rel})`);
  const out = rows.map((row) => {
    const o: Record<string, unknown> = {};
    for (const f of table.schema.fields) {
      const v = row[f.name];
      if (typeof f.type !== 'string') o[f.name] = v === null ? null : JSON.parse(v as string);
      else if (typeof v === 'bigint') o[f.name] = Number(v);
      else o[f.name] = v;
    }
    return o;
  });
  return out.sort((a, b) => {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * Puts rows in a form that compares exactly and by column name: values as DuckDB's own JSON form gives them
 * (`getRowObjectsJson`: 64-bit integers and decimals as digits, timestamps and blobs as text, nested values as
 * JSON), map entries ordered by key (a map is unordered, so two readers may list its entries differently), each
 * row as one JSON string with the schema's columns in order, and the rows sorted: a multiset.
 */
export function canonicalRows(rows: readonly Record<string, unknown>[], fields: readonly StructField[]): string[] {
  return rows.map((row) => JSON.stringify(fields.map((f) => [f.name, canonicalValue(row[f.name], f.type)]))).sort();
}

function canonicalValue(v: unknown, type: DeltaType): unknown {
  if (v === null || v === undefined || typeof type === 'string') return v ?? null;
  switch (type.type) {
    case 'struct': {
      const o = v as Record<string, unknown>;
      return type.fields.map((f) => [f.name, canonicalValue(o[f.name], f.type)]);
    }
    case 'array':
      return (v as unknown[]).map((e) => canonicalValue(e, type.elementType));
    case 'map':
      return (v as { key: unknown; value: unknown }[])
        .map((e) => [canonicalValue(e.key, type.keyType), canonicalValue(e.value, type.valueType)])
        .map((e) => [JSON.stringify(e[0]), e] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([, e]) => e);
  }
}
