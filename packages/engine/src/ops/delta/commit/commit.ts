/**
 * The commit loop of delta-rs 1.6.x: list the latest version; if the table moved, fail at once when
 * retries are off, otherwise judge every winning commit against what this transaction read; then
 * claim the next version with put-if-absent. A version someone else claimed first sends the loop
 * round again. After the commit, a checkpoint when (version + 1) % delta.checkpointInterval == 0.
 */

import type { WinningCommit } from '../../../kernel/conflict/conflict-checker';
import { appendOnlyViolation, maxCommitAttempts, tableAlreadyCreated } from '../../../kernel/conflict/errors';
import { type Action, serializeCommit } from '../../../kernel/delta/protocol/actions';
import { parseCommitText, validateCommitActions } from '../../../kernel/delta/protocol/validate';
import { DEFAULT_MAX_RETRIES } from '../../../kernel/retry/policy';
import type { ObjectStore } from '../../../storage/object-store';
import { writeCheckpoint } from '../log/checkpoint';
import { latestVersion } from '../log/latest';
import { commitKey } from '../log/listing';
import { type LoadedState, loadState, readCommit, rememberCommitted } from '../log/snapshot';

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
  /**
   * The state `readVersion` was read as (DeltaTable.state). Given, the state the commit makes is remembered for
   * the table's next load in this process (ops/delta/log/snapshot.ts), from the winners the loop read anyway.
   */
  readState?: LoadedState;
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

export { latestVersion };

export async function commit(req: CommitRequest): Promise<CommitResult> {
  validateCommitActions(req.actions);
  if (req.appendOnly && req.actions.some((a) => 'remove' in a && a.remove.dataChange)) throw appendOnlyViolation();
  const body = new TextEncoder().encode(serializeCommit(req.actions));
  // Staged before the loop: each attempt is then only find the latest, judge the winners and claim, which keeps the
  // time in which another writer can take the version short. The bytes are the same in every attempt.
  const staged = req.store.stagePutIfAbsent
    ? await req.store.stagePutIfAbsent(commitKey(req.readVersion + 1), body)
    : null;
  try {
    return await commitLoop(req, body, (key) => (staged ? staged.putIfAbsent(key) : req.store.putIfAbsent(key, body)));
  } finally {
    await staged?.dispose();
  }
}

async function commitLoop(
  req: CommitRequest,
  body: Uint8Array,
  claim: (key: string) => Promise<boolean>,
): Promise<CommitResult> {
  const maxRetries = req.maxRetries ?? DEFAULT_MAX_RETRIES;
  let readVersion = req.readVersion;
  /** The winners' actions, in version order, each read once. */
  const winners: Action[][] = [];
  for (let attempt = 1; attempt <= maxRetries + 1; attempt++) {
    const latest = await latestVersion(req.store, readVersion);
    if (readVersion < 0 && latest >= 0) throw tableAlreadyCreated();
    if (latest > readVersion) {
      // delta-rs fails here even when the winners would not conflict: no retries, no checking.
      if (maxRetries === 0) throw maxCommitAttempts(0);
      if (req.checkWinner) winners.push(...(await checkWinners(req.store, readVersion + 1, latest, req.checkWinner)));
      readVersion = latest;
    }
    const version = readVersion + 1;
    if (await claim(commitKey(version))) {
      await afterCommit(req, version, winners, body);
      return { version, attempts: attempt };
    }
    // delta-rs goes round again here (kernel/transaction/mod.rs L946-955), and on its next turn judges the entry
    // that took the version as a winner, even when that entry is its own: an append then lands a second time.
    if (req.recogniseOwnCommit && sameBytes(await req.store.get(commitKey(version)), body)) {
      await afterCommit(req, version, winners, body);
      return { version, attempts: attempt, recognisedOwnCommit: true };
    }
    req.onAttemptFailed?.(attempt, version);
  }
  throw maxCommitAttempts(maxRetries);
}

/**
 * Judges the winning commits `from`..`to` in order, as delta-rs does (the first conflict ends it). They are read
 * at once, one round trip on S3 instead of one per winner; a read that fails counts only when every winner before
 * it passed, so what is reported is what reading them one by one reports.
 */
async function checkWinners(
  store: ObjectStore,
  from: number,
  to: number,
  check: (winner: WinningCommit) => void,
): Promise<Action[][]> {
  const reads = Array.from({ length: to - from + 1 }, (_, i) => readCommit(store, from + i));
  // Those after a conflict are never awaited: their failures are not this commit's.
  for (const r of reads) r.catch(() => {});
  const judged: Action[][] = [];
  for (const [i, read] of reads.entries()) {
    const actions = await read;
    check({ version: from + i, actions });
    judged.push(actions);
  }
  return judged;
}

/**
 * A commit's bytes are its own: commitInfo carries its timestamp and every add a new file name, so another
 * writer's entry never matches byte for byte.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

async function afterCommit(req: CommitRequest, version: number, winners: Action[][], body: Uint8Array): Promise<void> {
  // Every version between the read and this one was judged (a loop without a checker reads none).
  if (req.readState && req.readState.version + winners.length + 1 === version) {
    const own = parseCommitText(new TextDecoder().decode(body), `${req.store.location}/${commitKey(version)}`);
    await rememberCommitted(req.store, req.readState, [...winners, own]);
  }
  const every = req.checkpointEvery ?? 100;
  if (req.createCheckpoint === false || (version + 1) % every !== 0) return;
  await writeCheckpoint(req.store, await loadState(req.store, version));
}
