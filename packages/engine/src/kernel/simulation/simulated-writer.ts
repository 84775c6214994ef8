/**
 * A writer as the simulation knows it: the change it makes, in Delta's terms, its engine and its two
 * retry settings. The lab's cases, the playground's menu and the jobs audit say what their writers
 * do this way.
 */
import type { CheckedLibrary } from '../conflict/writer-libraries';
import { compactionBins } from '../delta/compaction-bins';
import { targetFileSize } from '../delta/protocol/config';
import { ExpressionError, parsePredicate, parseUpdateExpression, resolveColumn } from '../sql/index';
import {
  appendCommit,
  compactionCommit,
  overwriteCommit,
  rewriteCommit,
  type SimulatedCommit,
} from './simulated-commit';
import type { SimulationFacts } from './simulation-facts';

export type WriterChange =
  /**
   * New rows, named for the facts (`appended`). `blind`: a delta-rs writer passes `isBlindAppend:
   * true` as commit metadata. `checksFirst`: it scans the table before appending (a check whose rows
   * the facts do not know), so Delta Spark does not call it blind.
   */
  | { kind: 'append'; rows: string; blind?: boolean; checksFirst?: boolean }
  /** Counts the rows matching `check` in the version it read and appends `rows` only when there are none. */
  | { kind: 'check-then-append'; check: string; rows: string }
  /** Overwrite with a predicate: every row matching `predicate` is replaced by `rows`. */
  | { kind: 'overwrite'; predicate: string; rows: string }
  | { kind: 'update'; predicate: string; set: Readonly<Record<string, string>> }
  | { kind: 'delete'; predicate: string }
  | { kind: 'optimize' };

export interface SimulatedWriter {
  /** Named in errors and in `nothingToCommit`. */
  name: string;
  change: WriterChange;
  /**
   * The engine that writes its commit (default delta-rs, the only one races run). It decides the
   * commitInfo a winner leaves for the loser's checker; the checker that judges a loser is chosen
   * per forecast (every engine's, side by side).
   */
  engine?: CheckedLibrary;
  /** delta-rs `max_commit_retries` (default 15; OPTIMIZE always gets the default). */
  maxCommitRetries?: number;
  /** The application's loop: on CommitFailedError, reopen the table and redo the whole change, up to this many tries. */
  retryLoop?: number;
}

export class ForecastError extends Error {
  override name = 'ForecastError';
}

/** An expression error that names the writer and the part it came from, e.g. `writer 'w' predicate: …`. */
export function writerExpressionError(writer: string, part: string, e: unknown): unknown {
  return e instanceof ExpressionError ? new ExpressionError(`writer '${writer}' ${part}: ${e.message}`, e.position) : e;
}

function parsed<T>(writer: SimulatedWriter, part: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw writerExpressionError(writer.name, part, e);
  }
}

/** The commit `writer` would make on the facts' snapshot, or null when it would find nothing to commit. */
export function writerCommit(facts: SimulationFacts, writer: SimulatedWriter, tag: string): SimulatedCommit | null {
  const { snapshot } = facts;
  const { change } = writer;
  const author = { engine: writer.engine ?? 'delta-rs', tag };
  const predicateOf = (text: string) => parsed(writer, 'predicate', () => parsePredicate(text, snapshot.schema));
  const nonEmpty = (c: SimulatedCommit) => (c.actions.length > 1 ? c : null);
  switch (change.kind) {
    case 'append':
      return nonEmpty(
        appendCommit(
          snapshot,
          facts.appended(change.rows),
          { readsTable: change.checksFirst === true, claimsBlind: change.blind },
          author,
        ),
      );
    case 'check-then-append': {
      predicateOf(change.check);
      // The job's own count before it writes: rows already there mean it appends nothing.
      if ([...facts.matches(change.check).values()].some((n) => n > 0)) return null;
      return nonEmpty(appendCommit(snapshot, facts.appended(change.rows), { readsTable: true }, author));
    }
    case 'overwrite':
      return overwriteCommit(
        snapshot,
        predicateOf(change.predicate),
        facts.matches(change.predicate),
        facts.appended(change.rows),
        author,
      );
    case 'update':
    case 'delete': {
      const predicate = predicateOf(change.predicate);
      const setColumns = Object.entries(change.kind === 'update' ? change.set : {}).map(([col, text]) =>
        parsed(writer, `set ${col}`, () => {
          const name = resolveColumn(snapshot.schema, col).name;
          parseUpdateExpression(text, snapshot.schema, name);
          return name;
        }),
      );
      if (change.kind === 'update' && setColumns.length === 0) {
        throw new ForecastError(`writer '${writer.name}': an update needs at least one column to set`);
      }
      const matches = facts.matches(change.predicate);
      // The engine commits nothing when no row matches.
      if (![...matches.values()].some((n) => n > 0)) return null;
      return rewriteCommit(snapshot, change.kind, predicate, matches, setColumns, author);
    }
    case 'optimize': {
      const bins = compactionBins(snapshot.files, targetFileSize(snapshot.configuration));
      return bins.length === 0 ? null : compactionCommit(snapshot, bins, author);
    }
    default:
      throw new ForecastError(`writer '${writer.name}': unknown change ${JSON.stringify(change)}`);
  }
}
