/**
 * Keys present more than once in a snapshot, and the commits that added their rows: the damage two check-then-append
 * jobs leave (each saw no row for the key, both appended). DuckDB groups the snapshot's rows by the key (deletion
 * vectors and column mapping as the engine's reader applies them) and keeps only keys counted twice or more, so memory
 * follows the duplicates, not the table; the most repeated keys are listed up to a bound, the rest counted. Each
 * listed key's rows are traced to their files, and each file to the commit that first added it, walking the log back
 * from the snapshot only until every such file is found.
 */
import { type Add, fromLogPath, resolveColumn, withConnection } from '@racelab/engine';
import { type Conn, sqlIdent } from '../../data/sql';
import type { LogAccess } from './log-access';
import type { DuplicateKey, DuplicateKeys, DuplicateSource, HistoryCommit } from './types';

export const DEFAULT_DUPLICATES_LISTED = 100;

export interface DuplicateOptions {
  /** The snapshot searched; default the newest commit given. */
  atVersion?: number;
  /** Keys listed at most (all are counted). */
  limit?: number;
  onProgress?: (step: string) => void;
  signal?: AbortSignal;
}

/** A key column the table does not have: bad input, named. */
export class KeyColumnError extends Error {
  override name = 'KeyColumnError';
}

interface KeyRows {
  key: Record<string, string | null>;
  count: number;
  /** Rows of the key in each file, by file key. */
  files: Map<string, number>;
}

const keyId = (key: Record<string, string | null>) => JSON.stringify(Object.values(key));

/** The listed duplicated keys with their rows per file, and how many keys are duplicated in all. */
async function duplicatedRows(
  conn: Conn,
  relation: string,
  columns: readonly string[],
  limit: number,
): Promise<{ distinct: number; keys: KeyRows[] }> {
  const cols = columns.map(sqlIdent);
  const asText = cols.map((c, i) => `CAST(${c} AS VARCHAR) AS k${i}`).join(', ');
  const ks = cols.map((_, i) => `k${i}`).join(', ');
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE __dup AS SELECT ${ks}, count(*) AS n FROM (SELECT ${asText} FROM (${relation})) GROUP BY ALL HAVING count(*) > 1`,
  );
  const distinct = Number((await conn.runAndReadAll('SELECT count(*) FROM __dup')).getColumns()[0]?.[0] ?? 0);
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE __listed AS SELECT * FROM __dup ORDER BY n DESC, ${ks} LIMIT ${Math.max(0, Math.floor(limit))}`,
  );
  const on = cols.map((_, i) => `t.k${i} IS NOT DISTINCT FROM l.k${i}`).join(' AND ');
  const reader = await conn.runAndReadAll(
    `SELECT ${cols.map((_, i) => `t.k${i}`).join(', ')}, t.__file, count(*) AS n
       FROM (SELECT ${asText}, __file FROM (${relation})) t SEMI JOIN __listed l ON ${on}
       GROUP BY ALL`,
  );
  const keys = new Map<string, KeyRows>();
  for (const row of reader.getRows()) {
    const values = row.slice(0, cols.length).map((v) => (v === null ? null : String(v)));
    const key = Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null]));
    const id = keyId(key);
    const entry = keys.get(id) ?? { key, count: 0, files: new Map<string, number>() };
    const rows = Number(row[cols.length + 1]);
    entry.count += rows;
    entry.files.set(String(row[cols.length]), rows);
    keys.set(id, entry);
  }
  await conn.run('DROP TABLE __listed');
  await conn.run('DROP TABLE __dup');
  const listed = [...keys.values()].sort((a, b) => b.count - a.count || (keyId(a.key) < keyId(b.key) ? -1 : 1));
  return { distinct, keys: listed };
}

/**
 * The version that first added each file key, walking the commits back from `atVersion`: an add of a path that
 * carries a deletion vector is a rewrite of an older add of the same path, so the walk goes on to the original.
 */
async function addedIn(
  files: ReadonlySet<string>,
  versions: readonly number[],
  log: LogAccess,
  options: DuplicateOptions,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const settled = new Set<string>();
  for (const version of versions) {
    if (settled.size === files.size) break;
    options.signal?.throwIfAborted();
    for (const a of await log.actionsOf(version)) {
      if (!('add' in a)) continue;
      const key = fromLogPath((a.add as Add).path);
      if (!files.has(key) || settled.has(key)) continue;
      found.set(key, version);
      if (!a.add.deletionVector) settled.add(key);
    }
  }
  return found;
}

/** Whether two of `versions` were concurrent: one in another's concurrentWith. */
function anyConcurrent(versions: readonly number[], byVersion: ReadonlyMap<number, HistoryCommit>): boolean {
  return versions.some((v) => byVersion.get(v)?.concurrentWith.some((w) => w !== v && versions.includes(w)) ?? false);
}

/** Keys of `columns` present more than once at `atVersion`, each with the commits that added its rows. */
export async function duplicateKeys(
  commits: readonly HistoryCommit[],
  log: LogAccess,
  columns: readonly string[],
  options: DuplicateOptions = {},
): Promise<DuplicateKeys> {
  const limit = options.limit ?? DEFAULT_DUPLICATES_LISTED;
  const atVersion = options.atVersion ?? Math.max(...commits.map((c) => c.version));
  if (!Number.isInteger(atVersion) || atVersion < 0) throw new KeyColumnError('no commit to search for duplicate keys');
  if (columns.length === 0) throw new KeyColumnError('a key needs at least one column');
  const table = await log.snapshotAt(atVersion);
  const names = columns.map((c) => {
    try {
      return resolveColumn(table.schema, c).name;
    } catch {
      throw new KeyColumnError(
        `key column '${c}' is not a column of the table at version ${atVersion} (columns: ${table.schema.fields.map((f) => f.name).join(', ')})`,
      );
    }
  });
  options.onProgress?.(`grouping ${table.activeFiles().length} files by ${names.join(', ')}`);
  const { distinct, keys } = await withConnection(async (conn) => {
    const relation = await table.filesRelation(conn, table.activeFiles(), { withFile: true });
    return duplicatedRows(conn, relation, names, limit);
  });
  const files = new Set(keys.flatMap((k) => [...k.files.keys()]));
  options.onProgress?.(`tracing ${files.size} files of ${keys.length} duplicated keys to their commits`);
  const byVersion = new Map(commits.map((c) => [c.version, c]));
  const walk = commits
    .map((c) => c.version)
    .filter((v) => v <= atVersion)
    .sort((a, b) => b - a);
  const added = await addedIn(files, walk, log, options);
  const listed: DuplicateKey[] = keys.map((k) => {
    const sources = new Map<number | null, number>();
    for (const [file, rows] of k.files) {
      const v = added.get(file) ?? null;
      sources.set(v, (sources.get(v) ?? 0) + rows);
    }
    const versions = [...sources.keys()].filter((v): v is number => v !== null).sort((a, b) => a - b);
    const addedBy: DuplicateKey['addedBy'] = versions.map((version): DuplicateSource => {
      const c = byVersion.get(version);
      return { version, rows: sources.get(version) ?? 0, operation: c?.operation ?? null, writer: c?.writer ?? null };
    });
    const before = sources.get(null);
    if (before !== undefined) addedBy.push({ version: null, rows: before, operation: null, writer: null });
    return { key: k.key, count: k.count, addedBy, concurrent: anyConcurrent(versions, byVersion) };
  });
  return { columns: names, atVersion, distinct, keys: listed, limit };
}
