/**
 * The commit loop of delta-rs 1.6.x: list the latest version; if the table moved, fail at once when
 * retries are off, otherwise judge every winning commit against what this transaction read; then
 * claim the next version with put-if-absent. A version someone else claimed first sends the loop
 * round again. After the commit, a checkpoint when (version + 1) % delta.checkpointInterval == 0.
 */
import type { ObjectStore } from '../../storage/object-store';
import { writeCheckpoint } from '../log/checkpoint';
import { commitKey, LOG_DIR, versionName } from '../log/listing';
import { loadState, readCommit } from '../log/snapshot';
import { type Action, serializeCommit } from '../protocol/actions';
import { validateCommitActions } from '../protocol/validate';
import type { WinningCommit } from './conflict-checker';
import { appendOnlyViolation, maxCommitAttempts, tableAlreadyCreated } from './errors';
import { DEFAULT_MAX_RETRIES } from './retries';

export { DEFAULT_MAX_RETRIES };

export interface CommitRequest {
  store: ObjectStore;
  /** The version this transaction read; -1 when it creates the table. */
  readVersion: number;
  /** Every action of the commit, commitInfo included. */
  actions: Action[];
  maxRetries?: number;
  /** Throws (a CommitFailedError) when a winning commit conflicts with this transaction. */
  checkWinner?: (winner: WinningCommit) => void;
  /** The table's checkpoint interval (from its configuration). */
  checkpointEvery?: number;
  /** Whether to write the checkpoint the interval asks for (delta-rs: on by default). */
  createCheckpoint?: boolean;
  /** `delta.appendOnly`: a data-changing remove is refused before anything is written. */
  appendOnly?: boolean;
  /** Called after each failed claim, for the lab's per-attempt record. */
  onAttemptFailed?: (attempt: number, version: number) => void;
  /**
   * This engine's option, not delta-rs's: when the version it tried is taken, read that entry, and if its bytes
   * are this commit's own, the commit is done (a put that landed but whose answer was lost, resent and refused).
   */
  recogniseOwnCommit?: boolean;
}

export interface CommitResult {
  version: number;
  attempts: number;
  /** Set when the version was found taken by this commit's own bytes (recogniseOwnCommit). */
  recognisedOwnCommit?: true;
}

/** The newest version, found by listing the log after `after` (cheap on S3 with start-after). */
export async function latestVersion(store: ObjectStore, after: number): Promise<number> {
  const startAfter = after >= 0 ? `${LOG_DIR}${versionName(after)}.json` : undefined;
  let latest = after;
  for (const { key } of await store.list(LOG_DIR, startAfter === undefined ? {} : { startAfter })) {
    const m = /^(\d{20})\.json$/.exec(key.slice(LOG_DIR.length));
    if (m) latest = Math.max(latest, Number(m[1]));
  }
  return latest;
}

export async function commit(req: CommitRequest): Promise<CommitResult> {
  validateCommitActions(req.actions);
  if (req.appendOnly && req.actions.some((a) => 'remove' in a && a.remove.dataChange)) throw appendOnlyViolation();
  const body = new TextEncoder().encode(serializeCommit(req.actions));
  const maxRetries = req.maxRetries ?? DEFAULT_MAX_RETRIES;
  let readVersion = req.readVersion;
  for (let attempt = 1; attempt <= maxRetries + 1; attempt++) {
    const latest = await latestVersion(req.store, readVersion);
    if (readVersion < 0 && latest >= 0) throw tableAlreadyCreated();
    if (latest > readVersion) {
      // delta-rs fails here even when the winners would not conflict: no retries, no checking.
      if (maxRetries === 0) throw maxCommitAttempts(0);
      for (let v = readVersion + 1; v <= latest; v++) {
        req.checkWinner?.({ version: v, actions: await readCommit(req.store, v) });
      }
      readVersion = latest;
    }
    const version = readVersion + 1;
    if (await req.store.putIfAbsent(commitKey(version), body)) {
      await afterCommit(req, version);
      return { version, attempts: attempt };
    }
    // delta-rs goes round again here (kernel/transaction/mod.rs L946-955), and on its next turn judges the entry
    // that took the version as a winner, even when that entry is its own: an append then lands a second time.
    if (req.recogniseOwnCommit && sameBytes(await req.store.get(commitKey(version)), body)) {
      await afterCommit(req, version);
      return { version, attempts: attempt, recognisedOwnCommit: true };
    }
    req.onAttemptFailed?.(attempt, version);
  }
  throw maxCommitAttempts(maxRetries);
}

/**
 * A commit's bytes are its own: commitInfo carries its timestamp and every add a new file name, so another
 * writer's entry never matches byte for byte.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

async function afterCommit(req: CommitRequest, version: number): Promise<void> {
  const every = req.checkpointEvery ?? 100;
  if (req.createCheckpoint === false || (version + 1) % every !== 0) return;
  await writeCheckpoint(req.store, await loadState(req.store, version));
}
