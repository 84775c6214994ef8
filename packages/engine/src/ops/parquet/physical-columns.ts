/**
 * How a column-mapped table's rows are written, as delta-rs 1.6.x writes them
 * (crates/core/src/delta_datafusion/column_mapping.rs at python-v1.6.3, L1-10, L319-413): every column under its
 * physical name with its `delta.columnMapping.id` as the Parquet field_id, in `name` and `id` mode alike; struct
 * fields at every depth (inside lists and maps too) renamed and given ids; list elements and map keys and values
 * keep their Parquet names and get no id. Partition values and stats are then keyed by physical name, since they
 * take the file's column names. The reverse, reading, is logical-columns.ts.
 */
import {
  type ColumnMappingMode,
  columnId,
  physicalName,
  structsWithin,
} from '../../kernel/delta/protocol/column-mapping';
import type { DeltaType, StructField, StructType } from '../../kernel/delta/protocol/schema';
import { sqlIdent, sqlString } from './duck';

export interface PhysicalColumns {
  /** The table's schema with physical names at every depth (metadata kept). */
  schema: StructType;
  partitionColumns: string[];
  statsColumns: StructField[];
  /** A SELECT list turning a relation with the logical columns into one with the physical columns. */
  select: string;
  /** DuckDB's COPY option `FIELD_IDS {…}` for the data (non-partition) columns. */
  fieldIds: string;
}

/** The physical side of `schema`; `statsColumns` are fields of the logical schema, mapped by position. */
export function physicalColumns(
  schema: StructType,
  partitionColumns: readonly string[],
  statsColumns: readonly StructField[],
  mode: Exclude<ColumnMappingMode, 'none'>,
): PhysicalColumns {
  const physical = physicalStruct(schema, mode);
  const byLogical = new Map(schema.fields.map((f, i) => [f.name, physical.fields[i] as StructField]));
  const physicalOf = (name: string) => (byLogical.get(name) as StructField).name;
  const select = schema.fields
    .map((f) => `${physicalValue(sqlIdent(f.name), f.type, mode, 0)} AS ${sqlIdent(physicalName(f, mode))}`)
    .join(', ');
  const data = schema.fields.filter((f) => !partitionColumns.includes(f.name));
  return {
    schema: physical,
    partitionColumns: partitionColumns.map(physicalOf),
    statsColumns: statsColumns.map((f) => byLogical.get(f.name) as StructField),
    select,
    fieldIds: `{${data.map((f) => fieldIdEntry(f, mode)).join(', ')}}`,
  };
}

function physicalStruct(struct: StructType, mode: ColumnMappingMode): StructType {
  return {
    ...struct,
    fields: struct.fields.map((f) => ({ ...f, name: physicalName(f, mode), type: physicalType(f.type, mode) })),
  };
}

function physicalType(type: DeltaType, mode: ColumnMappingMode): DeltaType {
  if (typeof type === 'string') return type;
  switch (type.type) {
    case 'struct':
      return physicalStruct(type, mode);
    case 'array':
      return { ...type, elementType: physicalType(type.elementType, mode) };
    case 'map':
      return { ...type, keyType: physicalType(type.keyType, mode), valueType: physicalType(type.valueType, mode) };
  }
}

/** `expr` (a value under logical names) under physical names: structs rebuilt, lists and maps element-wise. */
function physicalValue(expr: string, type: DeltaType, mode: ColumnMappingMode, depth: number): string {
  if (typeof type === 'string' || structsWithin(type).length === 0) return expr;
  const v = `__p${depth}`;
  switch (type.type) {
    case 'struct': {
      const parts = type.fields.map(
        (f) =>
          `${sqlString(physicalName(f, mode))}: ${physicalValue(`struct_extract(${expr}, ${sqlString(f.name)})`, f.type, mode, depth)}`,
      );
      return `CASE WHEN ${expr} IS NULL THEN NULL ELSE {${parts.join(', ')}} END`;
    }
    case 'array':
      return `list_transform(${expr}, lambda ${v}: ${physicalValue(v, type.elementType, mode, depth + 1)})`;
    case 'map': {
      const key = physicalValue(`${v}.key`, type.keyType, mode, depth + 1);
      const value = physicalValue(`${v}.value`, type.valueType, mode, depth + 1);
      return `map_from_entries(list_transform(map_entries(${expr}), lambda ${v}: {'key': ${key}, 'value': ${value}}))`;
    }
  }
}

/** One field's FIELD_IDS entry: its id, and the ids of the struct fields nested in it. */
function fieldIdEntry(f: StructField, mode: ColumnMappingMode): string {
  const nested = nestedIds(f.type, mode);
  const id = columnId(f);
  return `${sqlIdent(physicalName(f, mode))}: ${nested ? `{__duckdb_field_id: ${id}, ${nested}}` : id}`;
}

/** The FIELD_IDS entries inside a type (without braces), or null when it holds no struct. */
function nestedIds(type: DeltaType, mode: ColumnMappingMode): string | null {
  if (typeof type === 'string' || structsWithin(type).length === 0) return null;
  const wrap = (name: string, inner: DeltaType) => {
    const n = nestedIds(inner, mode);
    return n ? [`${name}: {${n}}`] : [];
  };
  switch (type.type) {
    case 'struct':
      return type.fields.map((f) => fieldIdEntry(f, mode)).join(', ');
    case 'array':
      return wrap('element', type.elementType).join(', ') || null;
    case 'map':
      return [...wrap('key', type.keyType), ...wrap('value', type.valueType)].join(', ') || null;
  }
}
