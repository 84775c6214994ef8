/**
 * How a column-mapped table's data files are read under its logical names. In `name` mode a field is the file
 * column with its physical name; in `id` mode the column whose Parquet field_id is the field's id, else the one
 * with its physical name (delta-kernel-rs's order), at every depth of nested structs. A field a file lacks reads
 * as NULL. DuckDB's `read_parquet` matches columns by name only (its `schema` parameter maps field ids at the top
 * level but casts nested structs by name), so the files' own schemas are read (`parquet_schema`) and each field
 * is selected by the name it has in the file, nested structs rebuilt under their logical names.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  type ColumnMappingMode,
  columnId,
  physicalName,
  structsWithin,
} from '../../kernel/delta/protocol/column-mapping';
import type { DeltaType, StructField, StructType } from '../../kernel/delta/protocol/schema';
import { sqlIdent, sqlList, sqlString } from './duck';

/** One node of a Parquet file's schema, as `parquet_schema()` lists it. */
interface ParquetNode {
  name: string;
  fieldId: number | null;
  /** LIST or MAP (the logical or converted type), which says how a group nests. */
  annotation: string | null;
  children: ParquetNode[];
}

/** Where each logical field of a Delta type is found in one file's schema. */
type Found =
  | { kind: 'leaf' }
  | FoundStruct
  | { kind: 'list'; element: Found }
  | { kind: 'map'; key: Found; value: Found };
/** Per field of the struct, in order: the name it has in the file and where its own fields are; null if absent. */
interface FoundStruct {
  kind: 'struct';
  fields: ({ source: string; inner: Found } | null)[];
}

const LEAF: Found = { kind: 'leaf' };

export interface MappedColumns {
  schema: StructType;
  partitionColumns: readonly string[];
  mode: ColumnMappingMode;
}

/**
 * The relation scan.ts reads `paths` through: `read_parquet(paths, options)` for a table without column mapping;
 * otherwise the same files with their data columns under the logical names (nested fields too), and every column
 * the read options add (file name, row number) as read_parquet gives it. Files that name their columns alike are
 * read together; files that differ (an `id`-mode table whose files were written under other names) in groups.
 */
export async function logicalFileSource(
  conn: DuckDBConnection,
  paths: readonly string[],
  options: string,
  columns: MappedColumns,
): Promise<string> {
  const read = (files: readonly string[]) => `read_parquet(${sqlList(files)}, ${options})`;
  if (columns.mode === 'none') return read(paths);
  const data = columns.schema.fields.filter((f) => !columns.partitionColumns.includes(f.name));
  const groups = new Map<string, { files: string[]; found: FoundStruct; names: Set<string> }>();
  for (const [path, root] of await parquetSchemas(conn, paths)) {
    const found = findStruct(data, root.children, columns.mode);
    const key = JSON.stringify(found);
    const group = groups.get(key) ?? { files: [], found, names: new Set<string>() };
    group.files.push(path);
    for (const c of root.children) group.names.add(c.name);
    groups.set(key, group);
  }
  const selects = [...groups.values()].map(({ files, found, names }) => {
    const renamed = data.flatMap((f, i) => {
      const at = found.fields[i];
      return at ? [`${logicalValue(sqlIdent(at.source), f.type, at.inner, 0)} AS ${sqlIdent(f.name)}`] : [];
    });
    // Only the columns the read options add are kept as they are; every data column is replaced.
    const rest = names.size > 0 ? `* EXCLUDE (${[...names].map(sqlIdent).join(', ')})` : '*';
    return `SELECT ${[rest, ...renamed].join(', ')} FROM ${read(files)}`;
  });
  return `(${selects.join(' UNION ALL BY NAME ')})`;
}

/** Each file's schema tree, in the order of `paths`. */
async function parquetSchemas(conn: DuckDBConnection, paths: readonly string[]): Promise<Map<string, ParquetNode>> {
  const r = await conn.runAndReadAll(
    `SELECT file_name, name, field_id, num_children, coalesce(logical_type, converted_type) FROM parquet_schema(${sqlList(paths)})`,
  );
  type Row = [name: string, fieldId: unknown, children: unknown, annotation: string | null];
  const rows = new Map<string, Row[]>(paths.map((p) => [p, []]));
  for (const [file, ...rest] of r.getRows() as [string, ...Row][]) rows.get(file)?.push(rest);
  const trees = new Map<string, ParquetNode>();
  for (const [file, list] of rows) {
    // Every file has at least its root: a file DuckDB named otherwise would silently read as all NULLs.
    if (list.length === 0) throw new Error(`parquet_schema() returned nothing for ${file}`);
    // Rows come depth-first; each node says how many children follow it.
    let i = 0;
    const node = (): ParquetNode => {
      const [name, fieldId, n, annotation] = list[i++] ?? ['', null, 0, null];
      const children = Array.from({ length: Number(n ?? 0) }, node);
      return { name, fieldId: fieldId === null ? null : Number(fieldId), annotation, children };
    };
    trees.set(file, node());
  }
  return trees;
}

/** Where `fields` are among a struct's Parquet `children`. */
function findStruct(fields: readonly StructField[], children: ParquetNode[], mode: ColumnMappingMode): FoundStruct {
  const wanted = new Set(mode === 'id' ? fields.map(columnId) : []);
  return {
    kind: 'struct',
    fields: fields.map((f) => {
      const byId = mode === 'id' ? children.find((c) => c.fieldId === columnId(f)) : undefined;
      // By name only a column no other field claims by id.
      const byName = children.find(
        (c) => c.name === physicalName(f, mode) && (c.fieldId === null || !wanted.has(c.fieldId)),
      );
      const node = byId ?? byName;
      return node ? { source: node.name, inner: find(f.type, node, mode) } : null;
    }),
  };
}

function find(type: DeltaType, node: ParquetNode, mode: ColumnMappingMode): Found {
  if (typeof type === 'string' || structsWithin(type).length === 0) return LEAF;
  const annotation = (node.annotation ?? '').toUpperCase();
  switch (type.type) {
    case 'struct':
      return node.children.length > 0 && !/^(LIST|MAP)/.test(annotation)
        ? findStruct(type.fields, node.children, mode)
        : LEAF;
    case 'array': {
      const element = listElement(node);
      return { kind: 'list', element: element ? find(type.elementType, element, mode) : LEAF };
    }
    case 'map': {
      const entry = node.children.length === 1 ? node.children[0] : undefined;
      const [key, value] = entry?.children ?? [];
      return {
        kind: 'map',
        key: key ? find(type.keyType, key, mode) : LEAF,
        value: value ? find(type.valueType, value, mode) : LEAF,
      };
    }
  }
}

/**
 * A LIST's element node, by Parquet's rules for lists: `<list> { repeated group list { <element> } }`, or in the
 * legacy two-level form (the repeated group has several fields, or is named `array` or `<list>_tuple`) the
 * repeated group itself.
 */
function listElement(node: ParquetNode): ParquetNode | undefined {
  const repeated = node.children.length === 1 ? node.children[0] : undefined;
  if (!repeated) return undefined;
  const legacy = repeated.children.length !== 1 || repeated.name === 'array' || repeated.name === `${node.name}_tuple`;
  return legacy ? repeated : repeated.children[0];
}

/** Whether a value found this way already has the logical names at every depth. */
function same(type: DeltaType, found: Found): boolean {
  if (found.kind === 'leaf' || typeof type === 'string') return true;
  if (found.kind === 'struct' && type.type === 'struct') {
    return type.fields.every((f, i) => {
      const at = found.fields[i];
      return at !== null && at !== undefined && at.source === f.name && same(f.type, at.inner);
    });
  }
  if (found.kind === 'list' && type.type === 'array') return same(type.elementType, found.element);
  if (found.kind === 'map' && type.type === 'map')
    return same(type.keyType, found.key) && same(type.valueType, found.value);
  return true;
}

/**
 * `expr` (a value with the file's names) with the logical names of `type`: structs rebuilt field by field (NULL
 * where the file lacks the field, and NULL where the struct itself is), lists and maps element by element. The
 * scan's cast to the Delta type then sets the types.
 */
function logicalValue(expr: string, type: DeltaType, found: Found, depth: number): string {
  if (same(type, found) || typeof type === 'string') return expr;
  const v = `__e${depth}`;
  if (found.kind === 'struct' && type.type === 'struct' && type.fields.length > 0) {
    const parts = type.fields.map((f, i) => {
      const at = found.fields[i];
      const value = at
        ? logicalValue(`struct_extract(${expr}, ${sqlString(at.source)})`, f.type, at.inner, depth)
        : 'NULL';
      return `${sqlString(f.name)}: ${value}`;
    });
    return `CASE WHEN ${expr} IS NULL THEN NULL ELSE {${parts.join(', ')}} END`;
  }
  if (found.kind === 'list' && type.type === 'array') {
    return `list_transform(${expr}, lambda ${v}: ${logicalValue(v, type.elementType, found.element, depth + 1)})`;
  }
  if (found.kind === 'map' && type.type === 'map') {
    const key = logicalValue(`${v}.key`, type.keyType, found.key, depth + 1);
    const value = logicalValue(`${v}.value`, type.valueType, found.value, depth + 1);
    return `map_from_entries(list_transform(map_entries(${expr}), lambda ${v}: {'key': ${key}, 'value': ${value}}))`;
  }
  return expr;
}
