/** The verdict in words a person reads at a glance. */
import type { WriterOperation, WriterSpec } from '../cases/catalog';
import type { CaseResult, RunVerdict } from '../results/types';

export const thousands = (n: number) => n.toLocaleString('en-US');
const rowNoun = (n: number) => (n === 1 ? 'row' : 'rows');
export const rows = (n: number) => `${thousands(n)} ${rowNoun(n)}`;

export const SERIALIZABLE_SUMMARY = 'data OK';

const OPERATION_WORDS: Record<WriterOperation['kind'], string> = {
  append: 'append',
  update: 'update',
  delete: 'delete',
  optimize: 'compaction',
  'check-then-append': 'check-then-append',
  'overwrite-day': 'overwrite',
  overwrite: 'overwrite',
};

export const operationWord = (op: WriterOperation) => OPERATION_WORDS[op.kind];

/** An order by the writers' changes ("update", "append"); writers doing the same kind of change by name. */
export function orderLabels(order: string[], writers: WriterSpec[]): string[] {
  const specs = order.map((name) => writers.find((w) => w.name === name) as WriterSpec);
  const words = specs.map((w) => operationWord(w.operation));
  return new Set(words).size === words.length ? words : specs.map((w) => w.name);
}

/** "reordered: update before append, as WriteSerializable allows". */
export const reorderedSummary = (labels: readonly string[], allowedBy: string) =>
  `reordered: ${labels.join(' before ')}, as ${allowedBy} allows`;

/** "VendorID 7" for a simple equality as written, else the predicate quoted. */
export function describePredicate(predicate: string): { rows: (n: number) => string } {
  const eq = /^\s*"?(\w+)"?\s*=\s*'?([^'=<>]*?)'?\s*$/.exec(predicate);
  return {
    rows: (n) => (eq ? `${thousands(n)} ${eq[1]} ${eq[2]} ${rowNoun(n)}` : `${rows(n)} matching ${predicate}`),
  };
}

/** "7,929 rows written twice", with what else differs. */
export function notSerializableSummary(d: Pick<RunVerdict, 'rowsDuplicated' | 'rowsMissing' | 'rowsExtra'>): string {
  const parts = [
    d.rowsDuplicated && `${rows(d.rowsDuplicated)} written twice`,
    d.rowsMissing && `${rows(d.rowsMissing)} missing`,
    d.rowsExtra && `${rows(d.rowsExtra)} no serial order writes`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length > 0 ? parts.join(', ') : 'rows differ';
}

/** A case's runs at a glance: each distinct verdict with how many runs said it ("data OK in 5 of 5"). */
export function caseVerdict(c: CaseResult): string {
  const counts = new Map<string, number>();
  for (const run of c.runs) {
    const summary = run.verdict?.summary ?? 'no verdict';
    counts.set(summary, (counts.get(summary) ?? 0) + 1);
  }
  return [...counts].map(([summary, n]) => `${summary} in ${n} of ${c.runs.length}`).join('; ');
}
