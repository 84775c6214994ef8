/**
 * Data file names and partition folders. A file's `add.path` is a relative URI: partition folders
 * are Hive-escaped on disk (`k=a%2Fb`), and the log then URI-encodes that name (`k=a%252Fb`).
 */

const SAFE = /[A-Za-z0-9_.-]/;

function percentEncode(s: string, keep: RegExp): string {
  let out = '';
  for (const ch of s) {
    if (keep.test(ch)) out += ch;
    else for (const b of new TextEncoder().encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

/** The folder name for one partition value, as it appears on disk. */
export function partitionSegment(column: string, value: string | null): string {
  const v = value === null ? NULL_PARTITION : value === '' ? NULL_PARTITION : percentEncode(value, SAFE);
  return `${percentEncode(column, SAFE)}=${v}`;
}

/** On-disk relative path → the URI form stored in `add.path`. */
export function toLogPath(diskPath: string): string {
  return diskPath
    .split('/')
    .map((seg) => percentEncode(seg, /[A-Za-z0-9_.\-=]/))
    .join('/');
}

/** `add.path` → the on-disk relative path (the object key). Absolute URIs are refused. */
export function fromLogPath(logPath: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(logPath)) {
    throw new Error(`absolute file paths in the log are not supported: ${logPath}`);
  }
  return logPath
    .split('/')
    .map((seg) => decodeURIComponent(seg))
    .join('/');
}

/** delta-rs's data file name: `part-<n:05>-<writer uuid>-c000.snappy.parquet`. */
export function dataFileName(n: number, writerId: string): string {
  return `part-${String(n).padStart(5, '0')}-${writerId}-c000.snappy.parquet`;
}
