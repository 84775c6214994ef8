import { DatasetError } from './errors';

/** The days the lab uses: the Iceberg base table's January day and the three February days it appends. */
export type LabDay = '2025-01-15' | '2025-02-01' | '2025-02-02' | '2025-02-14';
export type FebruaryDay = Exclude<LabDay, '2025-01-15'>;
export const FEBRUARY_DAYS: readonly FebruaryDay[] = ['2025-02-01', '2025-02-02', '2025-02-14'];

export const MIN_SCALE = 0.01;
export const MAX_SCALE = 1;

/**
 * The scales the product builds data sets for on request (lab aliases and races through the API).
 * Each scale is its own data set and base tables under the work folder, kept for reuse (about 265 MB
 * near scale 1), so any number in range would let requests fill the disk one scale at a time. These
 * are the scales the dashboard, the docs and the tests use; all of them together take about twice
 * the space of scale 1. The CLI, run by a person on their own machine, still takes any scale in range.
 */
export { SERVED_SCALES } from '@racelab/contracts';

/** Vendor ids of the January file, in the order the lab reports them. */
export const VENDORS = [1, 2, 6, 7] as const;
export type Vendor = (typeof VENDORS)[number];
export type VendorCounts = Record<Vendor, number>;

/** The lesson's figures at full scale (docs/lab-cases.md, "The data"). */
export const FULL_SCALE = {
  vendors: { 1: 753_671, 2: 2_719_860, 6: 489, 7: 1_206 } satisfies VendorCounts,
  negativeFares: 144_118,
  zeroDistance: 90_893,
  both: 14_451,
  jan15: 125_359,
  feb01: 148_649,
  feb02: 123_646,
  feb14: 158_575,
  rowsPerFile: 400_000,
} as const;

/** February trips get 10,000,000 + their position in the February file. */
export const FEBRUARY_ID_OFFSET = 10_000_000;

/**
 * The flat layout's shape: files 1–7 (0-based chunks 0–6) hold VendorID 7, files 8–9 hold VendorID 6.
 * Hence the minimum counts below, which win over round(n·S) when that is smaller (never for
 * S ≥ 0.01: round(1206·0.01) = 12 and round(489·0.01) = 5).
 */
export const FLAT_FILES = 9;
export const VENDOR7_FILES = 7;
export const VENDOR6_FILES = 2;

export interface Figures {
  scale: number;
  /** January trips per VendorID. */
  vendors: VendorCounts;
  /** The base table: the sum of the vendor counts for synthetic data; the January file's rows for TLC. */
  januaryTrips: number;
  /** January trips with fare_amount < 0, with trip_distance = 0, and with both. */
  negativeFares: number;
  zeroDistance: number;
  both: number;
  /** January trips picked up on 2025-01-15. */
  jan15: number;
  /** Trips in feb-<day>.parquet. */
  feb01: number;
  feb02: number;
  feb14: number;
  /** round(400,000·scale): the row cap of the lab's base tables. */
  rowsPerFile: number;
  /** ceil(januaryTrips / rowsPerFile): files of the flat base table (9). */
  flatFiles: number;
  /** ceil(vendor count / rowsPerFile): files per folder of the partitioned-by-VendorID copy (2, 7, 1, 1). */
  partitionFiles: VendorCounts;
}

/** Throws a DatasetError unless 0.01 ≤ scale ≤ 1. */
export function checkScale(scale: unknown): number {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale < MIN_SCALE || scale > MAX_SCALE) {
    throw new DatasetError(`scale must be a number with ${MIN_SCALE} ≤ scale ≤ ${MAX_SCALE}, got ${String(scale)}`);
  }
  return scale;
}

const scaled = (n: number, scale: number) => Math.round(n * scale);

/** Files needed for `rows` rows with at most `cap` rows per file. */
export const filesFor = (rows: number, cap: number) => Math.ceil(rows / cap);

/** Figures derived from the counts of a data set (the layout parts follow from the counts and the cap). */
export function figuresFrom(parts: Omit<Figures, 'flatFiles' | 'partitionFiles'>): Figures {
  const { vendors, rowsPerFile } = parts;
  return {
    ...parts,
    flatFiles: filesFor(parts.januaryTrips, rowsPerFile),
    partitionFiles: {
      1: filesFor(vendors[1], rowsPerFile),
      2: filesFor(vendors[2], rowsPerFile),
      6: filesFor(vendors[6], rowsPerFile),
      7: filesFor(vendors[7], rowsPerFile),
    },
  };
}

/**
 * Every figure of docs/lab-cases.md at `scale`: each count n becomes round(n·S), the base table is the sum of
 * the scaled vendor counts, the row cap is round(400,000·S). VendorID 7 keeps at least 7 trips and VendorID 6
 * at least 2, so each of their files holds one (a floor that only matters below the smallest scale).
 */
export function scaledFigures(scale: number): Figures {
  checkScale(scale);
  const f = FULL_SCALE;
  const vendors: VendorCounts = {
    1: scaled(f.vendors[1], scale),
    2: scaled(f.vendors[2], scale),
    6: Math.max(scaled(f.vendors[6], scale), VENDOR6_FILES),
    7: Math.max(scaled(f.vendors[7], scale), VENDOR7_FILES),
  };
  return figuresFrom({
    scale,
    vendors,
    januaryTrips: vendors[1] + vendors[2] + vendors[6] + vendors[7],
    negativeFares: scaled(f.negativeFares, scale),
    zeroDistance: scaled(f.zeroDistance, scale),
    both: scaled(f.both, scale),
    jan15: scaled(f.jan15, scale),
    feb01: scaled(f.feb01, scale),
    feb02: scaled(f.feb02, scale),
    feb14: scaled(f.feb14, scale),
    rowsPerFile: scaled(f.rowsPerFile, scale),
  });
}

/** Trips of one February day in a data set's figures. */
export function febTrips(figures: Figures, day: FebruaryDay): number {
  return day === '2025-02-01' ? figures.feb01 : day === '2025-02-02' ? figures.feb02 : figures.feb14;
}
