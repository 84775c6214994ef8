/**
 * A point's table checked from its log after the race: versions 0..max contiguous; every acknowledged commit
 * (writer, seq, from commitInfo) in exactly one version, the one its writer was told; no failed commit present;
 * data files no version references (orphans); and the serial-replay verdict: the table's rows against the
 * starting rows with the committed changes applied in version order (computed: each sweep change is a known
 * function of its writer and the rows).
 */
import type { SweepOperation, SweepPoint } from '@racelab/contracts';
import { plural } from '@racelab/contracts';
import { DeltaTable, fromLogPath, LOG_DIR, leftoverKind, readCommit, storeFor, withConnection } from '@racelab/engine';
import type { SweepCommitRecord } from './job';
import { appendRow, type SweepRow, seedRows, updates } from './table';

const COMMIT_FILE = /^(\d{20})\.json$/;

interface LoggedCommit extends NamedCommit {
  operation: string | null;
  adds: string[];
}

/** Every commit file of the log (not the listing a reader uses: a checkpoint must not hide a gap before it). */
async function readLog(location: string): Promise<{ versions: number[]; commits: LoggedCommit[] }> {
  const store = storeFor(location);
  const versions = (await store.list(LOG_DIR))
    .map(({ key }) => COMMIT_FILE.exec(key.slice(LOG_DIR.length))?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const commits = await Promise.all(
    versions.map(async (version) => {
      const actions = await readCommit(store, version);
      const info = actions.find((a) => 'commitInfo' in a);
      const ci = info && 'commitInfo' in info ? info.commitInfo : {};
      return {
        version,
        writer: typeof ci.writer === 'string' ? ci.writer : null,
        seq: typeof ci.seq === 'number' ? ci.seq : null,
        operation: typeof ci.operation === 'string' ? ci.operation : null,
        adds: actions.flatMap((a) => ('add' in a ? [fromLogPath(a.add.path)] : [])),
      };
    }),
  );
  return { versions, commits };
}

const contiguous = (versions: readonly number[]) => versions.every((v, i) => v === i);

/** Data files under the table that no add of any version names: written by tries that lost, or left mid-commit. */
async function orphanFiles(location: string, commits: readonly LoggedCommit[]): Promise<number> {
  const referenced = new Set(commits.flatMap((c) => c.adds));
  const keys = (await storeFor(location).list('', { recursive: true })).map((o) => o.key);
  return keys
    .filter((k) => !k.startsWith(LOG_DIR) && leftoverKind(k) === null && k.endsWith('.parquet'))
    .filter((k) => !referenced.has(k)).length;
}

export const rowKey = (r: SweepRow) => `${r.writer}|${r.seq}|${r.part}|${r.value}`;

/** The writer index of a `w<i>` name; null for the seed or the compactor. */
export const writerIndex = (name: string | null) => (name && /^w\d+$/.test(name) ? Number(name.slice(1)) : null);

/**
 * The rows serial replay gives: the starting rows, then each committed change in version order. An append adds
 * its writer's row; an update adds 1 to `value` in the rows its predicate picks; OPTIMIZE changes no row.
 */
function replayedRows(op: SweepOperation, writers: number, commits: readonly LoggedCommit[]): SweepRow[] {
  const rows = updates(op) ? seedRows(writers) : [];
  for (const c of commits) {
    // The seed version and the compactor's commits (it has no writer index) change no row.
    const w = writerIndex(c.writer);
    if (c.version === 0 || w === null || c.seq === null) continue;
    if (op === 'append-row' || op === 'compaction') rows.push(appendRow(w, c.seq));
    else if (updates(op)) {
      for (const r of rows) {
        if (op === 'update-overlap' || r.part === w) r.value = Number(r.value) + 1;
      }
    }
  }
  return rows;
}

/** A table's rows as sorted keys (the tables of appends and updates are small: at most a few thousand rows). */
async function tableRowKeys(location: string): Promise<string[]> {
  const t = await DeltaTable.open(location);
  const rows = await t.query<SweepRow>((rel) => `SELECT writer, seq, part, value FROM (${rel})`);
  return rows.map(rowKey).sort();
}

/** The day file's fingerprint (rows, and a sum of row hashes), or the table's. */
async function fingerprint(location: string | { file: string }): Promise<{ rows: bigint; hash: bigint }> {
  const sql = (rel: string) =>
    `SELECT count(*)::HUGEINT AS n, coalesce(sum(hash(writer, seq, part, value))::HUGEINT, 0) AS h FROM (${rel})`;
  let rows: { n: bigint; h: bigint }[];
  if (typeof location === 'string') rows = await (await DeltaTable.open(location)).query(sql);
  else {
    rows = await withConnection(async (conn) => {
      const r = await conn.runAndReadAll(sql(`SELECT * FROM read_parquet('${location.file.replaceAll("'", "''")}')`));
      return r.getRowObjectsJS() as { n: bigint; h: bigint }[];
    });
  }
  const [row] = rows;
  return { rows: BigInt(row?.n ?? 0), hash: BigInt(row?.h ?? 0) };
}

async function verdictOf(
  location: string,
  op: SweepOperation,
  writers: number,
  commits: readonly LoggedCommit[],
  dayFile: string | undefined,
): Promise<Pick<SweepPoint['checks'], 'verdict' | 'verdictNote'>> {
  const landed = commits.filter((c) => c.version > 0 && writerIndex(c.writer) !== null).length;
  if (op === 'append-day') {
    if (!dayFile) throw new Error('append-day needs its day file to check the table');
    const day = await fingerprint({ file: dayFile });
    const table = await fingerprint(location);
    const serial = table.rows === day.rows * BigInt(landed) && table.hash === day.hash * BigInt(landed);
    return {
      verdict: serial ? 'serial' : 'not-serial',
      verdictNote: `the table's rows (${table.rows}, with their hash sum) are the day file's ${plural(Number(day.rows), 'row')} once per committed append (${landed})${serial ? '' : ': they are not'}`,
    };
  }
  const expected = replayedRows(op, writers, commits).map(rowKey).sort();
  const actual = await tableRowKeys(location);
  const missing = countMissing(expected, actual);
  const extra = countMissing(actual, expected);
  const serial = missing === 0 && extra === 0;
  const how = updates(op)
    ? `the seed rows with value + 1 applied for each of the ${landed} committed updates in version order`
    : `one row per committed append in the log (${landed})${op === 'compaction' ? '; OPTIMIZE changes no row' : ''}`;
  return {
    verdict: serial ? 'serial' : 'not-serial',
    verdictNote: `computed replay: ${how}, compared row by row with the table (${plural(actual.length, 'row')})${serial ? '' : `: ${plural(missing, 'expected row')} missing, ${plural(extra, 'row')} extra`}`,
  };
}

/** Entries of `a` (a sorted multiset) not matched in `b`. */
export function countMissing(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const k of b) left.set(k, (left.get(k) ?? 0) + 1);
  let missing = 0;
  for (const k of a) {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else missing++;
  }
  return missing;
}

export interface PointChecks {
  checks: SweepPoint['checks'];
  orphanFiles: number;
}

/** A commit as the table names it: its version, and the writer and seq its writer put in it. */
export interface NamedCommit {
  version: number;
  writer: string | null;
  seq: number | null;
}

/**
 * The records against the table's commits: every acknowledged commit in exactly one version, the one its writer
 * was told; no failed commit present.
 */
export function recordChecks(
  commits: readonly NamedCommit[],
  records: readonly SweepCommitRecord[],
): Pick<SweepPoint['checks'], 'exactlyOnce' | 'lost' | 'duplicated' | 'wrongVersion' | 'failedPresent'> {
  const where = new Map<string, number[]>();
  for (const c of commits) {
    if (c.writer === null || c.seq === null) continue;
    const key = `${c.writer}#${c.seq}`;
    where.set(key, [...(where.get(key) ?? []), c.version]);
  }
  let lost = 0;
  let duplicated = 0;
  let wrongVersion = 0;
  let failedPresent = 0;
  for (const r of records) {
    const found = where.get(`${r.writer}#${r.seq}`) ?? [];
    if (found.length > 1) duplicated++;
    if (r.acknowledged) {
      if (found.length === 0) lost++;
      else if (!found.includes(r.version as number)) wrongVersion++;
    } else if (found.length > 0) failedPresent++;
  }
  return {
    exactlyOnce: lost === 0 && duplicated === 0 && wrongVersion === 0 && failedPresent === 0,
    lost,
    duplicated,
    wrongVersion,
    failedPresent,
  };
}

export async function checkPoint(
  location: string,
  op: SweepOperation,
  writers: number,
  records: readonly SweepCommitRecord[],
  dayFile?: string,
): Promise<PointChecks> {
  const { versions, commits } = await readLog(location);
  return {
    checks: {
      versionsContiguous: contiguous(versions),
      ...recordChecks(commits, records),
      ...(await verdictOf(location, op, writers, commits, dayFile)),
    },
    orphanFiles: await orphanFiles(location, commits),
  };
}
