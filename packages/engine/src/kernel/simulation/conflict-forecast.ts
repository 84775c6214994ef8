/**
 * The conflict forecast for two writers, the one simulation every forecast in the product runs (the
 * lab's, the API's predictConflict, the jobs audit, the playground in the browser). Both writers
 * read the facts' snapshot; FIRST commits, its commitInfo written as its engine writes it; SECOND's
 * commit loop then finds that version taken. Under delta-rs 1.6.x (the forecast's main answer, the
 * engine races run) it fails at once when its retries are off, else the conflict checker judges
 * FIRST's commit under the table's isolation level as delta-rs parses it. A refused SECOND with a
 * retry loop reopens the table and redoes its change, with no rival left. `byEngine` then gives
 * SECOND's fate once per engine: judged by that engine's checker, under that engine's reading of
 * the isolation level. Pure.
 */

import { type CommitFailureKind, maxCommitAttempts } from '../conflict/errors';
import {
  effectiveIsolationLevel,
  ISOLATION_LEVEL_KEY,
  type IsolationLevel,
  readIsolationLevel,
} from '../conflict/isolation';
import { checkerFor, type LibraryConflict } from '../conflict/library-checkers';
import { CHECKED_LIBRARIES, type CheckedLibrary } from '../conflict/writer-libraries';
import { DEFAULT_MAX_RETRIES } from '../retry/policy';
import type { SimulatedCommit } from './simulated-commit';
import { type SimulatedWriter, writerCommit } from './simulated-writer';
import type { SimulationFacts } from './simulation-facts';
import { engineNote } from './spark-measured';

/** One object, so that what the forecast is for can grow without changing its callers. */
export interface ConflictInput {
  facts: SimulationFacts;
  first: SimulatedWriter;
  second: SimulatedWriter;
}

/** A commit refused: with CommitFailedError under delta-rs, with the engine's own exception otherwise. */
export interface Refusal {
  /** The class of the error raised (`CommitFailedError`, or a Spark exception's). */
  exceptionClass?: string;
  /** The error's text, byte for byte as the engine words it. */
  message: string;
  kind: CommitFailureKind | LibraryConflict['kind'];
  /** The checker's step that refused it; null when the commit failed before any check (retries off). */
  check: LibraryConflict['check'] | null;
}

/** SECOND's fate as one engine's writer: written and judged by that engine. */
export interface EngineForecast {
  engine: CheckedLibrary;
  /** The table's level as this engine reads `delta.isolationLevel`; null when it cannot read it (its every commit fails). */
  isolationLevel: IsolationLevel | null;
  /** SECOND ends committed (after its redo loop, if it has one); a writer with nothing to commit does not fail. */
  commits: boolean;
  /** The checker's step that refused SECOND's commit, and the engine's text for it; null when not refused. */
  failedCheck: LibraryConflict['check'] | null;
  message: string | null;
  /** The class of the error the refusal raises (`CommitFailedError`, `io.delta.exceptions.ConcurrentAppendException`); null when not refused. */
  exceptionClass: string | null;
  /**
   * Null for delta-rs (races run it); for Delta Spark, measured (naming the real run and the lab's case) where real
   * Delta Spark runs of the same kinds of writers and level agreed with the model, else modelled; for Databricks,
   * MODELLED_NOT_MEASURED (spark-measured.ts).
   */
  note: string | null;
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

/** The forecast under delta-rs 1.6.x, and SECOND's fate under every engine in `byEngine`. */
export interface ConflictForecast {
  /** The table's level as delta-rs parses it. */
  isolationLevel: IsolationLevel;
  /** False only when SECOND ends refused; a writer with nothing to commit does not fail. */
  secondCommits: boolean;
  /** SECOND's first refusal: the checker's step, its kind and the CommitFailedError text (all null when none). */
  failedCheck: LibraryConflict['check'] | null;
  conflictKind: Refusal['kind'] | null;
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
  /** SECOND as a writer of each of CHECKED_LIBRARIES, in that order; FIRST is written by its own engine throughout. */
  byEngine: EngineForecast[];
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

const refusalOf = (c: LibraryConflict): Refusal => ({
  message: c.error,
  kind: c.kind,
  check: c.check,
  exceptionClass: c.exceptionClass,
});

/** A refusal as a writer's forecast keeps it: the text, kind and check (the class is said per engine). */
const kept = ({ exceptionClass: _, ...r }: Refusal): Refusal => r;

/**
 * Why `own` fails under `engine` whatever committed before it: the engine cannot read the table's
 * isolation level (Delta Spark then throws at every commit). Null for a commit that may go through.
 */
function unreadableLevel(engine: CheckedLibrary, own: SimulatedCommit, facts: SimulationFacts): Refusal | null {
  const c = checkerFor(engine)(own.reads, null, facts.snapshot.configuration);
  return c && refusalOf(c);
}

/** Why SECOND's commit, read at `version`, fails under `engine` once FIRST took the next version; null when it goes through. */
function refusal(
  engine: CheckedLibrary,
  writer: SimulatedWriter,
  own: SimulatedCommit,
  winner: SimulatedCommit,
  version: number,
  facts: SimulationFacts,
): Refusal | null {
  // max_commit_retries is delta-rs's; Delta Spark retries up to its maxCommitAttempts (10,000,000).
  if (engine === 'delta-rs') {
    const retries =
      writer.change.kind === 'optimize' ? DEFAULT_MAX_RETRIES : (writer.maxCommitRetries ?? DEFAULT_MAX_RETRIES);
    if (retries === 0)
      return {
        message: maxCommitAttempts(0).message,
        kind: 'MaxCommitAttempts',
        check: null,
        exceptionClass: 'CommitFailedError',
      };
  }
  const c = checkerFor(engine)(
    own.reads,
    { version: version + 1, actions: winner.actions },
    facts.snapshot.configuration,
  );
  return c && refusalOf(c);
}

/** The table's level as `engine`'s checker reads it; null when Spark's cannot (its every commit fails). */
function levelFor(engine: CheckedLibrary, facts: SimulationFacts): IsolationLevel | null {
  // The engine's reading (isolation.ts) is the one answer /isolation and the audit show too.
  return readIsolationLevel(facts.snapshot.configuration[ISOLATION_LEVEL_KEY] ?? null, engine).effective;
}

/** SECOND as `engine`'s writer: refused by what, and does it end committed? */
function secondUnder(
  engine: CheckedLibrary,
  input: ConflictInput,
  own: SimulatedCommit | null,
  winner: SimulatedCommit | null,
): { refused: Refusal | null; commits: boolean } {
  if (!own) return { refused: null, commits: true };
  const always = unreadableLevel(engine, own, input.facts);
  if (always) return { refused: always, commits: false };
  const refused = winner && refusal(engine, input.second, own, winner, input.facts.snapshot.version, input.facts);
  return { refused, commits: !refused || (input.second.retryLoop ?? 1) > 1 };
}

/** Both writers read the facts' snapshot; FIRST commits; is SECOND's commit refused, and how does it end? */
export function simulateConflict(input: ConflictInput): ConflictForecast {
  const { facts } = input;
  const read = facts.snapshot.version;
  const a = writerCommit(facts, input.first, 'first');
  const b = writerCommit(facts, input.second, 'second');
  const none = { committed: false, version: null, attempts: 1, commitRetries: null, attemptErrors: [], error: null };
  const committed = (version: number, commitRetries: number) => ({ ...none, committed: true, version, commitRetries });
  // FIRST's own engine may be unable to commit on this table at all: then nothing wins.
  const firstFails = a && unreadableLevel(input.first.engine ?? 'delta-rs', a, facts);
  const winner = firstFails ? null : a;
  const first = writerForecast(
    input.first,
    a,
    !a ? none : firstFails ? { ...none, error: kept(firstFails) } : committed(read + 1, 0),
  );
  const fates = CHECKED_LIBRARIES.map((engine) => ({ engine, ...secondUnder(engine, input, b, winner) }));
  // The forecast's own fields are delta-rs's: the engine races run.
  const { refused } = fates.find((f) => f.engine === 'delta-rs') as (typeof fates)[number];
  const landed = read + (winner ? 2 : 1);
  const second = writerForecast(
    input.second,
    b,
    !b
      ? none
      : !refused
        ? committed(landed, winner ? 1 : 0)
        : (input.second.retryLoop ?? 1) > 1
          ? // The redo reads the version FIRST made and meets no rival.
            {
              ...committed(landed, 0),
              attempts: 2,
              attemptErrors: [{ ...kept(refused), attempt: 1, readVersion: read }],
            }
          : { ...none, error: kept(refused) },
  );
  return {
    isolationLevel: effectiveIsolationLevel(facts.snapshot.configuration),
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
    byEngine: fates.map((f) => ({
      engine: f.engine,
      isolationLevel: levelFor(f.engine, facts),
      commits: f.commits,
      failedCheck: f.refused?.check ?? null,
      message: f.refused?.message ?? null,
      exceptionClass: f.refused?.exceptionClass ?? null,
      note: engineNote(f.engine, input.first, input.second, facts, levelFor(f.engine, facts)),
    })),
  };
}
