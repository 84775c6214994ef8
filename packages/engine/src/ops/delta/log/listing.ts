/**
 * Lists `_delta_log`: commits, complete checkpoints and the `_last_checkpoint` hint. The listing is
 * the truth; `_last_checkpoint` only says where to start looking. Checkpoints come in the three
 * namings of the Delta protocol: classic (`n.checkpoint.parquet`), multi-part
 * (`n.checkpoint.o.p.parquet`) and UUID-named v2 (`n.checkpoint.<uuid>.json|parquet`).
 */

import type { ObjectStore } from '../../../storage/object-store';

export const LOG_DIR = '_delta_log/';

/** The three namings of the protocol; a UUID-named checkpoint always follows the v2 spec. */
export type CheckpointNaming = 'classic' | 'multi-part' | 'uuid';

export interface CheckpointFiles {
  version: number;
  naming: CheckpointNaming;
  /** One key, or every part of a multi-part checkpoint in part order. */
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
const UUID_CP_RE =
  /^(\d{20})\.checkpoint\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(?:json|parquet)$/i;

export const versionName = (v: number): string => String(v).padStart(20, '0');
export const commitKey = (v: number): string => `${LOG_DIR}${versionName(v)}.json`;
export const checkpointKey = (v: number): string => `${LOG_DIR}${versionName(v)}.checkpoint.parquet`;
export const LAST_CHECKPOINT_KEY = `${LOG_DIR}_last_checkpoint`;

export class NotATableError extends Error {
  override name = 'NotATableError';
}

/** What a location that holds no Delta table holds instead. */
export type NotATableFound =
  | { kind: 'nothing' }
  | { kind: 'file' }
  | { kind: 'no-log'; parquetFiles: number }
  | { kind: 'empty-log' }
  | { kind: 'no-commits' };

/**
 * A location with no Delta table in one wording for every surface (this error, the API, the CLIs, the audit):
 * nothing at all, a file, a folder without a log, or a log without a commit. The engine sees only its store, so
 * it says "no commits"; a caller that can look at a local folder says which (the lab's tables/not-a-table.ts).
 */
export function notATableWords(location: string, found: NotATableFound): string {
  switch (found.kind) {
    case 'nothing':
      return `${location} does not exist: no table at this location`;
    case 'file':
      return `${location} is a file, not a table's folder`;
    case 'no-log': {
      // Parquet files without a log are what a table looks like to a reader that lists folders: say what is there.
      const n = found.parquetFiles;
      const holds = n === 0 ? '' : ` (it holds ${n} Parquet ${n === 1 ? 'file' : 'files'}, which no log names)`;
      return `${location} is not a Delta table: it has no ${LOG_DIR} folder${holds}`;
    }
    case 'empty-log':
      return `${location} is not a Delta table: its ${LOG_DIR} holds no commit`;
    case 'no-commits':
      return `${location} is not a Delta table: no commits in ${LOG_DIR}`;
  }
}

export interface LastCheckpoint {
  version: number;
  size: number;
  parts?: number;
  sizeInBytes?: number;
  numOfAddFiles?: number;
}

/** `_last_checkpoint`, or null when it is missing or unreadable. */
export async function readLastCheckpoint(store: ObjectStore): Promise<LastCheckpoint | null> {
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
 * travel to a version before the hint, or `whole`, lists everything.
 */
export async function listLog(store: ObjectStore, targetVersion?: number, whole = false): Promise<LogListing> {
  const hint = whole ? null : await readLastCheckpoint(store);
  const useHint = hint !== null && (targetVersion === undefined || targetVersion >= hint.version);
  const startAfter = useHint ? `${LOG_DIR}${versionName(hint.version - 1)}.z` : undefined;
  let listing = await scan(store, startAfter);
  // A hint that points at nothing (checkpoint deleted, or log rewritten) falls back to a full listing.
  if (useHint && !listing.checkpoints.some((c) => c.version === hint.version)) listing = await scan(store, undefined);
  if (listing.commits.size === 0 && listing.checkpoints.length === 0) {
    throw new NotATableError(notATableWords(store.location, { kind: 'no-commits' }));
  }
  return withMissedCommits(store, listing, targetVersion ?? listing.latestVersion);
}

/** Commits a listing lacks that are looked up one by one; more than this is a log cleaned up, not a listing's miss. */
const MISSED_LOOKUP_LIMIT = 64;

/**
 * A folder listing is not a snapshot: readdir reads a large folder in several calls, in hash order on ext4, so an
 * entry made between two calls can be missed while a newer one is seen. With writers claiming versions during the
 * listing, a log past about 700 entries then looks gapped (a 32-writer sweep saw "commit 1041 is missing" beside
 * 1042). So the commits the replay of `version` needs and the listing lacks are looked up before anyone calls the
 * log gapped; what is really absent stays absent, and the load reports it as before.
 */
async function withMissedCommits(store: ObjectStore, listing: LogListing, version: number): Promise<LogListing> {
  const base = [...listing.checkpoints].reverse().find((c) => c.version <= version);
  const from = base ? base.version + 1 : Math.min(...listing.commits.keys());
  const missing: number[] = [];
  for (let v = from; v <= version && missing.length <= MISSED_LOOKUP_LIMIT; v++) {
    if (!listing.commits.has(v)) missing.push(v);
  }
  if (missing.length === 0 || missing.length > MISSED_LOOKUP_LIMIT) return listing;
  const found = await Promise.all(missing.map(async (v) => ((await store.head(commitKey(v))) === null ? null : v)));
  for (const v of found) if (v !== null) listing.commits.set(v, commitKey(v));
  listing.latestVersion = Math.max(listing.latestVersion, ...found.map((v) => v ?? -1));
  return listing;
}

/**
 * Which of several checkpoints of one version to read, as delta-kernel-rs and Delta Spark choose: a UUID-named
 * one over a multi-part one over a classic one; among UUID-named ones the greater file name, among multi-part
 * ones the one with more parts. Negative when `a` is the less preferred.
 */
const NAMING_RANK: Record<CheckpointNaming, number> = { classic: 0, 'multi-part': 1, uuid: 2 };
function preference(a: CheckpointFiles, b: CheckpointFiles): number {
  const [x, y] = [a.keys[0] ?? '', b.keys[0] ?? ''];
  return NAMING_RANK[a.naming] - NAMING_RANK[b.naming] || a.keys.length - b.keys.length || (x < y ? -1 : x > y ? 1 : 0);
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
      checkpoints.push({ version: Number(m[1]), naming: 'classic', keys: [key] });
      continue;
    }
    m = UUID_CP_RE.exec(name);
    if (m) {
      checkpoints.push({ version: Number(m[1]), naming: 'uuid', keys: [key] });
      continue;
    }
    m = MULTI_CP_RE.exec(name);
    const part = Number(m?.[2]);
    const parts = Number(m?.[3]);
    // Part numbers run from 1 to the number of parts; anything else is not a checkpoint part.
    if (m && part >= 1 && part <= parts) {
      const id = `${m[1]}/${m[3]}`;
      const entry = multi.get(id) ?? { version: Number(m[1]), parts, keys: [] };
      entry.keys.push(key);
      multi.set(id, entry);
    }
  }
  // A multi-part checkpoint counts only when every part is there.
  for (const e of multi.values()) {
    if (e.keys.length === e.parts) {
      checkpoints.push({ version: e.version, naming: 'multi-part', keys: e.keys.sort() });
    }
  }
  // Oldest first; of several checkpoints of one version, the one readers should prefer last.
  checkpoints.sort((a, b) => a.version - b.version || preference(a, b));
  const latestVersion = Math.max(-1, ...commits.keys(), ...checkpoints.map((c) => c.version));
  return { commits, checkpoints, latestVersion };
}
