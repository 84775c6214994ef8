/**
 * Reads a table's commits as evidence: each commit file's commitInfo, txn app ids, metaData configuration and
 * add/remove counts, straight from `_delta_log` and many files at once (parallel GETs on S3), never building a
 * snapshot per version. Work is bounded before it starts (commits) and while it runs (bytes, time), and a bound
 * hit is an error naming it. A gap in the versions or a damaged commit file is a finding naming the file as the
 * engine's reader names it, with the table as the user named it; commits older than the oldest JSON the log keeps
 * (cleaned up behind a checkpoint) and commits before `since` are not read, and the range says so.
 */
import {
  type Action,
  type CommitInfo,
  commitKey,
  LogFormatError,
  listLog,
  type ObjectStore,
  parseCommitText,
} from '@racelab/engine';
import type { HistoryFinding } from './types';

export interface HistoryBounds {
  /** Commits read at most; a longer range is refused before reading. */
  maxCommits: number;
  /** Bytes of commit files read at most. */
  maxBytes: number;
  /** Milliseconds the reading may take. */
  maxMillis: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = {
  maxCommits: 100_000,
  maxBytes: 1024 ** 3,
  maxMillis: 120_000,
};

/** Commit files read at once: S3 GETs overlap their latency, a local disk is not harmed. */
const PARALLEL_READS = 64;

export class HistoryBoundError extends Error {
  override name = 'HistoryBoundError';
  constructor(
    readonly bound: keyof HistoryBounds,
    message: string,
  ) {
    super(message);
  }
}

/** One commit file, as read. */
export interface LoggedCommit {
  version: number;
  commitInfo: CommitInfo | null;
  /** The `txn` actions' app ids, in the file's order. */
  appIds: string[];
  /** The metaData action's configuration, when the commit changed the metadata. */
  configuration: Record<string, string> | null;
  adds: number;
  removes: number;
}

export interface ReadLog {
  commits: LoggedCommit[];
  findings: HistoryFinding[];
  fromVersion: number;
  latestVersion: number;
  oldestKept: number;
}

export interface ReadLogOptions {
  /** The table as the user named it: every file a finding names is under it. */
  display: string;
  /** Only commits whose timestamp is at or after this, ms since the epoch. */
  since?: number;
  /** Read no further than this version. */
  toVersion?: number;
  bounds?: Partial<HistoryBounds>;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** The commits of the log at `store`, oldest first, with the findings the reading made. */
export async function readLog(store: ObjectStore, o: ReadLogOptions): Promise<ReadLog> {
  const bounds = { ...DEFAULT_HISTORY_BOUNDS, ...o.bounds };
  const deadline = Date.now() + bounds.maxMillis;
  const listing = await listLog(store, undefined, true);
  const listed = [...listing.commits.keys()].sort((a, b) => a - b);
  const latestVersion = Math.min(listing.latestVersion, o.toVersion ?? Number.POSITIVE_INFINITY);
  const oldestKept = listed[0] ?? latestVersion + 1;
  const findings: HistoryFinding[] = [];
  const fileName = (v: number) => `${o.display}/${commitKey(v)}`;
  if (oldestKept > 0) {
    findings.push({
      rule: 'log-cleaned-up',
      severity: 'info',
      versions: [],
      evidence: `commits before version ${oldestKept} are no longer in the log (only a checkpoint keeps their state): their commitInfo cannot be read`,
      fix: 'keep the log longer (delta.logRetentionDuration) to audit older commits',
    });
  }
  let fromVersion = oldestKept;
  if (o.since !== undefined) {
    fromVersion = await firstSince(store, listed, o.since, latestVersion);
  }
  const versions: number[] = [];
  for (let v = fromVersion; v <= latestVersion; v++) versions.push(v);
  if (versions.length > bounds.maxCommits) {
    throw new HistoryBoundError(
      'maxCommits',
      `${o.display}: ${versions.length} commits to read, over the bound of ${bounds.maxCommits} commits: name a later --since`,
    );
  }
  const missing = versions.filter((v) => !listing.commits.has(v));
  if (missing.length > 0) {
    findings.push({
      rule: 'log-gap',
      severity: 'error',
      versions: missing,
      evidence: `${missing.length} commit file${missing.length === 1 ? ' is' : 's are'} missing from the log, the first ${fileName(missing[0] as number)}: what those commits did and who made them is lost`,
      fix: 'restore the missing commit files from a backup; a table with a gap in its log cannot be read past it',
    });
  }
  const present = versions.filter((v) => listing.commits.has(v));
  const out = new Array<LoggedCommit | null>(present.length).fill(null);
  let bytes = 0;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < present.length) {
      const i = next++;
      const version = present[i] as number;
      o.signal?.throwIfAborted();
      if (Date.now() > deadline) {
        throw new HistoryBoundError('maxMillis', `${o.display}: reading the log took over ${bounds.maxMillis} ms`);
      }
      const body = await store.get(commitKey(version));
      bytes += body.byteLength;
      if (bytes > bounds.maxBytes) {
        throw new HistoryBoundError('maxBytes', `${o.display}: the commits read hold over ${bounds.maxBytes} bytes`);
      }
      try {
        out[i] = logged(version, parseCommitText(new TextDecoder().decode(body), fileName(version)));
      } catch (e) {
        if (!(e instanceof LogFormatError)) throw e;
        findings.push({
          rule: 'damaged-commit',
          severity: 'error',
          versions: [version],
          evidence: e.message,
          fix: 'restore the commit file from a backup; the engine refuses to read the table past it',
        });
      }
      o.onProgress?.(++done, present.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, present.length) }, worker));
  const commits = out.filter((c): c is LoggedCommit => c !== null);
  findings.sort((a, b) => (a.versions[0] ?? -1) - (b.versions[0] ?? -1));
  return { commits, findings, fromVersion, latestVersion, oldestKept };
}

function logged(version: number, actions: Action[]): LoggedCommit {
  const c: LoggedCommit = { version, commitInfo: null, appIds: [], configuration: null, adds: 0, removes: 0 };
  for (const a of actions) {
    if ('commitInfo' in a) c.commitInfo = a.commitInfo;
    else if ('txn' in a) c.appIds.push(a.txn.appId);
    else if ('metaData' in a) c.configuration = configurationOf(a.metaData.configuration);
    else if ('add' in a) c.adds++;
    else if ('remove' in a) c.removes++;
  }
  return c;
}

function configurationOf(conf: Record<string, string | null> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(conf ?? {})) if (v !== null) out[k] = v;
  return out;
}

/** A commit's timestamp, or null when its file cannot be read or has none. */
async function timestampOf(store: ObjectStore, version: number): Promise<number | null> {
  try {
    const text = new TextDecoder().decode(await store.get(commitKey(version)));
    const info = parseCommitText(text, commitKey(version)).find((a) => 'commitInfo' in a);
    const ts = info && 'commitInfo' in info ? info.commitInfo.timestamp : undefined;
    return typeof ts === 'number' ? ts : null;
  } catch {
    // An unreadable commit is reported when the range is read; the search only steps past it.
    return null;
  }
}

/**
 * The first listed version whose timestamp is at or after `since`, by binary search over the kept commits
 * (commit timestamps grow with versions; one that does not only moves the start by a few commits).
 */
async function firstSince(store: ObjectStore, listed: number[], since: number, latest: number): Promise<number> {
  let lo = 0;
  let hi = listed.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const ts = await timestampOf(store, listed[mid] as number);
    if (ts !== null && ts >= since) hi = mid;
    else lo = mid + 1;
  }
  return lo < listed.length ? (listed[lo] as number) : latest + 1;
}
