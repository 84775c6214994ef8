/**
 * Loads the table's state at its latest version or at any earlier one (time travel): start from the
 * newest complete checkpoint at or below the version, then apply every commit after it in order.
 *
 * A latest load in a process that loaded the same table before is incremental, as delta-rs updates a
 * snapshot it holds: the remembered state plus the commits after it. It is the state a full load
 * would give as long as the log below the remembered version is what it was, so it is used only while
 * that version's entry has the same identity (inode, size and times locally; ETag on S3: a table
 * replaced at the same place has other files) and `_last_checkpoint` is unchanged (after a new
 * checkpoint the next load reads it, and says so in `checkpointVersion`). Time travel always loads in full.
 *
 * A checkpoint that cannot be read (not Parquet or JSON, a part or sidecar gone, actions of the wrong shape) is
 * skipped for an earlier one, or for the JSON commits from version 0, when the commits after that are all there:
 * the state is the same, and `warnings` names the skipped checkpoint. Without such a way round, the load fails
 * naming it.
 */

import { StateBuilder, type TableState } from '../../../kernel/delta/log/replay';
import type { Action } from '../../../kernel/delta/protocol/actions';
import { LogFormatError, parseCommitText } from '../../../kernel/delta/protocol/validate';
import { NotFoundError, type ObjectStore } from '../../../storage/object-store';
import { type ReadCheckpointOptions, readCheckpoint } from './checkpoint';
import { fileIdentity } from './checkpoint-cache';
import { latestVersion } from './latest';
import { type CheckpointFiles, commitKey, type LogListing, listLog, readLastCheckpoint } from './listing';

export class VersionNotFoundError extends Error {
  override name = 'VersionNotFoundError';
}

export interface LoadedState extends TableState {
  /** The checkpoint replay started from, or null for a JSON-only replay. */
  checkpointVersion: number | null;
  /** Checkpoints skipped because they could not be read, each named by its key in the table and why. */
  warnings: string[];
}

export async function readCommit(store: ObjectStore, version: number): Promise<Action[]> {
  const key = commitKey(version);
  return parseCommitText(new TextDecoder().decode(await store.get(key)), `${store.location}/${key}`);
}

/** The newest usable starting point for `version`, and the commits to apply after it. */
function plan(listing: LogListing, version: number, location: string) {
  const cp = [...listing.checkpoints].reverse().find((c) => c.version <= version) ?? null;
  const from = cp ? cp.version + 1 : 0;
  const missing: number[] = [];
  for (let v = from; v <= version; v++) if (!listing.commits.has(v)) missing.push(v);
  if (missing.length > 0) {
    const first = missing[0] as number;
    const detail = cp
      ? `the log has a gap after checkpoint ${cp.version}`
      : listing.checkpoints.length > 0 || listing.commits.size > 0
        ? 'no checkpoint at or below it, and earlier commits are gone'
        : 'the log is empty';
    throw new VersionNotFoundError(
      `${location}: cannot load version ${version}: commit ${String(first).padStart(20, '0')}.json is missing (${detail})`,
    );
  }
  return { cp, from };
}

/** `cacheDir`: the disk cache of parsed checkpoints; by default `RACELAB_CACHE_DIR`, none when that is unset. */
export type LoadOptions = ReadCheckpointOptions;

/** The checkpoint a full load started from: its files, and the actions readCheckpoint gave for them. */
interface StartingCheckpoint {
  files: CheckpointFiles;
  actions: Action[];
}

/** A latest state this process loaded, and what it must still find in the log to be updated instead of reloaded. */
interface Remembered {
  state: LoadedState;
  /** The identity of the state's own commit entry. */
  identity: string;
  /** `_last_checkpoint` as it was read before the load, or null when there was none. */
  hint: string | null;
  checkpoint: StartingCheckpoint | null;
}

/** By table location; the oldest is dropped past REMEMBERED_TABLES. */
const remembered = new Map<string, Remembered>();
const REMEMBERED_TABLES = 16;

/**
 * Which remembered state each state handed out is a copy of. Callers get their own maps (a caller changing its
 * state must not change the next load's), and a commit on top of one is told from this which state it extends.
 */
const copiesOf = new WeakMap<LoadedState, Remembered>();

function handOut(r: Remembered): LoadedState {
  const s = r.state;
  const copy: LoadedState = {
    ...s,
    files: new Map(s.files),
    tombstones: new Map(s.tombstones),
    appTransactions: new Map(s.appTransactions),
    domainMetadata: new Map(s.domainMetadata),
  };
  copiesOf.set(copy, r);
  return copy;
}

const hintText = async (store: ObjectStore) => {
  const hint = await readLastCheckpoint(store);
  return hint === null ? null : JSON.stringify(hint);
};

async function identityOf(store: ObjectStore, version: number): Promise<string | null> {
  const meta = await store.head(commitKey(version));
  return meta ? fileIdentity(meta) : null;
}

/**
 * Whether the checkpoint is still the one the state started from. readCheckpoint keeps parsed checkpoints by the
 * identity of their files and sidecars (checkpoint.ts), so it gives the very same actions back, without parsing,
 * exactly while none of them changed.
 */
async function sameCheckpoint(store: ObjectStore, cp: StartingCheckpoint | null, options: LoadOptions) {
  if (cp === null) return true;
  // Gone or unreadable now: a full load finds what the log holds instead, and says what is wrong with it.
  const again = await readCheckpoint(store, cp.files, options).catch(() => null);
  return again === cp.actions;
}

/**
 * The remembered state brought up to `requested` (default: the latest version), or null when it cannot be: nothing
 * kept, the log changed under it, or `requested` lies before it or beyond the log (a full load says why).
 */
async function updated(
  store: ObjectStore,
  requested: number | undefined,
  options: LoadOptions,
): Promise<LoadedState | null> {
  const r = remembered.get(store.location);
  if (!r || (requested !== undefined && !(Number.isInteger(requested) && requested >= r.state.version))) return null;
  const [identity, hint, checkpoint] = await Promise.all([
    identityOf(store, r.state.version),
    hintText(store),
    sameCheckpoint(store, r.checkpoint, options),
  ]);
  if (identity !== r.identity || hint !== r.hint || !checkpoint) return null;
  const latest = await latestVersion(store, r.state.version);
  const version = requested ?? latest;
  if (version > latest) return null;
  if (version === r.state.version) return handOut(r);
  const commits = await Promise.all(
    Array.from({ length: version - r.state.version }, (_, i) => readCommit(store, r.state.version + 1 + i)),
  );
  const state = extended(store, r.state, commits);
  if (version !== latest) return state;
  const kept = await remember(store, state, r.hint, r.checkpoint);
  return kept ? handOut(kept) : state;
}

/** `base` with the commits after it applied, in order. */
function extended(store: ObjectStore, base: LoadedState, commits: readonly Action[][]): LoadedState {
  const builder = StateBuilder.from(base);
  for (const actions of commits) builder.apply(actions);
  const version = base.version + commits.length;
  return {
    ...builder.build(version, store.location),
    checkpointVersion: base.checkpointVersion,
    warnings: base.warnings,
  };
}

/** Keeps `state` as the table's latest; null when it cannot be kept. */
async function remember(
  store: ObjectStore,
  state: LoadedState,
  hint: string | null,
  checkpoint: StartingCheckpoint | null,
): Promise<Remembered | null> {
  const identity = await identityOf(store, state.version);
  remembered.delete(store.location);
  // A store without identities (no etag) could not tell a replaced table: its states are not kept.
  if (identity === null) return null;
  if (remembered.size >= REMEMBERED_TABLES) remembered.delete(remembered.keys().next().value as string);
  const r = { state, identity, hint, checkpoint };
  remembered.set(store.location, r);
  return r;
}

/**
 * After this process committed on top of `base` (a state loadState gave): `entries` are the actions of every
 * version after `base` up to the new one (the winners its commit loop read, then its own entry). The state they
 * make is remembered as if loaded, so the next load reads only what others committed since; nothing is kept
 * unless `base` is the state remembered for the table (whose log was checked when it was loaded).
 */
export async function rememberCommitted(store: ObjectStore, base: LoadedState, entries: Action[][]): Promise<void> {
  const r = remembered.get(store.location);
  if (!r || copiesOf.get(base) !== r) return;
  await remember(store, extended(store, r.state, entries), r.hint, r.checkpoint);
}

export async function loadState(
  store: ObjectStore,
  requested?: number,
  options: LoadOptions = {},
): Promise<LoadedState> {
  const current = await updated(store, requested, options);
  if (current) return current;
  if (requested !== undefined) return (await fullLoad(store, requested, options)).state;
  const hint = await hintText(store);
  const { state, checkpoint } = await fullLoad(store, undefined, options);
  const kept = await remember(store, state, hint, checkpoint);
  return kept ? handOut(kept) : state;
}

/** A checkpoint that could not be read, and why. */
interface Skipped {
  files: CheckpointFiles;
  error: Error;
}

/** One line saying a checkpoint was skipped, and for what; files are named by their keys, never a local path. */
function skippedWarning(store: ObjectStore, { files, error }: Skipped, version: number, used: CheckpointFiles | null) {
  const where = files.keys.join(', ');
  const reason = error.message
    .replaceAll(`${store.location.replace(/\/$/, '')}/`, '')
    .replace(`${where}: `, '')
    .replace(/\s+/g, ' ');
  const source = used ? `checkpoint ${used.version}` : 'the JSON commits from version 0';
  return `${where}: unreadable checkpoint skipped, version ${version} loaded from ${source} instead (${reason})`;
}

async function fullLoad(
  store: ObjectStore,
  requested: number | undefined,
  options: LoadOptions,
): Promise<{ state: LoadedState; checkpoint: StartingCheckpoint | null }> {
  let listing = await listLog(store, requested);
  const version = requested ?? listing.latestVersion;
  if (!Number.isInteger(version) || version < 0) {
    throw new VersionNotFoundError(`${store.location}: version must be a non-negative integer, got ${requested}`);
  }
  if (version > listing.latestVersion) {
    throw new VersionNotFoundError(
      `${store.location}: version ${version} does not exist; the latest version is ${listing.latestVersion}`,
    );
  }
  const skipped: Skipped[] = [];
  for (;;) {
    const usable = listing.checkpoints.filter((c) => !skipped.some((s) => s.files.keys[0] === c.keys[0]));
    let start: ReturnType<typeof plan>;
    try {
      start = plan({ ...listing, checkpoints: usable }, version, store.location);
    } catch (e) {
      const first = skipped[0];
      if (!first || !(e instanceof VersionNotFoundError)) throw e;
      throw new LogFormatError(
        `${first.error.message}; no earlier checkpoint or complete JSON log to load version ${version} from instead`,
      );
    }
    const { cp, from } = start;
    let checkpoint: StartingCheckpoint | null = null;
    if (cp) {
      try {
        checkpoint = { files: cp, actions: await readCheckpoint(store, cp, options) };
      } catch (e) {
        if (!(e instanceof LogFormatError || e instanceof NotFoundError)) throw e;
        skipped.push({ files: cp, error: e });
        // The listing may have started at this checkpoint (`_last_checkpoint`): the way round needs all of the log.
        if (skipped.length === 1) listing = await listLog(store, requested, true);
        continue;
      }
    }
    const builder = new StateBuilder();
    if (checkpoint) builder.apply(checkpoint.actions);
    // Fetch the commits in parallel (one round trip on S3), apply them in order.
    const commits = await Promise.all(
      Array.from({ length: version - from + 1 }, (_, i) => readCommit(store, from + i)),
    );
    for (const actions of commits) builder.apply(actions);
    const warnings = skipped.map((s) => skippedWarning(store, s, version, cp));
    const state = { ...builder.build(version, store.location), checkpointVersion: cp ? cp.version : null, warnings };
    return { state, checkpoint };
  }
}
