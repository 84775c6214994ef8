/**
 * Per-file statistics as delta-rs writes them into `add.stats`: numRecords, minValues, maxValues,
 * nullCount (no tightBounds), for the first `delta.dataSkippingNumIndexedCols` (default 32)
 * top-level non-partition columns, binary columns skipped. Pure: no I/O.
 */
import { type DeltaType, decimalParts, type StructField, type StructType } from './schema';

export interface FileStats {
  numRecords: number;
  minValues: Record<string, unknown>;
  maxValues: Record<string, unknown>;
  nullCount: Record<string, number>;
}

/** What the Parquet writer reports for one column of one file, values as DuckDB prints them. */
export interface RawColumnStats {
  min?: string;
  max?: string;
  nullCount?: number;
}

export const DEFAULT_NUM_INDEXED_COLS = 32;

/** The columns that get stats, honouring the two table properties delta-rs honours. */
export function statsColumns(
  schema: StructType,
  partitionColumns: readonly string[],
  configuration: Record<string, string | null>,
): StructField[] {
  const candidates = schema.fields.filter((f) => !partitionColumns.includes(f.name) && f.type !== 'binary');
  const explicit = configuration['delta.dataSkippingStatsColumns'];
  if (explicit) {
    const wanted = new Set(explicit.split(',').map((s) => s.trim()));
    return candidates.filter((f) => wanted.has(f.name));
  }
  const n = Number(configuration['delta.dataSkippingNumIndexedCols'] ?? DEFAULT_NUM_INDEXED_COLS);
  return n < 0 ? candidates : candidates.slice(0, n);
}

/** Splits a DuckDB timestamp text into date, time and a fraction of up to 9 digits. */
const TS_RE = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00(?::?00)?)?$/;

/** chrono's `%.f`: no fraction when zero, else 3, 6 or 9 digits, whichever is exact. */
function chronoFraction(frac: string | undefined): string {
  const nanos = (frac ?? '').padEnd(9, '0');
  if (/^0+$/.test(nanos)) return '';
  if (nanos.endsWith('000000')) return `.${nanos.slice(0, 3)}`;
  if (nanos.endsWith('000')) return `.${nanos.slice(0, 6)}`;
  return `.${nanos}`;
}

/**
 * One min/max value in delta-rs's JSON form: numbers as numbers, dates `%Y-%m-%d`, timestamps
 * `%Y-%m-%dT%H:%M:%S%.fZ`, naive timestamps `%Y-%m-%d %H:%M:%S%.f`. Undefined when the value
 * cannot be represented (so the column simply has no bound, which readers treat as unknown).
 */
export function formatStatValue(type: DeltaType, raw: string): unknown {
  if (typeof type !== 'string') return undefined;
  if (decimalParts(type)) {
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
  switch (type) {
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'float':
    case 'double': {
      const n = Number(raw);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : undefined;
    case 'string':
      return raw;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined;
    case 'timestamp':
    case 'timestamp_ntz': {
      const m = TS_RE.exec(raw);
      if (!m) return undefined;
      const text = `${m[1]}${type === 'timestamp' ? 'T' : ' '}${m[2]}${chronoFraction(m[3])}`;
      return type === 'timestamp' ? `${text}Z` : text;
    }
    default:
      return undefined;
  }
}

export function buildStats(
  columns: readonly StructField[],
  numRecords: number,
  raw: ReadonlyMap<string, RawColumnStats>,
): FileStats {
  const stats: FileStats = { numRecords, minValues: {}, maxValues: {}, nullCount: {} };
  for (const f of columns) {
    const r = raw.get(f.name);
    if (!r) continue;
    if (r.nullCount !== undefined) stats.nullCount[f.name] = r.nullCount;
    // An all-null column has no bounds; delta-rs then leaves min/max out too.
    if (r.min !== undefined) {
      const v = formatStatValue(f.type, r.min);
      if (v !== undefined) stats.minValues[f.name] = v;
    }
    if (r.max !== undefined) {
      const v = formatStatValue(f.type, r.max);
      if (v !== undefined) stats.maxValues[f.name] = v;
    }
  }
  return stats;
}

/** Reads `add.stats`; null when absent or unreadable (stats are optional, so that means "unknown"). */
export function parseStats(json: string | null | undefined): Partial<FileStats> | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' ? (v as Partial<FileStats>) : null;
  } catch {
    return null;
  }
}
