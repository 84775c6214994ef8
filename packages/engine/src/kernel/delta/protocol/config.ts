/**
 * Table properties (`metaData.configuration`) that change how the engine writes, read the way
 * delta-rs reads them: exact keys, and the documented default when a value is absent or unreadable.
 */

type Config = Record<string, string | null>;

export const DEFAULT_CHECKPOINT_INTERVAL = 100;
export const DEFAULT_TARGET_FILE_SIZE = 104_857_600;
export const DEFAULT_DELETED_FILE_RETENTION_MS = 7 * 24 * 3600 * 1000;

const UNIT_MS: Record<string, number> = {
  nanosecond: 1e-6,
  microsecond: 1e-3,
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/** Parses Delta's `interval <n> <unit>` durations; null when unreadable. */
export function parseInterval(text: string): number | null {
  const m = /^\s*interval\s+(\d+)\s+([a-z]+?)s?\s*$/i.exec(text);
  if (!m) return null;
  const unit = UNIT_MS[(m[2] as string).toLowerCase()];
  return unit === undefined ? null : Number(m[1]) * unit;
}

function positiveInt(v: string | null | undefined, fallback: number): number {
  const n = Number(v);
  return v != null && Number.isInteger(n) && n > 0 ? n : fallback;
}

export function checkpointInterval(config: Config): number {
  return positiveInt(config['delta.checkpointInterval'], DEFAULT_CHECKPOINT_INTERVAL);
}

export function targetFileSize(config: Config): number {
  return positiveInt(config['delta.targetFileSize'], DEFAULT_TARGET_FILE_SIZE);
}

export function deletedFileRetentionMs(config: Config): number {
  const v = config['delta.deletedFileRetentionDuration'];
  return (v ? parseInterval(v) : null) ?? DEFAULT_DELETED_FILE_RETENTION_MS;
}

export function isAppendOnly(config: Config): boolean {
  return config['delta.appendOnly'] === 'true';
}
