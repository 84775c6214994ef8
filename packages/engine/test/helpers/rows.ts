/**
 * Encodes a table's rows the way the golden fixtures' expected.json does (../shared/fixtures/README.md
 * section 3), so rows can be compared with numbers neither this engine nor its authors produced.
 */
import type { DeltaTable, DeltaType } from '../../src/index';

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
