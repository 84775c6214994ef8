/**
 * Keys present more than once in a snapshot, and the commits that added their rows: the damage two check-then-append
 * jobs leave (each saw no row for the key, both appended). DuckDB groups the snapshot's rows by the key (deletion
 * vectors and column mapping as the engine's reader applies them) and keeps only keys counted twice or more, so memory
 * follows the duplicates, not the table; the most repeated keys are listed up to a bound, the rest counted. Each
 * listed key's rows are traced to their files, and each file to the commit that first added it, walking the log back
 * from the snapshot only until every such file is found.
 */
import { type Action, type DeltaTable, fromLogPath, resolveColumn, withConnection } from '@racelab/engine';
import { type Conn, sqlIdent } from '../../data/sql';
import { duplicateFindings } from './findings';
import type {
  DuplicateKey,
  DuplicateKeys,
  DuplicateSource,
  HistoryCommit,
  HistoryFinding,
  HistoryWriter,
} from './types';

export const DEFAULT_DUPLICATES_LISTED = 100;

export interface DuplicateOptions {
  /** The commits read, for each adding commit's writer and concurrency. */
  commits: HistoryCommit[];
  /** A commit's actions, read again from the log (which commit added a file). */
  readActions(version: number): Promise<Action[]>;
  /** Commits walked back so far, of those at most walked: the trace from files to the commits that added them. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Duplicated keys listed at most (the count covers them all); default DEFAULT_DUPLICATES_LISTED. */
  maxKeys?: number;
}

export interface DuplicateResult {
  duplicates: DuplicateKeys;
  findings: HistoryFinding[];
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
  options: DuplicateOptions,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const settled = new Set<string>();
  for (const [i, version] of versions.entries()) {
    if (settled.size === files.size) break;
    options.signal?.throwIfAborted();
    for (const a of await options.readActions(version)) {
      if (!('add' in a)) continue;
      const key = fromLogPath(a.add.path);
      if (!files.has(key) || settled.has(key)) continue;
      found.set(key, version);
      if (!a.add.deletionVector) settled.add(key);
    }
    options.onProgress?.(i + 1, versions.length);
  }
  return found;
}

const NO_WRITER: HistoryWriter = { library: null, version: null, engineInfo: null, appId: null, userMetadata: null };

/** Whether `version` was concurrent with another of `versions`: one landed between the other's read and its commit. */
const concurrentWithin = (
  version: number,
  versions: readonly number[],
  byVersion: ReadonlyMap<number, HistoryCommit>,
) =>
  versions.some(
    (w) =>
      w !== version &&
      ((byVersion.get(version)?.concurrentWith.includes(w) ?? false) ||
        (byVersion.get(w)?.concurrentWith.includes(version) ?? false)),
  );

/**
 * Keys of `key`'s columns present more than once in `table` (opened at the version to search), each with the commits
 * that added its rows. Rows in files added before the oldest commit read count, but name no commit.
 */
export async function duplicateKeys(table: DeltaTable, key: string[], o: DuplicateOptions): Promise<DuplicateResult> {
  const limit = o.maxKeys ?? DEFAULT_DUPLICATES_LISTED;
  if (key.length === 0) throw new KeyColumnError('a key needs at least one column');
  const names = key.map((c) => {
    try {
      return resolveColumn(table.schema, c).name;
    } catch {
      throw new KeyColumnError(
        `key column '${c}' is not a column of the table at version ${table.version} (its columns: ${table.schema.fields.map((f) => f.name).join(', ')})`,
      );
    }
  });
  const { distinct, keys } = await withConnection(async (conn) => {
    const relation = await table.filesRelation(conn, table.activeFiles(), { withFile: true });
    return duplicatedRows(conn, relation, names, limit);
  });
  const files = new Set(keys.flatMap((k) => [...k.files.keys()]));
  const byVersion = new Map(o.commits.map((c) => [c.version, c]));
  const walk = o.commits
    .map((c) => c.version)
    .filter((v) => v <= table.version)
    .sort((a, b) => b - a);
  const added = await addedIn(files, walk, o);
  const listed: DuplicateKey[] = keys.map((k) => {
    const rowsBy = new Map<number, number>();
    for (const [file, rows] of k.files) {
      const v = added.get(file);
      if (v !== undefined) rowsBy.set(v, (rowsBy.get(v) ?? 0) + rows);
    }
    const versions = [...rowsBy.keys()].sort((a, b) => a - b);
    const addedBy = versions.map(
      (version): DuplicateSource => ({
        version,
        rows: rowsBy.get(version) ?? 0,
        writer: byVersion.get(version)?.writer ?? NO_WRITER,
        concurrent: concurrentWithin(version, versions, byVersion),
      }),
    );
    return { values: k.key, count: k.count, addedBy };
  });
  const duplicates: DuplicateKeys = {
    key: names,
    atVersion: table.version,
    distinct,
    keys: listed,
    truncated: distinct > listed.length,
  };
  return { duplicates, findings: duplicateFindings(duplicates, o.commits) };
}
