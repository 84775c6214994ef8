/**
 * The Delta schema as the Delta protocol writes it in `metaData.schemaString`, and its mapping to the
 * DuckDB types that the data layer reads and writes Parquet with. Pure: no I/O.
 */
import { UnsupportedFeatureError } from './unsupported';

export type PrimitiveTypeName =
  | 'string'
  | 'long'
  | 'integer'
  | 'short'
  | 'byte'
  | 'float'
  | 'double'
  | 'boolean'
  | 'binary'
  | 'date'
  | 'timestamp'
  | 'timestamp_ntz';

/** `decimal(p,s)` is a primitive whose name carries its precision and scale. */
export type DeltaType = PrimitiveTypeName | `decimal(${number},${number})` | StructType | ArrayType | MapType;

export interface StructField {
  name: string;
  type: DeltaType;
  nullable: boolean;
  metadata: Record<string, unknown>;
}
export interface StructType {
  type: 'struct';
  fields: StructField[];
}
export interface ArrayType {
  type: 'array';
  elementType: DeltaType;
  containsNull: boolean;
}
export interface MapType {
  type: 'map';
  keyType: DeltaType;
  valueType: DeltaType;
  valueContainsNull: boolean;
}

const PRIMITIVE_TO_DUCK: Record<PrimitiveTypeName, string> = {
  string: 'VARCHAR',
  long: 'BIGINT',
  integer: 'INTEGER',
  short: 'SMALLINT',
  byte: 'TINYINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  binary: 'BLOB',
  date: 'DATE',
  // Delta `timestamp` is instant-based (isAdjustedToUTC=true in Parquet): DuckDB's TIMESTAMPTZ.
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  // Delta `timestamp_ntz` is wall-clock time (isAdjustedToUTC=false): DuckDB's plain TIMESTAMP.
  timestamp_ntz: 'TIMESTAMP',
};

const DECIMAL_RE = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;

export function decimalParts(t: DeltaType): { precision: number; scale: number } | null {
  if (typeof t !== 'string') return null;
  const m = DECIMAL_RE.exec(t);
  return m ? { precision: Number(m[1]), scale: Number(m[2]) } : null;
}

export class SchemaError extends Error {
  override name = 'SchemaError';
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The DuckDB type that holds values of a Delta type. */
export function deltaToDuckType(t: DeltaType): string {
  if (typeof t === 'string') {
    const dec = decimalParts(t);
    if (dec) return `DECIMAL(${dec.precision},${dec.scale})`;
    const duck = PRIMITIVE_TO_DUCK[t as PrimitiveTypeName];
    if (!duck) throw new SchemaError(`unsupported Delta type '${t}'`);
    return duck;
  }
  switch (t.type) {
    case 'struct':
      return `STRUCT(${t.fields.map((f) => `${quoteIdent(f.name)} ${deltaToDuckType(f.type)}`).join(', ')})`;
    case 'array':
      return `${deltaToDuckType(t.elementType)}[]`;
    case 'map':
      return `MAP(${deltaToDuckType(t.keyType)}, ${deltaToDuckType(t.valueType)})`;
  }
}

/**
 * The Delta type for a DuckDB column type as DESCRIBE prints it. Naive timestamps (the taxi files
 * have them) become `timestamp_ntz`, as delta-rs maps Arrow `Timestamp(us, None)`.
 */
export function duckToDeltaType(duck: string): DeltaType {
  const d = duck.trim();
  const upper = d.toUpperCase();
  const simple: Record<string, PrimitiveTypeName> = {
    VARCHAR: 'string',
    BIGINT: 'long',
    INTEGER: 'integer',
    SMALLINT: 'short',
    TINYINT: 'byte',
    FLOAT: 'float',
    DOUBLE: 'double',
    BOOLEAN: 'boolean',
    BLOB: 'binary',
    DATE: 'date',
    'TIMESTAMP WITH TIME ZONE': 'timestamp',
    TIMESTAMPTZ: 'timestamp',
    TIMESTAMP: 'timestamp_ntz',
    TIMESTAMP_NS: 'timestamp_ntz',
    TIMESTAMP_MS: 'timestamp_ntz',
    TIMESTAMP_S: 'timestamp_ntz',
    // Unsigned integers widen to the next signed type: Delta has no unsigned types.
    UTINYINT: 'short',
    USMALLINT: 'integer',
    UINTEGER: 'long',
  };
  const prim = simple[upper];
  if (prim) return prim;
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(upper);
  if (dec) return `decimal(${Number(dec[1])},${Number(dec[2])})`;
  if (upper.endsWith('[]')) {
    return { type: 'array', elementType: duckToDeltaType(d.slice(0, -2)), containsNull: true };
  }
  if (upper.startsWith('STRUCT(') && upper.endsWith(')')) {
    const fields = splitTopLevel(d.slice(7, -1)).map((part) => {
      const { name, rest } = splitFieldName(part);
      return { name, type: duckToDeltaType(rest), nullable: true, metadata: {} };
    });
    return { type: 'struct', fields };
  }
  if (upper.startsWith('MAP(') && upper.endsWith(')')) {
    const [k, v] = splitTopLevel(d.slice(4, -1));
    if (!k || !v) throw new SchemaError(`cannot map DuckDB type '${duck}' to a Delta type`);
    return { type: 'map', keyType: duckToDeltaType(k), valueType: duckToDeltaType(v), valueContainsNull: true };
  }
  throw new SchemaError(`cannot map DuckDB type '${duck}' to a Delta type`);
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inQuote = false;
  let cur = '';
  for (const ch of s) {
    if (ch === '"') inQuote = !inQuote;
    if (!inQuote && ch === '(') depth++;
    if (!inQuote && ch === ')') depth--;
    if (!inQuote && depth === 0 && ch === ',') {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

function splitFieldName(part: string): { name: string; rest: string } {
  if (part.startsWith('"')) {
    let i = 1;
    let name = '';
    while (i < part.length) {
      if (part[i] === '"' && part[i + 1] === '"') {
        name += '"';
        i += 2;
      } else if (part[i] === '"') break;
      else name += part[i++];
    }
    return { name, rest: part.slice(i + 1).trim() };
  }
  const sp = part.indexOf(' ');
  return { name: part.slice(0, sp), rest: part.slice(sp + 1).trim() };
}

/** Parses and checks `metaData.schemaString`. */
export function parseSchemaString(schemaString: string): StructType {
  let parsed: unknown;
  try {
    parsed = JSON.parse(schemaString);
  } catch (e) {
    throw new SchemaError(`schemaString is not valid JSON: ${(e as Error).message}`);
  }
  checkType(parsed, 'schema');
  if (typeof parsed !== 'object' || (parsed as StructType).type !== 'struct') {
    throw new SchemaError('schemaString must be a struct type');
  }
  return parsed as StructType;
}

/** The column a `checkType` position names, without the schema root: `payload`, `meta.tags[]`. */
const columnAt = (where: string): string => where.replace(/^schema\.?/, '');

/**
 * A `variant` column (PROTOCOL.md "Variant Data Type": the type `"variant"`, or `{"type": "variant"}` as an array's
 * element or a map's value) holds binary-encoded values this engine does not decode: the table is refused, naming
 * the column, rather than read without it.
 */
function refuseVariant(where: string): never {
  throw new UnsupportedFeatureError(
    `column '${columnAt(where)}' is of type variant (table feature variantType), which this engine does not read; it refuses the table rather than misread it`,
  );
}

function checkType(t: unknown, where: string): void {
  if (t === 'variant') refuseVariant(where);
  if (typeof t === 'string') {
    if (!(t in PRIMITIVE_TO_DUCK) && !DECIMAL_RE.test(t)) throw new SchemaError(`${where}: unsupported type '${t}'`);
    return;
  }
  if (!t || typeof t !== 'object') throw new SchemaError(`${where}: type must be a string or an object`);
  const o = t as Record<string, unknown>;
  if (o.type === 'variant') refuseVariant(where);
  if (o.type === 'struct') {
    if (!Array.isArray(o.fields)) throw new SchemaError(`${where}: struct without fields`);
    for (const f of o.fields as Record<string, unknown>[]) {
      if (typeof f.name !== 'string') throw new SchemaError(`${where}: field without a name`);
      if (typeof f.nullable !== 'boolean') throw new SchemaError(`${where}.${f.name}: nullable must be a boolean`);
      checkType(f.type, `${where}.${f.name}`);
    }
  } else if (o.type === 'array') checkType(o.elementType, `${where}[]`);
  else if (o.type === 'map') {
    checkType(o.keyType, `${where}{key}`);
    checkType(o.valueType, `${where}{value}`);
  } else throw new SchemaError(`${where}: unknown complex type '${String(o.type)}'`);
}

export function schemaToString(schema: StructType): string {
  return JSON.stringify(schema);
}

/** Whether any field, at any depth, has this primitive type. */
export function schemaUses(schema: DeltaType, name: PrimitiveTypeName): boolean {
  if (typeof schema === 'string') return schema === name;
  switch (schema.type) {
    case 'struct':
      return schema.fields.some((f) => schemaUses(f.type, name));
    case 'array':
      return schemaUses(schema.elementType, name);
    case 'map':
      return schemaUses(schema.keyType, name) || schemaUses(schema.valueType, name);
  }
}

export function field(name: string, type: DeltaType, nullable = true): StructField {
  return { name, type, nullable, metadata: {} };
}
