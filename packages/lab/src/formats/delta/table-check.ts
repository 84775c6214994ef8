/**
 * What the table holds after a run: rows, files on disk versus files the log names (the losers' zombies
 * are the difference), and what killed writers left beside the table (staging files, log files under a
 * temporary name), for any table; for the lab's tables also distinct trip ids, trips per lab day and every
 * January tip against its original by trip_id. One connection serves every query and the January join is made
 * once per set of files read; files a previous check of this process read (a base table's, hard-linked into each
 * run's copy) are not read again, their figures added to those of the files the run's writers made.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Add, DeltaTable, fromLogPath, isS3Url, withConnection } from '@racelab/engine';
import { LAB_DAYS } from '../../data/lab-days';
import { type Conn, sqlString } from '../../data/sql';
import type { TableCheck } from '../../results/types';
import { countObjects } from '../../tables/table-store';

const FIRST_FEBRUARY_ID = 10_000_000;

/** What the lab's figures are made of, for a set of data files (their live rows, as the log names them). */
interface Part {
  rows: number;
  distinctIds: number;
  minId: number | null;
  maxId: number | null;
  days: Record<string, number>;
  /** January trips by vendor: how many, the sum of their tip changes, how many changed. */
  tips: Record<string, { trips: number; delta: number; changed: number }>;
  /** The distinct changed tip deltas (rounded to 6 places), the smallest 10. */
  deltaValues: number[];
}

/**
 * Figures of file sets already checked, with the identities of their files. A run's copy hard-links the base
 * table's Parquet files, which are never written again (a change writes new files), so the same inode, size and
 * modification time mean the same rows: the base table is scanned and joined with January once per lab process,
 * and a later run whose files include those scans only the files its writers added. A file's identity also
 * holds the add's deletion vector and partition values (they decide its live rows), the table's schema and the
 * January file's identity.
 */
const seen: { files: Set<string>; part: Part }[] = [];
const SEEN_LIMIT = 64;

/** A file's identity (not its link count or ctime, which change as copies come and go), and whether it is shared. */
async function identity(path: string): Promise<{ id: string; linked: boolean } | null> {
  const st = await stat(path, { bigint: true }).catch(() => null);
  return st ? { id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`, linked: st.nlink > 1n } : null;
}

/**
 * Ids within a range this wide are counted distinct with a bitmap (one bit per possible id, 16 MB at most per
 * thread) instead of a hash set: over a rewritten table's 3.5 million ids it takes a third of the time.
 */
const BITMAP_RANGE = 2 ** 27;

/** Distinct non-null trip ids of `rel`, whose ids lie in [min, max] (both null when it has none). */
export async function distinctIds(c: Conn, rel: string, min: number | null, max: number | null): Promise<number> {
  if (min === null || max === null) return 0;
  const count =
    max - min < BITMAP_RANGE ? `bit_count(bitstring_agg(trip_id, ${min}, ${max}))` : 'count(DISTINCT trip_id)';
  const [[n] = []] = (await c.runAndReadAll(`SELECT ${count} FROM (${rel})`)).getRows() as unknown[][];
  return Number(n ?? 0);
}

/** The figures of `files` (the table's adds): one scan for counts and days, one for distinct ids, one join with January. */
async function partOf(t: DeltaTable, files: Add[], januaryFile: string, c: Conn): Promise<Part> {
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows() as unknown[][];
  const rel = await t.filesRelation(c, files);
  const day = 'CAST(tpep_pickup_datetime AS DATE)';
  const [[n, lo, hi, ...perDay] = []] = await rows(
    `SELECT count(*), min(trip_id), max(trip_id), ${LAB_DAYS.map((d) => `count(*) FILTER (WHERE ${day} = DATE '${d}')`).join(', ')}
     FROM (${rel})`,
  );
  const minId = lo === null || lo === undefined ? null : Number(lo);
  const maxId = hi === null || hi === undefined ? null : Number(hi);
  const part: Part = {
    rows: Number(n ?? 0),
    distinctIds: await distinctIds(c, rel, minId, maxId),
    minId,
    maxId,
    // Only the days the files have trips on, as a GROUP BY would list them.
    days: Object.fromEntries(LAB_DAYS.flatMap((d, i) => (Number(perDay[i] ?? 0) > 0 ? [[d, Number(perDay[i])]] : []))),
    tips: {},
    deltaValues: [],
  };
  // January trips only (February rows have no original tip): files whose ids all lie above them are not joined.
  if (minId === null || minId >= FIRST_FEBRUARY_ID) return part;
  // One join, aggregated as it streams: per vendor the 10 smallest distinct changed deltas, whose union holds the
  // table's 10 smallest.
  const tips = await rows(
    `SELECT vendor, count(*), sum(delta), count(*) FILTER (WHERE changed),
       min(DISTINCT round(delta, 6), 10) FILTER (WHERE changed)
     FROM (SELECT o."VendorID" AS vendor, t.tip_amount - o.tip_amount AS delta,
             t.tip_amount IS DISTINCT FROM o.tip_amount AS changed
           FROM (${rel}) t JOIN read_parquet(${sqlString(januaryFile)}) o USING (trip_id)
           WHERE t.trip_id < ${FIRST_FEBRUARY_ID})
     GROUP BY 1`,
  );
  const values = new Set<number>();
  for (const [vendor, k, delta, changed, smallest] of tips) {
    part.tips[String(vendor)] = { trips: Number(k), delta: Number(delta), changed: Number(changed) };
    for (const v of (smallest as { items: unknown[] } | null)?.items ?? []) values.add(Number(v));
  }
  part.deltaValues = [...values].sort((x, y) => x - y).slice(0, 10);
  return part;
}

/**
 * The table's files in parts: the largest set checked before (if any); of the rest, the files hard-linked from
 * elsewhere (a copy's files, shared with its source, so worth remembering) and the files only this table has
 * (its writers' new files), each read now.
 */
async function partsOf(t: DeltaTable, dir: string, januaryFile: string, c: Conn): Promise<Part[]> {
  const jan = (await identity(januaryFile))?.id ?? null;
  const local = !isS3Url(dir) && jan !== null;
  const keyed: { add: Add; key: string | null; linked: boolean }[] = [];
  for (const add of t.activeFiles()) {
    const file = local ? await identity(join(dir, fromLogPath(add.path))) : null;
    const key = file
      ? JSON.stringify([
          file.id,
          jan,
          januaryFile,
          t.metadata.schemaString,
          add.deletionVector ?? null,
          add.partitionValues,
        ])
      : null;
    keyed.push({ add, key, linked: file?.linked ?? false });
  }
  const keys = new Set(keyed.flatMap((k) => (k.key ? [k.key] : [])));
  const known = seen
    .filter((s) => [...s.files].every((f) => keys.has(f)))
    .sort((a, b) => b.files.size - a.files.size)[0];
  const rest = keyed.filter((k) => !k.key || !known?.files.has(k.key));
  const linked = rest.filter((k) => k.key && k.linked);
  const own = rest.filter((k) => !(k.key && k.linked));
  const parts = known ? [known.part] : [];
  if (linked.length > 0) {
    const part = await partOf(
      t,
      linked.map((k) => k.add),
      januaryFile,
      c,
    );
    if (seen.length >= SEEN_LIMIT) seen.shift();
    seen.push({ files: new Set(linked.map((k) => k.key as string)), part });
    parts.push(part);
  }
  if (own.length > 0 || parts.length === 0)
    parts.push(
      await partOf(
        t,
        own.map((k) => k.add),
        januaryFile,
        c,
      ),
    );
  return parts;
}

/** The lab-only figures: distinct trip ids, trips per lab day, tips against January's (lab tables only). */
async function labFigures(t: DeltaTable, dir: string, januaryFile: string, c: Conn) {
  const parts = await partsOf(t, dir, januaryFile, c);
  const days: Record<string, number> = {};
  const tips = new Map<string, { trips: number; delta: number; changed: number }>();
  const values = new Set<number>();
  for (const p of parts) {
    for (const [d, n] of Object.entries(p.days)) days[d] = (days[d] ?? 0) + n;
    for (const [v, x] of Object.entries(p.tips)) {
      const sum = tips.get(v) ?? { trips: 0, delta: 0, changed: 0 };
      tips.set(v, { trips: sum.trips + x.trips, delta: sum.delta + x.delta, changed: sum.changed + x.changed });
    }
    for (const d of p.deltaValues) values.add(d);
  }
  // Parts whose id ranges overlap may share ids: then they are counted together, over the whole table.
  const ranged = parts.filter((p) => p.minId !== null && p.maxId !== null) as (Part & {
    minId: number;
    maxId: number;
  })[];
  const apart = ranged.every((p, i) => ranged.every((q, j) => j <= i || p.maxId < q.minId || q.maxId < p.minId));
  const distinctTripIds = apart
    ? parts.reduce((n, p) => n + p.distinctIds, 0)
    : await distinctIds(
        c,
        await t.relation(c),
        Math.min(...ranged.map((p) => p.minId)),
        Math.max(...ranged.map((p) => p.maxId)),
      );
  // Vendors in SQL's order (ORDER BY vendor: numbers ascending, a missing vendor last).
  const vendors = [...tips.keys()].sort((x, y) => (x === 'null' ? 1 : y === 'null' ? -1 : Number(x) - Number(y)));
  const byVendor = (value: (x: { trips: number; delta: number; changed: number }) => number) =>
    Object.fromEntries(
      vendors.map((v) => [v, value(tips.get(v) as { trips: number; delta: number; changed: number })]),
    );
  return {
    rows: parts.reduce((n, p) => n + p.rows, 0),
    distinctTripIds,
    tripsOnDay: days,
    tipDeltaByVendor: byVendor((x) => Math.round(x.delta * 1e6) / 1e6),
    tipChangedByVendor: byVendor((x) => x.changed),
    tipDeltaValues: [...values].sort((x, y) => x - y).slice(0, 10),
    tripsByVendor: byVendor((x) => x.trips),
  };
}

/**
 * Any table: rows, version, data files on disk against files in the log, and what killed writers left. With
 * `lab` (a lab base table's copy, and the January file it was built from), the lesson's figures too; for any
 * other table they are absent (distinctTripIds null), as the results contract allows.
 */
export async function checkTable(dir: string, lab?: { januaryFile: string }): Promise<TableCheck> {
  const t = await DeltaTable.open(dir);
  const checks = await withConnection(async (c) => {
    if (lab) {
      const { rows, ...figures } = await labFigures(t, dir, lab.januaryFile, c);
      return { rows, lab: figures };
    }
    const rel = await t.relation(c);
    const [total] = (await c.runAndReadAll(`SELECT count(*) FROM (${rel})`)).getRows() as unknown[][];
    return { rows: Number(total?.[0] ?? 0), lab: null };
  });
  const objects = await countObjects(dir);
  return {
    version: t.version,
    rows: checks.rows,
    ...(checks.lab ?? { distinctTripIds: null }),
    dataFilesOnDisk: objects.dataFiles,
    dataFilesInLog: t.activeFiles().length,
    stagingFilesOnDisk: objects.stagingFiles,
    tempLogFilesOnDisk: objects.tempLogFiles,
  };
}
