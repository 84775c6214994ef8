/**
 * Column mapping (PROTOCOL.md "Column Mapping", read as delta-kernel-rs reads it): with
 * `delta.columnMapping.mode` = `name` or `id`, every field, nested or not, carries a physical name
 * (`delta.columnMapping.physicalName`) and an id (`delta.columnMapping.id`, the Parquet field_id). Data files
 * use the physical names (and, in `id` mode, are matched by field id), and so do the log's partition values and
 * stats; users see the logical names (`StructField.name`) only. A new table asked for a mode gets both on every field
 * (`assignColumnMapping`) and the highest id as `delta.columnMapping.maxColumnId`. Pure: no I/O.
 */
import type { Protocol } from './actions';
import { SchemaError, type StructField, type StructType } from './schema';
import type { FileStats } from './stats';

export type ColumnMappingMode = 'none' | 'name' | 'id';

export const PHYSICAL_NAME_KEY = 'delta.columnMapping.physicalName';
export const COLUMN_ID_KEY = 'delta.columnMapping.id';
export const MAX_COLUMN_ID_KEY = 'delta.columnMapping.maxColumnId';
const MODE_KEY = 'delta.columnMapping.mode';

export class ColumnMappingError extends SchemaError {
  override name = 'ColumnMappingError';
}

/**
 * The table's mode. The property counts only where the protocol supports the feature: reader version 2, or
 * reader version 3 with `columnMapping` among the reader features; elsewhere it is ignored, as the protocol says.
 */
export function columnMappingMode(protocol: Protocol, configuration: Record<string, string | null>): ColumnMappingMode {
  const supported =
    protocol.minReaderVersion === 2 ||
    (protocol.minReaderVersion === 3 && (protocol.readerFeatures ?? []).includes('columnMapping'));
  return supported ? requestedColumnMapping(configuration) : 'none';
}

/** The mode the table properties ask for, whatever the protocol: `none` when the property is absent. */
export function requestedColumnMapping(configuration: Record<string, string | null>): ColumnMappingMode {
  const mode = configuration[MODE_KEY];
  if (mode === undefined || mode === null) return 'none';
  if (mode === 'none' || mode === 'name' || mode === 'id') return mode;
  throw new ColumnMappingError(`unknown ${MODE_KEY} '${mode}': it must be none, name or id`);
}

/**
 * The schema of a new column-mapped table: every field at every depth (struct fields inside arrays and maps too) gets
 * the next id, counting from 1 in the order a field comes before the fields nested in it (as delta-rs 1.6.6 numbers
 * them), and a physical name from `physicalNameFor` (`col-<uuid>`); annotations a field already had are replaced.
 * `maxColumnId` is the last id given.
 */
export function assignColumnMapping(
  schema: StructType,
  physicalNameFor: () => string,
): { schema: StructType; maxColumnId: number } {
  let id = 0;
  const annotate = (type: StructField['type']): StructField['type'] => {
    if (typeof type === 'string') return type;
    switch (type.type) {
      case 'struct':
        return annotateStruct(type);
      case 'array':
        return { ...type, elementType: annotate(type.elementType) };
      case 'map':
        return { ...type, keyType: annotate(type.keyType), valueType: annotate(type.valueType) };
    }
  };
  const annotateStruct = (struct: StructType): StructType => ({
    ...struct,
    fields: struct.fields.map((f) => {
      const metadata = { ...f.metadata, [COLUMN_ID_KEY]: ++id, [PHYSICAL_NAME_KEY]: physicalNameFor() };
      return { ...f, metadata, type: annotate(f.type) };
    }),
  });
  const annotated = annotateStruct(schema);
  return { schema: annotated, maxColumnId: id };
}

/** The name a field has in data files, partition values and stats: its physical name when mapping is on. */
export function physicalName(field: StructField, mode: ColumnMappingMode): string {
  if (mode === 'none') return field.name;
  return field.metadata[PHYSICAL_NAME_KEY] as string;
}

/** The field's Parquet field_id in `id` mode. */
export function columnId(field: StructField): number {
  return field.metadata[COLUMN_ID_KEY] as number;
}

/** The struct types directly inside a type: a struct itself, or those an array or map holds, at any depth. */
export function structsWithin(type: StructField['type']): StructType[] {
  if (typeof type === 'string') return [];
  switch (type.type) {
    case 'struct':
      return [type];
    case 'array':
      return structsWithin(type.elementType);
    case 'map':
      return [...structsWithin(type.keyType), ...structsWithin(type.valueType)];
  }
}

/**
 * Checks that with mapping on, every field at every depth has a string physical name and an integer id, ids are
 * unique in the schema and physical names unique among siblings (as delta-kernel-rs checks). Errors name the
 * field by its logical path.
 */
export function checkColumnMapping(schema: StructType, mode: ColumnMappingMode): void {
  if (mode === 'none') return;
  const ids = new Map<number, string>();
  const walk = (struct: StructType, parent: string) => {
    const siblings = new Map<string, string>();
    for (const f of struct.fields) {
      const path = parent ? `${parent}.${f.name}` : f.name;
      const physical = f.metadata[PHYSICAL_NAME_KEY];
      const id = f.metadata[COLUMN_ID_KEY];
      if (typeof physical !== 'string' || physical.length === 0) {
        throw new ColumnMappingError(`column mapping is on (${mode}) but field '${path}' has no ${PHYSICAL_NAME_KEY}`);
      }
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 2 ** 31 - 1) {
        throw new ColumnMappingError(
          `column mapping is on (${mode}) but field '${path}' has no ${COLUMN_ID_KEY} that is a 32-bit non-negative integer`,
        );
      }
      const twin = ids.get(id);
      if (twin !== undefined)
        throw new ColumnMappingError(`fields '${twin}' and '${path}' share ${COLUMN_ID_KEY} ${id}`);
      ids.set(id, path);
      const sibling = siblings.get(physical);
      if (sibling !== undefined) {
        throw new ColumnMappingError(`fields '${sibling}' and '${path}' share ${PHYSICAL_NAME_KEY} '${physical}'`);
      }
      siblings.set(physical, path);
      for (const inner of structsWithin(f.type)) walk(inner, path);
    }
  };
  walk(schema, '');
}

/**
 * Stats as the log writes them (keyed by physical name, nested structs as nested objects) keyed by logical
 * name instead; keys the schema does not know are dropped, since nothing could ask for them.
 */
export function logicalStats(
  stats: Partial<FileStats>,
  schema: StructType,
  mode: ColumnMappingMode,
): Partial<FileStats> {
  if (mode === 'none') return stats;
  const rename = (values: unknown, struct: StructType): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (!values || typeof values !== 'object') return out;
    const v = values as Record<string, unknown>;
    for (const f of struct.fields) {
      const key = physicalName(f, mode);
      if (!Object.hasOwn(v, key)) continue;
      const inner = typeof f.type === 'object' && f.type.type === 'struct' ? f.type : null;
      out[f.name] = inner && v[key] && typeof v[key] === 'object' ? rename(v[key], inner) : v[key];
    }
    return out;
  };
  const out: Partial<FileStats> = { ...stats };
  if (stats.minValues) out.minValues = rename(stats.minValues, schema);
  if (stats.maxValues) out.maxValues = rename(stats.maxValues, schema);
  if (stats.nullCount) out.nullCount = rename(stats.nullCount, schema) as Record<string, number>;
  return out;
}

/** An add's partition values (keyed by physical name) keyed by the logical names of the partition columns. */
export function logicalPartitionValues(
  values: Record<string, string | null>,
  schema: StructType,
  partitionColumns: readonly string[],
  mode: ColumnMappingMode,
): Record<string, string | null> {
  if (mode === 'none') return values;
  const out: Record<string, string | null> = {};
  for (const name of partitionColumns) {
    const field = schema.fields.find((f) => f.name === name);
    const key = field ? physicalName(field, mode) : name;
    if (Object.hasOwn(values, key)) out[name] = values[key] ?? null;
  }
  return out;
}
