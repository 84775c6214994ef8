/**
 * The synthetic month: a deterministic stand-in for the NYC TLC yellow-taxi files of January and
 * February 2025 that reproduces every figure of docs/lab-cases.md exactly at scale 1, and round(n·S) at scale S.
 *
 * Formula. With S the scale, every count is n_S = round(n·S) (VendorID 7 at least 7, VendorID 6 at least 2,
 * a floor that never binds for S ≥ 0.01), N = v1 + v2 + v6 + v7 and R = round(400,000·S). Row i (0 ≤ i < N,
 * trip_id = i) lies in chunk k = ⌊i/R⌋ (9 chunks, the last one shorter). Everything is placed by index
 * arithmetic, so each count holds by construction:
 *
 * - VendorID. Chunk k of length L holds s_k "special" rows at offsets ⌊t·L/s_k⌋ (t = 0…s_k−1): VendorID 7 in
 *   chunks 0–6 with s_k = ⌊(k+1)·v7/7⌋ − ⌊k·v7/7⌋ ≥ 1, VendorID 6 in chunks 7–8 (⌊v6/2⌋, then the rest).
 *   Offset r is special iff c = ⌈r·s/L⌉ < s and ⌊c·L/s⌋ = r; c is also the number of specials before r, so
 *   the other rows get consecutive indices j = i − (specials before the chunk) − c, 0 ≤ j < M = v1 + v2, and
 *   row j is VendorID 1 iff (j·a + b) mod M < v1, else VendorID 2 (a prime > M, so j ↦ (j·a + b) mod M is a
 *   permutation: exactly v1 rows of vendor 1, the others spread over every chunk).
 * - fare_amount < 0 and trip_distance = 0. q = (i·a' + b') mod N, another permutation: q < both → both;
 *   q < negativeFares → fare < 0; negativeFares ≤ q < negativeFares + zeroDistance − both → distance 0 only.
 * - Pickup day. Rows come in day blocks in trip_id order: January 1, 2, …, 31, where January 15 holds
 *   exactly jan15 rows and the other 30 days split N − jan15 evenly (⌊(d+1)·Q/30⌋ − ⌊d·Q/30⌋). Inside a
 *   block of L rows, row r is picked up at second ⌊r·86,400/L⌋ of the day (whole seconds, as in TLC files).
 * - February. feb-<day>.parquet holds exactly round(n·S) trips, all picked up that day, with
 *   trip_id = 10,000,000 + position in a notional February file holding the 02-01 trips, then 02-02, then
 *   02-14. Its vendors: round(D·1206/3,475,226) VendorID 7 trips, the others split between 1 and 2 in the
 *   January proportion; its negative fares and zero distances follow the January proportions too
 *   (synthetic-only figures: `februaryDetail`).
 *
 * The other columns (times of the trip, zones, passengers, fares, tips ≥ 0, surcharges, ~3% NULLs in the
 * nullable TLC columns together, as in real files) come from fmix32 (MurmurHash3's finalizer, pure integer
 * arithmetic, so no DuckDB `hash()` and no dependency on its version) of trip_id·16 + k, split into 16-bit
 * uniforms. Refund rows (fare < 0) have every money column negated except the tip, which stays 0.
 */
import { DatasetError } from './errors';
import {
  FEBRUARY_DAYS,
  FEBRUARY_ID_OFFSET,
  type FebruaryDay,
  type Figures,
  FLAT_FILES,
  FULL_SCALE,
  febTrips,
  VENDOR6_FILES,
  VENDOR7_FILES,
} from './figures';
import { TLC_COLUMNS } from './schema';
import { type Conn, runWatched, type StepProgress, sqlString } from './sql';

/** Bump when the generated rows change: cached synthetic data sets of another version are rebuilt. */
export const SYNTHETIC_VERSION = 1;

interface Chunk {
  rows: number;
  /** Rows of `specialVendor`, spread evenly over the chunk. */
  specials: number;
  specialVendor: number;
}

interface Day {
  date: string;
  rows: number;
}

/** What one generated file holds; every count is exact. */
export interface BlockPlan {
  rows: number;
  /** trip_id = firstId + position in the file. */
  firstId: number;
  chunks: Chunk[];
  /** VendorID 1 rows among the non-special rows; the others are VendorID 2. */
  vendor1: number;
  days: Day[];
  negativeFares: number;
  zeroDistance: number;
  both: number;
}

/** The synthetic-only figures of one February file (docs/lab-cases.md fixes only its trip count). */
export interface FebruaryDetail {
  trips: number;
  firstId: number;
  vendors: { 1: number; 2: number; 7: number };
  negativeFares: number;
  zeroDistance: number;
  both: number;
}

/** ⌊(k+1)·n/parts⌋ − ⌊k·n/parts⌋ for k = 0…parts−1: n split as evenly as integers allow. */
function split(n: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, k) => Math.floor(((k + 1) * n) / parts) - Math.floor((k * n) / parts));
}

function januaryDays(total: number, jan15: number): Day[] {
  const others = split(total - jan15, 30);
  const days: Day[] = [];
  for (let d = 1; d <= 31; d++) {
    const rows = d === 15 ? jan15 : (others[d < 15 ? d - 1 : d - 2] ?? 0);
    days.push({ date: `2025-01-${String(d).padStart(2, '0')}`, rows });
  }
  return days;
}

export function januaryPlan(f: Figures): BlockPlan {
  const n = f.januaryTrips;
  const cap = f.rowsPerFile;
  if (f.flatFiles !== FLAT_FILES || n - (FLAT_FILES - 1) * cap < 1) {
    throw new DatasetError(`scale ${f.scale}: ${n} trips at ${cap} per file do not make ${FLAT_FILES} files`);
  }
  const v7 = split(f.vendors[7], VENDOR7_FILES);
  const v6 = split(f.vendors[6], VENDOR6_FILES);
  const chunks: Chunk[] = [];
  for (let k = 0; k < FLAT_FILES; k++) {
    const rows = k < FLAT_FILES - 1 ? cap : n - (FLAT_FILES - 1) * cap;
    const seven = k < VENDOR7_FILES;
    const six = k >= FLAT_FILES - VENDOR6_FILES;
    const specials = seven ? (v7[k] ?? 0) : six ? (v6[k - (FLAT_FILES - VENDOR6_FILES)] ?? 0) : 0;
    chunks.push({ rows, specials, specialVendor: six ? 6 : 7 });
  }
  return {
    rows: n,
    firstId: 0,
    chunks,
    vendor1: f.vendors[1],
    days: januaryDays(n, f.jan15),
    negativeFares: f.negativeFares,
    zeroDistance: f.zeroDistance,
    both: f.both,
  };
}

const FULL_JANUARY = FULL_SCALE.vendors[1] + FULL_SCALE.vendors[2] + FULL_SCALE.vendors[6] + FULL_SCALE.vendors[7];

/** The synthetic-only make-up of feb-<day>.parquet. */
export function februaryDetail(f: Figures, day: FebruaryDay): FebruaryDetail {
  const trips = febTrips(f, day);
  let firstId = FEBRUARY_ID_OFFSET;
  for (const d of FEBRUARY_DAYS) {
    if (d === day) break;
    firstId += febTrips(f, d);
  }
  const share = (n: number) => Math.round((trips * n) / FULL_JANUARY);
  const seven = share(FULL_SCALE.vendors[7]);
  const one = Math.round(((trips - seven) * FULL_SCALE.vendors[1]) / (FULL_SCALE.vendors[1] + FULL_SCALE.vendors[2]));
  return {
    trips,
    firstId,
    vendors: { 1: one, 2: trips - seven - one, 7: seven },
    negativeFares: share(FULL_SCALE.negativeFares),
    zeroDistance: share(FULL_SCALE.zeroDistance),
    both: share(FULL_SCALE.both),
  };
}

export function februaryPlan(f: Figures, day: FebruaryDay): BlockPlan {
  const d = februaryDetail(f, day);
  return {
    rows: d.trips,
    firstId: d.firstId,
    chunks: [{ rows: d.trips, specials: d.vendors[7], specialVendor: 7 }],
    vendor1: d.vendors[1],
    days: [{ date: day, rows: d.trips }],
    negativeFares: d.negativeFares,
    zeroDistance: d.zeroDistance,
    both: d.both,
  };
}

/** Primes above any row count we generate (the smallest is 3.7·10⁸): multiplying by one permutes 0…m−1 modulo m. */
const PRIMES = [2654435761, 2246822519, 3266489917, 668265263, 374761393] as const;

/** (x·a + b) mod m with a prime a > m: a permutation of 0…m−1. The BIGINT product stays below 2⁶³. */
function permutation(x: string, m: number, which: number): string {
  if (m <= 1) return '0';
  const a = (PRIMES[which] ?? PRIMES[0]) % m;
  const b = Math.floor(m * 0.381966);
  return `((${x} * ${a} + ${b}) % ${m})`;
}

/** MurmurHash3's 32-bit finalizer on a UBIGINT expression in [0, 2³²). */
const FMIX32: ((x: string) => string)[] = [
  (x) => `xor(${x}, ${x} >> 16)`,
  (x) => `((${x} * 2246822507) & 4294967295)`,
  (x) => `xor(${x}, ${x} >> 13)`,
  (x) => `((${x} * 3266489909) & 4294967295)`,
  (x) => `xor(${x}, ${x} >> 16)`,
];
/** 32-bit hashes per row; each gives two 16-bit uniforms u0…u19. */
const HASHES = 10;

const MANHATTAN = [
  4, 13, 24, 41, 42, 43, 45, 48, 50, 68, 74, 75, 79, 87, 88, 90, 100, 107, 113, 114, 116, 125, 137, 140, 141, 142, 143,
  144, 148, 151, 158, 161, 162, 163, 164, 166, 170, 186, 209, 211, 224, 229, 230, 231, 232, 233, 234, 236, 237, 238,
  239, 243, 244, 246, 249, 261, 262, 263,
];

const epochSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const CBD_START = epochSeconds('2025-01-05');

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

/** `u` (an integer uniform in [0, 65536)) falls below probability `p`. */
const lt = (u: string, p: number) => `${u} < ${Math.round(p * 65536)}`;
/** `u` as a fraction in [0, 1). */
const unit = (u: string) => `(${u} / 65536.0)`;

/** `CASE WHEN x < end₁ THEN 1 WHEN x < end₂ THEN 2 … END`: the 1-based block holding x. */
function blockOf(x: string, sizes: readonly number[]): string {
  let end = 0;
  const whens = sizes.slice(0, -1).map((s, k) => {
    end += s;
    return `WHEN ${x} < ${end} THEN ${k + 1}`;
  });
  return whens.length === 0 ? '1' : `CASE ${whens.join(' ')} ELSE ${sizes.length} END`;
}

const starts = (sizes: readonly number[]) => {
  let at = 0;
  return sizes.map((s) => {
    const here = at;
    at += s;
    return here;
  });
};

/** The SELECT producing a block's rows, in trip_id order, with the TLC columns and trip_id last. */
export function blockSql(p: BlockPlan, indexes = `range(0, ${p.rows}) t(i)`): string {
  const chunkRows = p.chunks.map((c) => c.rows);
  const chunkSpecials = p.chunks.map((c) => c.specials);
  const dayRows = p.days.map((d) => d.rows);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(chunkRows) !== p.rows || sum(dayRows) !== p.rows) throw new Error('synthetic plan: parts do not add up');
  const ordinary = p.rows - sum(chunkSpecials);
  const onlyNeg = p.negativeFares; // q < both: both; q < negativeFares: negative fare
  const zeroEnd = p.negativeFares + p.zeroDistance - p.both;
  if (p.both > Math.min(p.negativeFares, p.zeroDistance) || zeroEnd > p.rows || p.vendor1 > ordinary) {
    throw new Error('synthetic plan: inconsistent counts');
  }

  // 1. Which chunk and which day each row index falls in.
  const located = `SELECT i, ${blockOf('i', chunkRows)} AS ck, ${blockOf('i', dayRows)} AS dk FROM ${indexes}`;
  // 2. Offsets inside the chunk and the day.
  const offsets = `SELECT i,
      i - ${list(starts(chunkRows))}[ck] AS r, ${list(chunkRows)}[ck] AS len, ${list(chunkSpecials)}[ck] AS s,
      ${list(starts(chunkSpecials))}[ck] AS sb, ${list(p.chunks.map((c) => c.specialVendor))}[ck] AS sv,
      i - ${list(starts(dayRows))}[dk] AS dr, ${list(dayRows)}[dk] AS dl,
      ${list(p.days.map((d) => epochSeconds(d.date)))}[dk] AS day0
    FROM (${located})`;
  // 3. c = specials before offset r (= ⌈r·s/len⌉), and whether r is itself special.
  const specials = `SELECT *, CASE WHEN s = 0 THEN 0 ELSE (r * s + len - 1) // len END AS c FROM (${offsets})`;
  // 4. Vendor, predicate class, pickup second, hash seeds.
  const q = permutation('i', p.rows, 1);
  const placed = `SELECT i, sv, dr, dl, day0,
      (s > 0 AND c < s AND (c * len) // s = r) AS special,
      i - sb - c AS j,
      ${q} AS q,
      day0 + (dr * 86400) // dl AS pickup_s,
      (dr * 86400) // dl // 3600 AS hour,
      ${p.firstId} + i AS trip_id
    FROM (${specials})`;
  const classified = `SELECT trip_id, pickup_s, hour,
      CASE WHEN special THEN sv WHEN ${permutation('j', ordinary, 0)} < ${p.vendor1} THEN 1 ELSE 2 END AS vendor,
      q < ${onlyNeg} AS neg,
      (q < ${p.both} OR (q >= ${p.negativeFares} AND q < ${zeroEnd})) AS zero,
      ${Array.from({ length: HASHES }, (_, k) => `((trip_id * 16 + ${k}) & 4294967295)::UBIGINT AS h${k}`).join(', ')}
    FROM (${placed})`;
  // 5. fmix32, one step per layer (keeps the SQL small; DuckDB runs it at the same speed).
  let hashed = classified;
  const hs = Array.from({ length: HASHES }, (_, k) => `h${k}`);
  for (const step of FMIX32) {
    hashed = `SELECT * REPLACE (${hs.map((h) => `${step(h)} AS ${h}`).join(', ')}) FROM (${hashed})`;
  }
  // Uniforms stay integers in [0, 65536); `lt(u, p)` is the event u/65536 < p, `unit(u)` the fraction.
  const uniforms = Array.from({ length: HASHES }, (_, k) => [
    `(h${k} & 65535)::INTEGER AS u${2 * k}`,
    `(h${k} >> 16)::INTEGER AS u${2 * k + 1}`,
  ]).flat();
  const u = `SELECT trip_id, pickup_s, hour, vendor, neg, zero, ${uniforms.join(', ')} FROM (${hashed})`;

  // 6. The trip itself.
  const zone = (x: string) => `${list(MANHATTAN)}[1 + (${x} * ${MANHATTAN.length}) // 65536]`;
  const trip = `SELECT *,
      ${lt('u0', 0.03)} AS nul,
      ${lt('u1', 0.06)} AS airport,
      ${lt('u3', 0.5)} AS from_airport,
      CASE WHEN ${lt('u2', 0.65)} THEN 132 ELSE 138 END AS airport_zone
    FROM (${u})`;
  const where = `SELECT *,
      CASE WHEN airport AND from_airport THEN airport_zone ELSE ${zone('u4')} END AS pu,
      CASE WHEN airport AND NOT from_airport THEN airport_zone
           WHEN ${lt('u6', 0.08)} THEN 1 + (u7 * 263) // 65536 ELSE ${zone('u5')} END AS do_,
      CASE WHEN zero THEN 0.0
           ELSE round(0.3 - ln(1.0 - ${unit('u8')}) * 2.2 + CASE WHEN airport THEN 9.0 + 10.0 * ${unit('u9')} ELSE 0.0 END, 2) END AS dist
    FROM (${trip})`;
  const how = `SELECT *,
      CASE WHEN zero THEN 60 + (u9 * 900) // 65536 ELSE 120 + floor(dist * (140 + 160 * ${unit('u10')}))::BIGINT END AS dur,
      CASE WHEN nul THEN NULL WHEN airport AND (pu = 132 OR do_ = 132) THEN 2
           WHEN ${lt('u12', 0.012)} THEN 5 WHEN ${lt('u12', 0.016)} THEN 99 ELSE 1 END AS rate,
      CASE WHEN nul THEN 0 WHEN neg THEN (CASE WHEN ${lt('u14', 0.6)} THEN 4 ELSE 3 END)
           WHEN ${lt('u14', 0.78)} THEN 1 WHEN ${lt('u14', 0.97)} THEN 2 WHEN ${lt('u14', 0.985)} THEN 3 ELSE 4 END AS pay
    FROM (${where})`;
  const priced = `SELECT *,
      CASE WHEN rate = 2 THEN 70.0 ELSE round(3.0 + 2.8 * dist + 0.35 * dur / 60.0, 2) END AS fare_abs
    FROM (${how})`;
  // Refunds negate every charge; 0.0 - x keeps a zero positive (−x would give −0.0).
  const signed = (x: string) => `CASE WHEN neg THEN 0.0 - (${x}) ELSE (${x}) END`;
  const money = `SELECT *,
      ${signed('fare_abs')} AS fare,
      ${signed('CASE WHEN hour >= 20 OR hour < 6 THEN 1.0 WHEN hour >= 16 THEN 2.5 ELSE 0.0 END')} AS extra_,
      ${signed('0.5')} AS mta,
      CASE WHEN NOT neg AND pay = 1 AND NOT ${lt('u15', 0.12)} THEN round(fare_abs * (0.1 + 0.2 * ${unit('u16')}), 2) ELSE 0.0 END AS tip,
      ${signed(`CASE WHEN (airport AND ${lt('u17', 0.55)}) OR ${lt('u17', 0.02)} THEN 6.94 ELSE 0.0 END`)} AS tolls,
      ${signed('1.0')} AS improvement,
      CASE WHEN nul THEN NULL ELSE ${signed(`CASE WHEN ${lt('u18', 0.88)} THEN 2.5 ELSE 0.0 END`)} END AS congestion,
      CASE WHEN nul THEN NULL ELSE ${signed('CASE WHEN pu IN (132, 138) THEN 1.75 ELSE 0.0 END')} END AS airport_fee,
      ${signed(`CASE WHEN pickup_s >= ${CBD_START} AND ${lt('u19', 0.6)} THEN 0.75 ELSE 0.0 END`)} AS cbd
    FROM (${priced})`;
  const values: Record<string, string> = {
    VendorID: 'vendor',
    tpep_pickup_datetime: 'make_timestamp(pickup_s * 1000000)',
    tpep_dropoff_datetime: 'make_timestamp((pickup_s + dur) * 1000000)',
    passenger_count: `CASE WHEN nul THEN NULL WHEN ${lt('u11', 0.012)} THEN 0 WHEN ${lt('u11', 0.75)} THEN 1 WHEN ${lt('u11', 0.89)} THEN 2
      WHEN ${lt('u11', 0.93)} THEN 3 WHEN ${lt('u11', 0.955)} THEN 4 WHEN ${lt('u11', 0.975)} THEN 5 ELSE 6 END`,
    trip_distance: 'dist',
    RatecodeID: 'rate',
    store_and_fwd_flag: `CASE WHEN nul THEN NULL WHEN ${lt('u13', 0.005)} THEN 'Y' ELSE 'N' END`,
    PULocationID: 'pu',
    DOLocationID: 'do_',
    payment_type: 'pay',
    fare_amount: 'fare',
    extra: 'extra_',
    mta_tax: 'mta',
    tip_amount: 'tip',
    tolls_amount: 'tolls',
    improvement_surcharge: 'improvement',
    total_amount:
      'round(fare + extra_ + mta + tip + tolls + improvement + coalesce(congestion, 0.0) + coalesce(airport_fee, 0.0) + cbd, 2)',
    congestion_surcharge: 'congestion',
    Airport_fee: 'airport_fee',
    cbd_congestion_fee: 'cbd',
  };
  const columns = TLC_COLUMNS.map(({ name, type }) => {
    const v = values[name];
    if (v === undefined) throw new Error(`synthetic generator: no value for ${name}`);
    return `CAST(${v} AS ${type}) AS "${name}"`;
  });
  return `SELECT ${columns.join(',\n  ')}, CAST(trip_id AS BIGINT) AS trip_id FROM (${money})`;
}

/** Writes one block's rows to `file` (Parquet, snappy); `onRows` hears DuckDB's count of rows done. */
export async function writeBlock(
  c: Conn,
  plan: BlockPlan,
  file: string,
  onRows?: (done: number, total: number) => void,
): Promise<void> {
  // A table scan runs on every thread (a range() source runs on one), and the COPY still writes rows in
  // the table's order (preserve_insertion_order, DuckDB's default): twice as fast on 2 cores.
  await c.run(`CREATE OR REPLACE TEMP TABLE lab_row_index AS SELECT range AS i FROM range(0, ${plan.rows})`);
  try {
    await runWatched(
      c,
      `COPY (${blockSql(plan, 'lab_row_index')}) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION snappy)`,
      onRows,
    );
  } finally {
    await c.run('DROP TABLE IF EXISTS lab_row_index');
  }
}

/**
 * Writes january.parquet and the three feb-<day>.parquet files of the synthetic month into `dir`.
 * `onProgress` counts rows over all four files.
 */
export async function writeSynthetic(
  c: Conn,
  figures: Figures,
  files: SyntheticFiles,
  onProgress?: (p: StepProgress) => void,
): Promise<void> {
  const blocks = [
    { name: 'january', plan: januaryPlan(figures), file: files.january },
    ...FEBRUARY_DAYS.map((day) => ({ name: day, plan: februaryPlan(figures, day), file: files.february(day) })),
  ];
  const total = blocks.reduce((n, b) => n + b.plan.rows, 0);
  let before = 0;
  for (const b of blocks) {
    const report = (done: number) =>
      onProgress?.({ done: before + Math.min(done, b.plan.rows), total, detail: `writing ${b.name}` });
    report(0);
    await writeBlock(c, b.plan, b.file, onProgress && ((done) => report(done)));
    before += b.plan.rows;
  }
  onProgress?.({ done: total, total, detail: 'written' });
}

export interface SyntheticFiles {
  january: string;
  february(day: FebruaryDay): string;
}
