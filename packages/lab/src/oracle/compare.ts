/**
 * The raced table against a serial result, as multisets of rows in DuckDB. Files both final snapshots
 * share (same path, and for Delta the same deletion vector: the same bytes) hold the same rows on both
 * sides, so only the files that are not shared are read: the rest cancels out.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { type Add, type DeltaTable, renderSql, withConnection } from '@racelab/engine';
import type { VerdictExample } from '../results/types';

export interface RowDiff {
  /** Extra copies of rows the serial result also has. */
  duplicated: number;
  /** Copies of serial rows the raced table lacks. */
  missing: number;
  /** Rows the serial result has none of. */
  extra: number;
  examples: VerdictExample[];
}

const NO_DIFF: RowDiff = { duplicated: 0, missing: 0, extra: 0, examples: [] };
const EXAMPLES_PER_KIND = 5;

/** Each side's files that the other side does not have, files being the same when their keys are. */
export function unshared<T>(a: readonly T[], b: readonly T[], key: (f: T) => string): [T[], T[]] {
  const keysA = new Set(a.map(key));
  const keysB = new Set(b.map(key));
  return [a.filter((f) => !keysB.has(key(f))), b.filter((f) => !keysA.has(key(f)))];
}

const deltaFileKey = (f: Add) => `${f.path}\u0000${JSON.stringify(f.deletionVector ?? null)}`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A side of a comparison: SQL for some files' rows; `files` counts them (none: no rows at all). */
export interface RowSource {
  files: number;
  relation: (conn: DuckDBConnection) => Promise<string>;
  /**
   * Names these rows for a FiguresCache: sources with equal keys hold the same rows. Files are never rewritten,
   * so the files (with their deletion vectors) of one table and the filter on them make a key.
   */
  key: string;
}

/**
 * A side's figures (row count, hash sums) by its sources' keys: kept with a serial result, a later comparison with
 * it (another run's raced table, another predicate) reads only the other side; kept for a verdict's raced table,
 * each order tried reads only its serial side.
 */
export type FiguresCache = Map<string, string>;

/** The caches a comparison may take each side's figures from (none: both sides read). */
export interface SideCaches {
  raced?: FiguresCache;
  serial?: FiguresCache;
}

/** A side's figure from `cache`, else computed (and kept there). */
async function figure(
  cache: FiguresCache | undefined,
  side: RowSource[],
  what: string,
  compute: () => Promise<string>,
): Promise<string> {
  if (!cache) return compute();
  const key = JSON.stringify([what, side.map((s) => s.key)]);
  const known = cache.get(key);
  if (known !== undefined) return known;
  const value = await compute();
  cache.set(key, value);
  return value;
}

/** Some of a Delta table's files, optionally only the rows matching a predicate (parsed by the engine). */
export function deltaRows(table: DeltaTable, files: readonly Add[], predicate?: string): RowSource {
  return {
    files: files.length,
    key: JSON.stringify([table.location, table.version, predicate ?? null, files.map(deltaFileKey)]),
    relation: async (conn) => {
      const rel = await table.filesRelation(conn, files);
      return predicate === undefined
        ? rel
        : `SELECT * FROM (${rel}) WHERE ${renderSql(table.parsePredicate(predicate))}`;
    },
  };
}

/**
 * Parquet files by path (an Iceberg snapshot's data files, columns by name), optionally only the rows
 * matching `where`, the lab's own SQL; `schemaFile` lends its columns to a side with no files.
 */
export function parquetRows(paths: readonly string[], schemaFile: string, where?: string): RowSource {
  return {
    files: paths.length,
    key: JSON.stringify([paths, schemaFile, where ?? null]),
    relation: async () => {
      const rel =
        paths.length > 0
          ? `SELECT * FROM read_parquet([${paths.map(literal).join(', ')}])`
          : `SELECT * FROM read_parquet(${literal(schemaFile)}) LIMIT 0`;
      return where === undefined ? rel : `SELECT * FROM (${rel}) WHERE ${where}`;
    },
  };
}

/** How many rows a source holds. */
export async function countRows(source: RowSource): Promise<number> {
  if (source.files === 0) return 0;
  return withConnection(async (conn) => {
    const r = await conn.runAndReadAll(`SELECT count(*) FROM (${await source.relation(conn)})`);
    return Number(r.getRows()[0]?.[0] ?? 0);
  });
}

/** A side made of several sources: their rows together. */
async function sideRelation(conn: DuckDBConnection, side: RowSource[]): Promise<string> {
  const parts = await Promise.all(side.map((s) => s.relation(conn)));
  return parts.map((p) => `SELECT * FROM (${p})`).join(' UNION ALL BY NAME ');
}

/** A query's or a table's columns: name and type. */
async function columnsOf(conn: DuckDBConnection, described: string): Promise<[string, string][]> {
  return (await conn.runAndReadAll(`DESCRIBE ${described}`)).getRows() as [string, string][];
}

const countOf = async (conn: DuckDBConnection, relation: string) =>
  Number((await conn.runAndReadAll(`SELECT count(*) FROM (${relation})`)).getRows()[0]?.[0] ?? 0);

/**
 * Whether two sides with the same row count hold the same multiset of rows, by one scan of each: two sums
 * of 64-bit row hashes (DuckDB's hash() over every column, the second salted), summed as HUGEINT so nothing
 * wraps. Equal multisets always give equal sums. Different ones give equal sums only if, over the rows that
 * differ, both signed sums of hashes cancel: for hashes that behave as random functions about 2^-64 each,
 * 2^-128 for both. The two hashes share DuckDB's per-value hashes, which are bijective on fixed-width values
 * (integers, floats, timestamps), so two differing rows also collide in both only through two strings with
 * the same 64-bit hash: at most n²/2^65 among n rows.
 */
async function sameHashSums(conn: DuckDBConnection, sides: OpenSides, caches: SideCaches): Promise<boolean> {
  // By name, in one order for both sides: hash() depends on the order of its arguments.
  const cols = (await columnsOf(conn, `SELECT * FROM (${sides.r})`)).map(([name]) => quoted(name)).join(', ');
  const sums = async (rel: string) =>
    String(
      (
        await conn.runAndReadAll(
          `SELECT sum(hash(${cols})::HUGEINT)::VARCHAR, sum(hash('racelab-oracle', ${cols})::HUGEINT)::VARCHAR FROM (${rel})`,
        )
      )
        .getRows()[0]
        ?.join(' '),
    );
  const racedSums = await figure(caches.raced, sides.raced, `sums ${cols}`, () => sums(sides.r));
  return racedSums === (await figure(caches.serial, sides.serial, `sums ${cols}`, () => sums(sides.s)));
}

/** A few rows of each kind, `from` a table or a parenthesised query; timestamps and dates as ISO text. */
async function examplesOf(
  conn: DuckDBConnection,
  from: string,
  kinds: { kind: VerdictExample['kind']; where: string }[],
): Promise<VerdictExample[]> {
  const cols = (await columnsOf(conn, `SELECT * FROM ${from}`))
    .filter(([name]) => name !== '__raced' && name !== '__serial')
    .map(([name, type]) => {
      const col = quoted(name);
      if (type.startsWith('TIMESTAMP')) return `strftime(${col}, '%Y-%m-%dT%H:%M:%S.%f') AS ${col}`;
      if (type === 'DATE') return `strftime(${col}, '%Y-%m-%d') AS ${col}`;
      return col;
    })
    .join(', ');
  // LIMIT per kind, so DuckDB keeps the first few rows (a top-N, one pass) rather than numbering them all. The first
  // by every column: the same examples whichever thread reads which file first, so a verdict is reproducible.
  const parts = kinds.map(
    ({ kind, where }) =>
      `(SELECT '${kind}' AS __kind, ${cols} FROM ${from} WHERE ${where} ORDER BY ALL LIMIT ${EXAMPLES_PER_KIND})`,
  );
  const picked = await conn.runAndReadAll(`SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY ALL`);
  return picked.getRowObjectsJson().map(({ __kind, ...row }) => ({ kind: __kind as VerdictExample['kind'], row }));
}

interface OpenSides {
  r: string;
  s: string;
  racedRows: number;
  serialRows: number;
  /** Each side's sources, for its cached figures. */
  raced: RowSource[];
  serial: RowSource[];
}

/** Both sides as relations on one connection, with their row counts (Parquet metadata mostly). */
async function openSides(
  conn: DuckDBConnection,
  raced: RowSource[],
  serial: RowSource[],
  caches: SideCaches,
): Promise<OpenSides> {
  const [r, s] = [await sideRelation(conn, raced), await sideRelation(conn, serial)];
  const rowsOf = async (cache: FiguresCache | undefined, side: RowSource[], rel: string) =>
    Number(await figure(cache, side, 'count', async () => String(await countOf(conn, rel))));
  return {
    r,
    s,
    racedRows: await rowsOf(caches.raced, raced, r),
    serialRows: await rowsOf(caches.serial, serial, s),
    raced,
    serial,
  };
}

const noFiles = (sides: RowSource[]) => sides.every((s) => s.files === 0);

/**
 * Whether two sides hold the same multiset of rows, by row counts and then hash sums: never a GROUP BY.
 * The oracle asks this of every order it tries; only a run no order explains needs the counts that
 * `diffRows` gives.
 */
export async function sameRowsIn(raced: RowSource[], serial: RowSource[], caches: SideCaches = {}): Promise<boolean> {
  if (noFiles([...raced, ...serial])) return true;
  return withConnection(async (conn) => {
    const sides = await openSides(conn, raced, serial, caches);
    return sides.racedRows === sides.serialRows && (sides.racedRows === 0 || (await sameHashSums(conn, sides, caches)));
  });
}

/**
 * Cheap answers first: a side with no rows makes every row of the other extra (or missing); equal counts and
 * hash sums mean equal multisets (the common case, one scan per side). Otherwise counts per distinct row on
 * each side (GROUP BY over every column, NULLs grouping together), kept only where the counts differ; then
 * the excess, the deficit and the rows one side lacks, with a few examples.
 */
export async function diffRows(raced: RowSource[], serial: RowSource[], caches: SideCaches = {}): Promise<RowDiff> {
  if (noFiles([...raced, ...serial])) return NO_DIFF;
  return withConnection(async (conn) => {
    const sides = await openSides(conn, raced, serial, caches);
    const { r, s, racedRows, serialRows } = sides;
    if (racedRows === 0 || serialRows === 0) {
      if (racedRows === serialRows) return NO_DIFF;
      const kind = serialRows === 0 ? 'extra' : 'missing';
      const examples = await examplesOf(conn, `(${serialRows === 0 ? r : s})`, [{ kind, where: 'true' }]);
      return { ...NO_DIFF, [kind]: racedRows + serialRows, examples };
    }
    if (racedRows === serialRows && (await sameHashSums(conn, sides, caches))) return NO_DIFF;
    await conn.run(
      `CREATE TEMP TABLE __diff AS
       SELECT * EXCLUDE (__side), count(*) FILTER (WHERE __side = 'r') AS __raced, count(*) FILTER (WHERE __side = 's') AS __serial
       FROM (SELECT *, 'r' AS __side FROM (${r}) UNION ALL BY NAME SELECT *, 's' AS __side FROM (${s}))
       GROUP BY ALL HAVING __raced <> __serial`,
    );
    try {
      const kinds: { kind: VerdictExample['kind']; where: string }[] = [
        { kind: 'duplicated', where: '__serial > 0 AND __raced > __serial' },
        { kind: 'missing', where: '__raced < __serial' },
        { kind: 'extra', where: '__serial = 0' },
      ];
      const totals = (
        await conn.runAndReadAll(
          `SELECT ${kinds.map(({ where }) => `coalesce(sum(abs(__raced - __serial)) FILTER (WHERE ${where}), 0)`).join(', ')} FROM __diff`,
        )
      ).getRows()[0] as bigint[];
      const [duplicated, missing, extra] = totals.map(Number) as [number, number, number];
      return { duplicated, missing, extra, examples: await examplesOf(conn, '__diff', kinds) };
    } finally {
      await conn.run('DROP TABLE __diff');
    }
  });
}

/** Each Delta table's files the other lacks, as row sources (only the rows matching `predicate` when given). */
function deltaSides(raced: DeltaTable, serial: DeltaTable, predicate?: string): [RowSource[], RowSource[]] {
  const [onlyRaced, onlySerial] = unshared(raced.activeFiles(), serial.activeFiles(), deltaFileKey);
  return [[deltaRows(raced, onlyRaced, predicate)], [deltaRows(serial, onlySerial, predicate)]];
}

/** Two Delta tables' rows compared, reading only the files they do not share; `caches` keep their figures. */
export const diffTables = (
  raced: DeltaTable,
  serial: DeltaTable,
  predicate?: string,
  caches: SideCaches = {},
): Promise<RowDiff> => diffRows(...deltaSides(raced, serial, predicate), caches);

/** Whether two Delta tables hold the same rows, reading only the files they do not share (`caches`: as diffTables). */
export const sameTables = (
  raced: DeltaTable,
  serial: DeltaTable,
  predicate?: string,
  caches: SideCaches = {},
): Promise<boolean> => sameRowsIn(...deltaSides(raced, serial, predicate), caches);
