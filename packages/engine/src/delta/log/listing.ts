/**
 * Lists `_delta_log`: commits, complete checkpoints and the `_last_checkpoint` hint. The listing is
 * the truth; `_last_checkpoint` only says where to start looking.
 */
import type { ObjectStore } from '../../storage/object-store';

export const LOG_DIR = '_delta_log/';

export interface CheckpointFiles {
  version: number;
  keys: string[];
}

export interface LogListing {
  commits: Map<number, string>;
  checkpoints: CheckpointFiles[];
  latestVersion: number;
}

const COMMIT_RE = /^(\d{20})\.json$/;
const CLASSIC_CP_RE = /^(\d{20})\.checkpoint\.parquet$/;
const MULTI_CP_RE = /^(\d{20})\.checkpoint\.(\d{10})\.(\d{10})\.parquet$/;

export const versionName = (v: number): string => String(v).padStart(20, '0');
export const commitKey = (v: number): string => `${LOG_DIR}${versionName(v)}.json`;
export const checkpointKey = (v: number): string => `${LOG_DIR}${versionName(v)}.checkpoint.parquet`;
export const LAST_CHECKPOINT_KEY = `${LOG_DIR}_last_checkpoint`;

export class NotATableError extends Error {
  override name = 'NotATableError';
}

export interface LastCheckpoint {
  version: number;
  size: number;
  parts?: number;
  sizeInBytes?: number;
  numOfAddFiles?: number;
}

async function readLastCheckpoint(store: ObjectStore): Promise<LastCheckpoint | null> {
  try {
    const v = JSON.parse(new TextDecoder().decode(await store.get(LAST_CHECKPOINT_KEY))) as LastCheckpoint;
    return Number.isInteger(v.version) ? v : null;
  } catch {
    // Missing or unreadable: it is only a hint, and a full listing finds the checkpoints anyway.
    return null;
  }
}

/**
 * Lists the log. With a readable `_last_checkpoint`, only keys from that checkpoint on are listed
 * (S3's start-after makes that cheap), which is how a 10,000-commit table opens quickly; time
 * travel to a version before the hint lists everything.
 */
export async function listLog(store: ObjectStore, targetVersion?: number): Promise<LogListing> {
  const hint = await readLastCheckpoint(store);
  const useHint = hint !== null && (targetVersion === undefined || targetVersion >= hint.version);
  const startAfter = useHint ? `${LOG_DIR}${versionName(hint.version - 1)}.z` : undefined;
  let listing = await scan(store, startAfter);
  // A hint that points at nothing (checkpoint deleted, or log rewritten) falls back to a full listing.
  if (useHint && !listing.checkpoints.some((c) => c.version === hint.version)) listing = await scan(store, undefined);
  if (listing.commits.size === 0 && listing.checkpoints.length === 0) {
    throw new NotATableError(`${store.location} is not a Delta table: no commits in ${LOG_DIR}`);
  }
  return listing;
}

async function scan(store: ObjectStore, startAfter: string | undefined): Promise<LogListing> {
  const commits = new Map<number, string>();
  const multi = new Map<string, { version: number; parts: number; keys: string[] }>();
  const checkpoints: CheckpointFiles[] = [];
  for (const { key } of await store.list(LOG_DIR, startAfter === undefined ? {} : { startAfter })) {
    const name = key.slice(LOG_DIR.length);
    let m = COMMIT_RE.exec(name);
    if (m) {
      commits.set(Number(m[1]), key);
      continue;
    }
    m = CLASSIC_CP_RE.exec(name);
    if (m) {
      checkpoints.push({ version: Number(m[1]), keys: [key] });
      continue;
    }
    m = MULTI_CP_RE.exec(name);
    if (m) {
      const id = `${m[1]}/${m[3]}`;
      const entry = multi.get(id) ?? { version: Number(m[1]), parts: Number(m[3]), keys: [] };
      entry.keys.push(key);
      multi.set(id, entry);
    }
  }
  // A multi-part checkpoint counts only when every part is there.
  for (const e of multi.values())
    if (e.keys.length === e.parts) checkpoints.push({ version: e.version, keys: e.keys.sort() });
  checkpoints.sort((a, b) => a.version - b.version);
  const latestVersion = Math.max(-1, ...commits.keys(), ...checkpoints.map((c) => c.version));
  return { commits, checkpoints, latestVersion };
}
