/**
 * Iceberg primitive types and their DuckDB counterparts, for writing data files and for deriving a
 * table schema from a Parquet file. Field ids are assigned 1..n in column order, as pyiceberg does
 * for a new table.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { IcebergPrimitive, IcebergSchema, SchemaField } from '../../kernel/iceberg/types';
import { sqlString } from '../parquet/duck';

/** DuckDB type (as DESCRIBE prints it) → Iceberg primitive. Narrow integers widen to int, as Arrow→Iceberg does. */
export function icebergTypeFromDuck(duckType: string): IcebergPrimitive {
  const t = duckType.toUpperCase();
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (dec) return `decimal(${Number(dec[1])}, ${Number(dec[2])})`;
  switch (t) {
    case 'BOOLEAN':
      return 'boolean';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'UTINYINT':
    case 'USMALLINT':
      return 'int';
    case 'BIGINT':
    case 'UINTEGER':
      return 'long';
    case 'FLOAT':
      return 'float';
    case 'DOUBLE':
      return 'double';
    case 'DATE':
      return 'date';
    case 'TIME':
      return 'time';
    case 'TIMESTAMP':
    case 'TIMESTAMP_S':
    case 'TIMESTAMP_MS':
    case 'TIMESTAMP_NS':
      return 'timestamp';
    case 'TIMESTAMP WITH TIME ZONE':
      return 'timestamptz';
    case 'VARCHAR':
      return 'string';
    case 'UUID':
      return 'uuid';
    case 'BLOB':
      return 'binary';
    default:
      throw new Error(`No Iceberg type for DuckDB type ${duckType}`);
  }
}

/** Iceberg primitive → the DuckDB type a data file column is cast to before writing. */
export function duckTypeFor(type: SchemaField['type']): string {
  if (typeof type !== 'string')
    throw new Error(`Nested Iceberg types are not supported for writing: ${JSON.stringify(type)}`);
  const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  if (dec) return `DECIMAL(${dec[1]}, ${dec[2]})`;
  if (type.startsWith('fixed[')) return 'BLOB';
  const map: Record<string, string> = {
    boolean: 'BOOLEAN',
    int: 'INTEGER',
    long: 'BIGINT',
    float: 'FLOAT',
    double: 'DOUBLE',
    date: 'DATE',
    time: 'TIME',
    timestamp: 'TIMESTAMP',
    timestamptz: 'TIMESTAMPTZ',
    string: 'VARCHAR',
    uuid: 'UUID',
    binary: 'BLOB',
  };
  const d = map[type];
  if (!d) throw new Error(`Unsupported Iceberg type ${type}`);
  return d;
}

/** A schema whose fields are the Parquet file's columns, ids 1..n, all optional. */
export async function schemaFromParquet(c: DuckDBConnection, parquetPath: string): Promise<IcebergSchema> {
  const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(parquetPath)})`);
  const fields: SchemaField[] = r.getRowObjectsJson().map((row, i) => ({
    id: i + 1,
    name: String(row.column_name),
    type: icebergTypeFromDuck(String(row.column_type)),
    required: false,
  }));
  return { type: 'struct', fields, 'schema-id': 0, 'identifier-field-ids': [] };
}

/** An explicit schema: ids 1..n unless given. */
export function schemaFromFields(
  fields: { name: string; type: IcebergPrimitive; required?: boolean; id?: number }[],
): IcebergSchema {
  return {
    type: 'struct',
    fields: fields.map((f, i) => ({ id: f.id ?? i + 1, name: f.name, type: f.type, required: f.required ?? false })),
    'schema-id': 0,
    'identifier-field-ids': [],
  };
}
