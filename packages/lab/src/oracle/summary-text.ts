/** The verdict in words a person reads at a glance. */
import { agree, plural } from '@racelab/contracts';
import type { WriterOperation, WriterSpec } from '../cases/catalog';
import type { CaseResult, RunVerdict } from '../results/types';

export const thousands = (n: number) => n.toLocaleString('en-US');
export const rows = (n: number) => plural(n, 'row');

export const SERIALIZABLE_SUMMARY = 'data OK';

const OPERATION_WORDS: Record<WriterOperation['kind'], string> = {
  append: 'append',
  update: 'update',
  delete: 'delete',
  optimize: 'compaction',
  'check-then-append': 'check-then-append',
  'overwrite-day': 'overwrite',
  overwrite: 'overwrite',
  command: 'job',
};

export const operationWord = (op: WriterOperation) => OPERATION_WORDS[op.kind];

/** "vendor1's update failed": a failed writer's words name it, so two runs' failures never read alike. */
export const failedWords = (writer: string, operation: string) => `${writer}'s ${operation} failed`;

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
    rows: (n) =>
      eq ? `${thousands(n)} ${eq[1]} ${eq[2]} ${agree(n, 'row', 'rows')}` : `${rows(n)} matching ${predicate}`,
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

/** What one committed writer said of itself: the version it reports its commit as. */
export interface ReportedVersion {
  name: string;
  version: number;
}

const listed = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * Commits the log does not hold although their writers report them: per version that a writer reports and the
 * log gives to someone else, "feb01's commit lost: feb01 and feb02 both report version 1, the log holds feb02's".
 * `logOrder[v - 1]` names the writer of version v (another name: a commit of no writer of the run). This is what
 * a store whose put-if-absent does not hold does: it tells two writers that each claimed the same version.
 */
export function lostCommitWords(reported: readonly ReportedVersion[], logOrder: readonly string[]): string[] {
  const byVersion = new Map<number, string[]>();
  for (const r of reported) byVersion.set(r.version, [...(byVersion.get(r.version) ?? []), r.name]);
  const out: string[] = [];
  for (const [version, names] of [...byVersion].sort((a, b) => a[0] - b[0])) {
    const holder = logOrder[version - 1];
    const lost = names.filter((n) => n !== holder);
    if (lost.length === 0) continue;
    const who = lost.length === 1 ? `${lost[0]}'s commit lost` : `the commits of ${listed(lost)} lost`;
    const claim =
      names.length === 1
        ? `${names[0]} reports version ${version}`
        : `${listed(names)} ${names.length === 2 ? 'both' : 'all'} report version ${version}`;
    const held =
      holder === undefined
        ? 'the log has no such version'
        : names.includes(holder)
          ? `the log holds ${holder}'s`
          : 'the log holds another commit there';
    out.push(`${who}: ${claim}, ${held}`);
  }
  return out;
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
