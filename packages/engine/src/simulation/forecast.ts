/**
 * The conflict forecast for two writers, the one simulation every forecast in the product runs (the
 * lab's, the API's predictConflict, the jobs audit, the playground in the browser). Both writers
 * read the facts' snapshot; FIRST commits; SECOND's commit loop then finds that version taken and,
 * as delta-rs 1.6.x does, fails at once when its retries are off, else lets the conflict checker
 * judge FIRST's commit under the table's isolation level as delta-rs parses it. A refused SECOND
 * with a retry loop reopens the table and redoes its change, with no rival left. Pure.
 */
import { type ConflictCheck, checkWinner } from '../delta/commit/conflict-checker';
import { type CommitFailureKind, conflictError, maxCommitAttempts } from '../delta/commit/errors';
import { effectiveIsolationLevel, type IsolationLevel } from '../delta/commit/isolation';
import { DEFAULT_MAX_RETRIES } from '../delta/commit/retries';
import type { SimulatedCommit } from './commits';
import type { SimulationFacts } from './facts';
import { type SimulatedWriter, writerCommit } from './writers';

/**
 * One object, so that what the forecast is for can grow (the engine whose rules apply, when a
 * forecast names it) without changing its callers.
 */
export interface ConflictInput {
  facts: SimulationFacts;
  first: SimulatedWriter;
  second: SimulatedWriter;
}

/** A commit refused with CommitFailedError. */
export interface Refusal {
  /** The error's text, byte for byte. */
  message: string;
  kind: CommitFailureKind;
  /** The checker's step that refused it; null when the commit failed before any check (retries off). */
  check: ConflictCheck | null;
}

/** One writer's fate, in the terms the lab records a writer's run in. */
export interface WriterForecast {
  name: string;
  committed: boolean;
  /** Its change found nothing to do (no matching row, nothing to compact, the day already there). */
  nothingToCommit: boolean;
  /** The table version its commit takes. */
  version: number | null;
  /** How many times it ran its whole change (1 without a retry loop). */
  attempts: number;
  /** Versions its final attempt found taken and moved past; null unless it committed. */
  commitRetries: number | null;
  /** The refusals of attempts its retry loop redid, with the version each had read. */
  attemptErrors: (Refusal & { attempt: number; readVersion: number })[];
  /** The refusal it ended with; null when it committed or had nothing to commit. */
  error: Refusal | null;
  /** Files its commit removes and adds; null when it did not commit, or committed in a redo (whose files depend on rows FIRST wrote). */
  filesRemoved: number | null;
  filesAdded: number | null;
  /** Files of the read snapshot its first attempt read (its predicate could see; every file without one). */
  readsFiles: number;
}

export interface ConflictForecast {
  isolationLevel: IsolationLevel;
  /** False only when SECOND ends refused; a writer with nothing to commit does not fail. */
  secondCommits: boolean;
  /** SECOND's first refusal: the checker's step, its kind and the CommitFailedError text (all null when none). */
  failedCheck: ConflictCheck | null;
  conflictKind: CommitFailureKind | null;
  message: string | null;
  /** Files FIRST's commit removes (rewrites or compacts) and adds. */
  firstTouchesFiles: number;
  firstAddsFiles: number;
  /** Files of the read snapshot SECOND's predicate could see (every file when it has none). */
  secondReadsFiles: number;
  /** Names of the writers whose change would find nothing to do. */
  nothingToCommit: string[];
  first: WriterForecast;
  second: WriterForecast;
}

const count = (c: SimulatedCommit, kind: 'add' | 'remove') => c.actions.filter((a) => kind in a).length;

function writerForecast(
  writer: SimulatedWriter,
  commit: SimulatedCommit | null,
  fate: Pick<WriterForecast, 'committed' | 'version' | 'attempts' | 'commitRetries' | 'attemptErrors' | 'error'>,
): WriterForecast {
  // A redo commits files of its own on the table FIRST left: not these.
  const counted = fate.committed && fate.attempts === 1 && commit !== null;
  return {
    name: writer.name,
    nothingToCommit: commit === null,
    ...fate,
    filesRemoved: counted ? count(commit, 'remove') : null,
    filesAdded: counted ? count(commit, 'add') : null,
    readsFiles: commit?.reads.readFiles.size ?? 0,
  };
}

/** Why SECOND's commit, read at `version`, fails once FIRST took the next version; null when it goes through. */
function refusal(
  writer: SimulatedWriter,
  own: SimulatedCommit,
  winner: SimulatedCommit,
  version: number,
  level: IsolationLevel,
): Refusal | null {
  const retries =
    writer.change.kind === 'optimize' ? DEFAULT_MAX_RETRIES : (writer.maxCommitRetries ?? DEFAULT_MAX_RETRIES);
  if (retries === 0) return { message: maxCommitAttempts(0).message, kind: 'MaxCommitAttempts', check: null };
  const c = checkWinner(own.reads, { version: version + 1, actions: winner.actions }, level);
  return c && { message: conflictError(c).message, kind: c.kind, check: c.check };
}

/** Both writers read the facts' snapshot; FIRST commits; is SECOND's commit refused, and how does it end? */
export function simulateConflict(input: ConflictInput): ConflictForecast {
  const { facts } = input;
  const read = facts.snapshot.version;
  const level = effectiveIsolationLevel(facts.snapshot.configuration);
  const a = writerCommit(facts, input.first, 'first');
  const b = writerCommit(facts, input.second, 'second');
  const none = { committed: false, version: null, attempts: 1, commitRetries: null, attemptErrors: [], error: null };
  const committed = (version: number, commitRetries: number) => ({ ...none, committed: true, version, commitRetries });
  const first = writerForecast(input.first, a, a ? committed(read + 1, 0) : none);
  const refused = a && b ? refusal(input.second, b, a, read, level) : null;
  const landed = read + (a ? 2 : 1);
  const second = writerForecast(
    input.second,
    b,
    !b
      ? none
      : !refused
        ? committed(landed, a ? 1 : 0)
        : (input.second.retryLoop ?? 1) > 1
          ? // The redo reads the version FIRST made and meets no rival.
            { ...committed(landed, 0), attempts: 2, attemptErrors: [{ ...refused, attempt: 1, readVersion: read }] }
          : { ...none, error: refused },
  );
  return {
    isolationLevel: level,
    secondCommits: second.error === null,
    failedCheck: refused?.check ?? null,
    conflictKind: refused?.kind ?? null,
    message: refused?.message ?? null,
    firstTouchesFiles: first.filesRemoved ?? 0,
    firstAddsFiles: first.filesAdded ?? 0,
    secondReadsFiles: second.readsFiles,
    nothingToCommit: [first, second].filter((w) => w.nothingToCommit).map((w) => w.name),
    first,
    second,
  };
}
