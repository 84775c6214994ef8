/**
 * Table metadata JSON: parse (ids as BigInt through kernel/iceberg/bigint-json.ts, never JSON.parse), validate against the
 * v2 spec's required fields, serialise in pyiceberg's key order, and name files `NNNNN-<uuid>.metadata.json`.
 */
import { randomUUID } from 'node:crypto';
import { JsonError, parseJson, stringifyJson } from '../../kernel/iceberg/bigint-json';
import { IcebergReadError, type IcebergSchema, type Snapshot, type TableMetadata } from '../../kernel/iceberg/types';
import { fileAt, readBytes } from './files';
import { joinLocation, type PathResolver } from './paths';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): boolean => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';

/**
 * Problems that make `m` invalid v2 table metadata (empty when valid). Checks the fields the spec
 * requires for v2 and the references between them (current schema, default spec and sort order,
 * current snapshot and refs must exist).
 */
export function validateTableMetadata(m: unknown): string[] {
  if (!isObj(m)) return ['metadata is not a JSON object'];
  const p: string[] = [];
  const need = (k: string, ok: (v: unknown) => boolean, what: string) => {
    if (!(k in m)) p.push(`missing required field ${k}`);
    else if (!ok(m[k])) p.push(`${k} must be ${what}`);
  };
  need('format-version', (v) => v === 2, '2');
  need('table-uuid', (v) => typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v), 'a uuid string');
  need('location', (v) => typeof v === 'string', 'a string');
  need('last-sequence-number', isInt, 'an integer');
  need('last-updated-ms', isInt, 'an integer');
  need('last-column-id', isInt, 'an integer');
  need('schemas', (v) => Array.isArray(v) && v.length > 0, 'a non-empty list');
  need('current-schema-id', isInt, 'an integer');
  need('partition-specs', (v) => Array.isArray(v) && v.length > 0, 'a non-empty list');
  need('default-spec-id', isInt, 'an integer');
  need('last-partition-id', isInt, 'an integer');
  need('sort-orders', (v) => Array.isArray(v) && v.length > 0, 'a non-empty list');
  need('default-sort-order-id', isInt, 'an integer');
  const ids = (list: unknown, key: string): unknown[] =>
    Array.isArray(list) ? list.map((x) => (isObj(x) ? x[key] : undefined)) : [];
  const schemaIds = ids(m.schemas, 'schema-id');
  if (Array.isArray(m.schemas)) {
    m.schemas.forEach((s, i) => {
      if (!isObj(s) || s.type !== 'struct' || !Array.isArray(s.fields)) p.push(`schemas[${i}] is not a struct schema`);
      else if (!isInt(s['schema-id'])) p.push(`schemas[${i}] has no schema-id`);
    });
    if (isInt(m['current-schema-id']) && !schemaIds.includes(m['current-schema-id'])) {
      p.push(`current-schema-id ${m['current-schema-id']} is not among the schemas`);
    }
  }
  if (
    isInt(m['default-spec-id']) &&
    Array.isArray(m['partition-specs']) &&
    !ids(m['partition-specs'], 'spec-id').includes(m['default-spec-id'])
  ) {
    p.push(`default-spec-id ${m['default-spec-id']} is not among the partition-specs`);
  }
  if (
    isInt(m['default-sort-order-id']) &&
    Array.isArray(m['sort-orders']) &&
    !ids(m['sort-orders'], 'order-id').includes(m['default-sort-order-id'])
  ) {
    p.push(`default-sort-order-id ${m['default-sort-order-id']} is not among the sort-orders`);
  }
  const snapIds = new Set<string>();
  if ('snapshots' in m) {
    if (!Array.isArray(m.snapshots)) p.push('snapshots must be a list');
    else
      m.snapshots.forEach((s, i) => {
        if (!isObj(s)) {
          p.push(`snapshots[${i}] is not an object`);
          return;
        }
        for (const k of ['snapshot-id', 'sequence-number', 'timestamp-ms'])
          if (!isInt(s[k])) p.push(`snapshots[${i}] has no ${k}`);
        if (typeof s['manifest-list'] !== 'string') p.push(`snapshots[${i}] has no manifest-list`);
        if (!isObj(s.summary) || typeof s.summary.operation !== 'string')
          p.push(`snapshots[${i}] has no summary.operation`);
        if (
          isInt(m['last-sequence-number']) &&
          isInt(s['sequence-number']) &&
          BigInt(s['sequence-number'] as number) > BigInt(m['last-sequence-number'] as number)
        ) {
          p.push(`snapshots[${i}] sequence-number is above last-sequence-number`);
        }
        snapIds.add(String(s['snapshot-id']));
      });
  }
  const current = m['current-snapshot-id'];
  if (current !== undefined && current !== null && String(current) !== '-1' && !snapIds.has(String(current))) {
    p.push(`current-snapshot-id ${String(current)} is not among the snapshots`);
  }
  if (isObj(m.refs)) {
    for (const [name, r] of Object.entries(m.refs)) {
      if (!isObj(r) || !isInt(r['snapshot-id']) || (r.type !== 'branch' && r.type !== 'tag'))
        p.push(`refs.${name} is malformed`);
      else if (!snapIds.has(String(r['snapshot-id'])))
        p.push(`refs.${name} points at unknown snapshot ${String(r['snapshot-id'])}`);
    }
  }
  return p;
}

const big = (v: unknown): bigint => BigInt(v as number | bigint);

/** Parsed and validated JSON → TableMetadata with BigInt snapshot ids and defaults for optional lists. */
export function parseTableMetadata(text: string, where: string): TableMetadata {
  let raw: unknown;
  try {
    raw = parseJson(text, where);
  } catch (e) {
    if (e instanceof JsonError) throw new IcebergReadError(`Corrupt metadata JSON: ${e.message}`);
    throw e;
  }
  const problems = validateTableMetadata(raw);
  if (problems.length > 0) throw new IcebergReadError(`Invalid table metadata in ${where}: ${problems.join('; ')}`);
  const m = raw as Record<string, unknown>;
  const snapshots = ((m.snapshots as Record<string, unknown>[] | undefined) ?? []).map((s) => {
    const out: Record<string, unknown> = { ...s, 'snapshot-id': big(s['snapshot-id']) };
    if (s['parent-snapshot-id'] !== undefined && s['parent-snapshot-id'] !== null)
      out['parent-snapshot-id'] = big(s['parent-snapshot-id']);
    else delete out['parent-snapshot-id'];
    return out as unknown as Snapshot;
  });
  const current = m['current-snapshot-id'];
  const currentId = current === undefined || current === null || String(current) === '-1' ? undefined : big(current);
  const refs: TableMetadata['refs'] = {};
  for (const [k, r] of Object.entries((m.refs as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    refs[k] = { ...r, 'snapshot-id': big(r['snapshot-id']), type: r.type as 'branch' | 'tag' };
  }
  // Spec: when refs is absent, main is implied by current-snapshot-id.
  if (m.refs === undefined && currentId !== undefined) refs.main = { 'snapshot-id': currentId, type: 'branch' };
  const out: Record<string, unknown> = {
    ...m,
    properties: (m.properties as Record<string, string> | undefined) ?? {},
    snapshots,
    'snapshot-log': ((m['snapshot-log'] as Record<string, unknown>[] | undefined) ?? []).map((e) => ({
      'snapshot-id': big(e['snapshot-id']),
      'timestamp-ms': Number(e['timestamp-ms']),
    })),
    'metadata-log': (m['metadata-log'] as TableMetadata['metadata-log'] | undefined) ?? [],
    refs,
  };
  if (currentId === undefined) delete out['current-snapshot-id'];
  else out['current-snapshot-id'] = currentId;
  return out as TableMetadata;
}

/** Reads and parses a metadata file; errors name the file. */
export async function readTableMetadata(location: string, resolvePath: PathResolver): Promise<TableMetadata> {
  const at = fileAt(location, resolvePath);
  const file = at.path;
  const bytes = await readBytes(
    at,
    () => new IcebergReadError(`Metadata file does not exist: ${file}`),
    (e) => new IcebergReadError(`Cannot read metadata file ${file}: ${e.message}`),
  );
  return parseTableMetadata(new TextDecoder().decode(bytes), `metadata file ${file}`);
}

/** pyiceberg's field order (metadata.py), with keys we do not know appended after. */
const KEY_ORDER = [
  'location',
  'table-uuid',
  'last-updated-ms',
  'last-column-id',
  'schemas',
  'current-schema-id',
  'partition-specs',
  'default-spec-id',
  'last-partition-id',
  'properties',
  'current-snapshot-id',
  'snapshots',
  'snapshot-log',
  'metadata-log',
  'sort-orders',
  'default-sort-order-id',
  'refs',
  'statistics',
  'partition-statistics',
  'format-version',
  'last-sequence-number',
];

export function serializeTableMetadata(m: TableMetadata): string {
  const out: Record<string, unknown> = {};
  for (const k of KEY_ORDER) if (m[k] !== undefined) out[k] = m[k];
  for (const [k, v] of Object.entries(m)) if (!(k in out) && v !== undefined) out[k] = v;
  return stringifyJson(out);
}

/** The version number in `NNNNN-<uuid>.metadata.json`, or -1 (pyiceberg `_parse_metadata_version`). */
export function metadataVersion(location: string): number {
  const m = /(\d+)-[^/]*\.metadata\.json$/.exec(location);
  return m ? Number(m[1]) : -1;
}

/** `{location}/metadata/{version:05d}-{uuid4}.metadata.json` (honours `write.metadata.path`). */
export function newMetadataLocation(m: TableMetadata, version: number): string {
  const dir = m.properties['write.metadata.path'] ?? joinLocation(m.location, 'metadata');
  return joinLocation(dir, `${String(version).padStart(5, '0')}-${randomUUID()}.metadata.json`);
}

/** A new table: unpartitioned, unsorted, no snapshot (pyiceberg `new_table_metadata`). */
export function newTableMetadata(opts: {
  location: string;
  schema: IcebergSchema;
  properties?: Record<string, string>;
  now?: number;
}): TableMetadata {
  const lastColumnId = opts.schema.fields.reduce((a, f) => Math.max(a, f.id), 0);
  return {
    location: opts.location,
    'table-uuid': randomUUID(),
    'last-updated-ms': opts.now ?? Date.now(),
    'last-column-id': lastColumnId,
    schemas: [{ ...opts.schema, 'schema-id': 0, 'identifier-field-ids': opts.schema['identifier-field-ids'] ?? [] }],
    'current-schema-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'default-spec-id': 0,
    // pyiceberg: PARTITION_FIELD_ID_START - 1 for an unpartitioned table.
    'last-partition-id': 999,
    properties: opts.properties ?? {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': 0,
    refs: {},
    statistics: [],
    'partition-statistics': [],
    'format-version': 2,
    'last-sequence-number': 0,
  };
}

export function currentSchema(m: TableMetadata): IcebergSchema {
  const s = m.schemas.find((x) => x['schema-id'] === m['current-schema-id']);
  if (!s) throw new IcebergReadError(`current-schema-id ${m['current-schema-id']} is not among the schemas`);
  return s;
}

export function currentSnapshot(m: TableMetadata): Snapshot | undefined {
  const id = m.refs.main?.['snapshot-id'] ?? m['current-snapshot-id'];
  return id === undefined ? undefined : m.snapshots.find((s) => s['snapshot-id'] === id);
}
