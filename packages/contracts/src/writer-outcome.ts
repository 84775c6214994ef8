/**
 * A writer's outcome in one word, shared by the lab's results, the API and the dashboard: it committed, it
 * failed, or it had nothing to commit (its operation matched no rows, its check found its rows already there,
 * a compaction found nothing to compact). The last is no failure: the writer ended without an error and left
 * the table as it was. Results without an `outcome` field are read from the fields every writer carries.
 */

export const WRITER_OUTCOMES = ['committed', 'failed', 'nothing-to-commit'] as const;
export type WriterOutcomeKind = (typeof WRITER_OUTCOMES)[number];

/** The warning a writer reports when its change had nothing to commit. */
export const NOTHING_TO_COMMIT = 'nothing to commit';

/** What a writer's outcome is read from: the fields of every stored writer. */
export interface OutcomeFields {
  committed: boolean;
  errorMessage: string | null;
  warnings?: readonly string[] | null;
  /** Given when the writer's results carry it. */
  outcome?: WriterOutcomeKind | null;
}

export function writerOutcomeOf(w: OutcomeFields): WriterOutcomeKind {
  if (w.outcome) return w.outcome;
  if (w.committed) return 'committed';
  return w.errorMessage === null && (w.warnings ?? []).includes(NOTHING_TO_COMMIT) ? 'nothing-to-commit' : 'failed';
}

/** Operations whose rows are chosen by a predicate: with none matching, they have nothing to change. */
const BY_PREDICATE = new Set(['update', 'delete', 'postgres-update']);

/** A nothing-to-commit outcome in words: "matched no rows: nothing to commit" for a delete or an update. */
export const nothingToCommitWords = (operation: string): string =>
  BY_PREDICATE.has(operation) ? `matched no rows: ${NOTHING_TO_COMMIT}` : NOTHING_TO_COMMIT;

/** A writer's nothing-to-commit outcome in a sentence: "del1's delete matched no rows: nothing to commit". */
export const nothingToCommitSummary = (name: string, operation: string): string =>
  BY_PREDICATE.has(operation)
    ? `${name}'s ${operation} ${nothingToCommitWords(operation)}`
    : `${name}'s ${operation}: ${NOTHING_TO_COMMIT}`;

const COUNT_WORDS = ['none', 'one', 'both', 'three', 'all 4'];

/**
 * A run's writers at a glance: "both commit", "one commits, one fails"; a writer with nothing to commit is neither
 * ("both matched no rows: nothing to commit", "one commits, one matched no rows: nothing to commit").
 */
export function outcomePattern(writers: readonly { operation: string; outcome: WriterOutcomeKind }[]): string {
  const n = writers.length;
  const count = (o: WriterOutcomeKind) => writers.filter((w) => w.outcome === o).length;
  const [ok, failed, idle] = [count('committed'), count('failed'), count('nothing-to-commit')];
  // "matched no rows: nothing to commit" when every such writer chose its rows by a predicate.
  const said = new Set(
    writers.filter((w) => w.outcome === 'nothing-to-commit').map((w) => nothingToCommitWords(w.operation)),
  );
  const nothing = said.size === 1 ? ([...said][0] as string) : NOTHING_TO_COMMIT;
  const all = (verb: string) => (n === 2 ? `both ${verb}` : `all ${n} ${verb}`);
  if (ok === n) return all('commit');
  if (failed === n) return all('fail');
  if (idle === n) return all(nothing);
  const word = (k: number) => COUNT_WORDS[k] ?? String(k);
  const parts = [
    ok > 0 && `${word(ok)} commit${ok === 1 ? 's' : ''}`,
    failed > 0 && `${word(failed)} fail${failed === 1 ? 's' : ''}`,
    // Last: its words hold a colon.
    idle > 0 && `${word(idle)} ${nothing}`,
  ];
  return parts.filter((p): p is string => typeof p === 'string').join(', ');
}
