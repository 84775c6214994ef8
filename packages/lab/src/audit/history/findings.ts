/**
 * What the re-judged commits and the duplicated keys say about a table, as findings: each rule reports only with the
 * commits its evidence rests on, and says what to change. The rules are described for people and CI formats in
 * formats/history-rule-help.ts.
 */

import { plural } from '@racelab/contracts';
import {
  camelCaseSpelling,
  type IsolationLevel,
  intendedLevel,
  readIsolationLevel,
  type WriterLibrary,
} from '@racelab/engine';
import type { DuplicateKeys, HistoryCommit, HistoryFinding, LibraryJudgement, Rejudgement } from './types';

/** Versions listed in a sentence, the first ten and how many more. */
export const versionsText = (versions: readonly number[]): string =>
  versions.length <= 10 ? versions.join(', ') : `${versions.slice(0, 10).join(', ')} and ${versions.length - 10} more`;

/** The judgement of `library` under `level`. */
const under = (r: Rejudgement, library: string, level: IsolationLevel): LibraryJudgement | undefined =>
  r.judgements.find((j) => j.library === library && j.level === level);

/** The next stricter level: what a commit that landed under `level` would have met without it. */
const STRICTER: Partial<Record<IsolationLevel, IsolationLevel>> = {
  WriteSerializable: 'Serializable',
  SnapshotIsolation: 'WriteSerializable',
};

/** A judged commit's own library read the property in force as `level`, and under the stricter level it fails. */
function landedOnlyUnder(level: IsolationLevel, r: Rejudgement): LibraryJudgement | null {
  const stricter = STRICTER[level];
  if (r.cannotJudge !== null || r.library === null || !stricter) return null;
  const read = r.asConfigured.find((j) => j.library === r.library);
  if (read?.level !== level || read.outcome !== 'commit') return null;
  const strict = under(r, r.library, stricter);
  return strict?.outcome === 'conflict' ? strict : null;
}

function landedOnlyFinding(
  level: IsolationLevel,
  rejudgements: readonly Rejudgement[],
  byVersion: ReadonlyMap<number, HistoryCommit>,
): HistoryFinding | null {
  const hits = rejudgements.flatMap((r) => {
    const j = landedOnlyUnder(level, r);
    return j ? [{ r, j }] : [];
  });
  if (hits.length === 0) return null;
  const stricter = STRICTER[level] as IsolationLevel;
  const examples = hits
    .slice(0, 5)
    .map(
      ({ r, j }) =>
        `version ${r.version} (${byVersion.get(r.version)?.operation ?? 'unknown operation'}: ${j.conflict})`,
    )
    .join('; ');
  const spelled =
    level === 'WriteSerializable'
      ? " (Serializable is what delta-rs 1.2–1.6.x makes of 'WriteSerializable' with a capital W)"
      : '';
  return {
    rule:
      level === 'WriteSerializable' ? 'landed-only-under-write-serializable' : 'landed-only-under-snapshot-isolation',
    severity: 'warning',
    versions: hits.map(({ r }) => r.version),
    evidence: `${plural(hits.length, 'commit')} on this table landed only because of ${level}: under ${stricter}${spelled} ${hits.length === 1 ? 'it' : 'they'} would have failed. ${examples}`,
    fix: `If these commits must see what the concurrent commits wrote, set delta.isolationLevel = '${camelCaseSpelling(stricter)}' and redo the whole change on a conflict; if not, keep ${level}, spelled '${camelCaseSpelling(level)}', which every writer library reads as meant.`,
  };
}

/** Operations that rewrite data: compaction and vacuum do not. */
const CHANGES_DATA = (operation: string) => operation !== 'OPTIMIZE' && !operation.startsWith('VACUUM');

/** The level a commit recorded in commitInfo differs from the level its library reads from the property in force. */
function recordedDiffers(commits: readonly HistoryCommit[], library: (c: HistoryCommit) => WriterLibrary | null) {
  const hits = commits.flatMap((c) => {
    const lib = library(c);
    if (c.isolationLevel === null || lib === null) return [];
    const recorded = intendedLevel(c.isolationLevel);
    // Delta Spark records SnapshotIsolation for a commit that changes no data (its checker downgrades for it): a
    // CREATE TABLE or property change without files, a compaction.
    const changesData = c.adds + c.removes > 0 && (c.operation === null || CHANGES_DATA(c.operation));
    if (recorded === 'SnapshotIsolation' && !changesData) return [];
    const inForce = readIsolationLevel(c.isolationProperty, lib).effective;
    return recorded !== inForce ? [{ c, inForce }] : [];
  });
  if (hits.length === 0) return null;
  const [first] = hits;
  const finding: HistoryFinding = {
    rule: 'isolation-recorded-differs',
    severity: 'warning',
    versions: hits.map(({ c }) => c.version),
    evidence: `${plural(hits.length, 'commit')} recorded an isolation level other than the one the table's delta.isolationLevel gave ${hits.length === 1 ? 'its' : 'their'} writer: version ${first?.c.version} recorded isolationLevel '${first?.c.isolationLevel}' while the property read ${first?.c.isolationProperty === null ? 'unset' : `'${first?.c.isolationProperty}'`}, which its writer reads as ${first?.inForce ?? 'no level (every commit fails)'}.`,
    fix: "Only the table property delta.isolationLevel changes conflict checking; commitInfo's isolationLevel is a record (delta-rs writes whatever the job passes in commit properties). Set the property to the camelCase spelling of the level meant.",
  };
  return finding;
}

const READING_OPERATIONS = new Set(['UPDATE', 'DELETE', 'MERGE', 'OPTIMIZE']);

/** Commits claiming isBlindAppend that read or rewrote the table: WriteSerializable then lets others skip their adds. */
function blindClaims(commits: readonly HistoryCommit[]): HistoryFinding | null {
  const hits = commits.filter(
    (c) =>
      c.isBlindAppend === true &&
      ((c.operation !== null && READING_OPERATIONS.has(c.operation)) || c.predicate !== null || c.removes > 0),
  );
  if (hits.length === 0) return null;
  const first = hits[0] as HistoryCommit;
  return {
    rule: 'blind-append-claim-on-read',
    severity: 'warning',
    versions: hits.map((c) => c.version),
    evidence: `${plural(hits.length, 'commit')} (${versionsText(hits.map((c) => c.version))}) claim isBlindAppend while ${hits.length === 1 ? 'its' : 'their'} operation reads the table: version ${first.version} is ${first.operation ?? 'an unknown operation'}${first.predicate === null ? '' : ` with predicate ${first.predicate}`}${first.removes > 0 ? `, removing ${plural(first.removes, 'file')}` : ''}. Under WriteSerializable a concurrent reader does not check files a blind append adds.`,
    fix: 'Pass isBlindAppend only for jobs that read nothing of the table; a job that checks the table before appending is not blind (lesson E1).',
  };
}

function cannotJudge(rejudgements: readonly Rejudgement[]): HistoryFinding | null {
  const hits = rejudgements.filter((r) => r.cannotJudge !== null);
  if (hits.length === 0) return null;
  const reasons = new Map<string, number[]>();
  for (const r of hits)
    reasons.set(r.cannotJudge as string, [...(reasons.get(r.cannotJudge as string) ?? []), r.version]);
  const listed = [...reasons]
    .slice(0, 3)
    .map(([why, vs]) => `${why} (${versionsText(vs)})`)
    .join('; ');
  return {
    rule: 'cannot-judge',
    severity: 'info',
    versions: hits.map((r) => r.version),
    evidence: `${plural(hits.length, 'concurrent commit')} cannot be judged again from the log: ${listed}${reasons.size > 3 ? `; and ${reasons.size - 3} other reasons` : ''}.`,
    fix: 'Nothing says these commits were safe. Write with a library that records the predicate of each UPDATE, DELETE and MERGE in operationParameters, as delta-rs and Delta Spark do.',
  };
}

function differsFromLog(rejudgements: readonly Rejudgement[]): HistoryFinding | null {
  const hits = rejudgements.filter((r) => r.agreesWithLog === false);
  if (hits.length === 0) return null;
  const recorded = hits.filter((r) => r.evidence === 'recorded');
  return {
    rule: 'judgement-differs-from-log',
    severity: recorded.length > 0 ? 'warning' : 'info',
    versions: hits.map((r) => r.version),
    evidence: `${plural(hits.length, 'commit')} (${versionsText(hits.map((r) => r.version))}) landed although ${hits.length === 1 ? 'its' : 'their'} own library's checker, under the property in force, refuses ${hits.length === 1 ? 'it' : 'them'} against the commits ${hits.length === 1 ? 'it' : 'they'} overlapped; ${recorded.length} of them with a recorded readVersion. An inferred overlap may be a redo: a retried commit's timestamp predates its landing.`,
    fix: 'Where the readVersion is recorded, check which library really wrote these commits (engineInfo) and the property it read; an overlap inferred from timing needs readVersion on every commit to be known.',
  };
}

/** The findings the re-judged commits and the commits' own records support. */
export function rejudgementFindings(
  commits: readonly HistoryCommit[],
  rejudgements: readonly Rejudgement[],
): HistoryFinding[] {
  const byVersion = new Map(commits.map((c) => [c.version, c]));
  const library = new Map(rejudgements.map((r) => [r.version, r.library as WriterLibrary | null]));
  const libraryOf = (c: HistoryCommit): WriterLibrary | null =>
    library.get(c.version) ??
    (c.writer.library === 'delta-spark' || c.writer.library === 'databricks' || c.writer.library === 'delta-rs'
      ? c.writer.library
      : null);
  return [
    landedOnlyFinding('WriteSerializable', rejudgements, byVersion),
    landedOnlyFinding('SnapshotIsolation', rejudgements, byVersion),
    recordedDiffers(commits, libraryOf),
    blindClaims(commits),
    cannotJudge(rejudgements),
    differsFromLog(rejudgements),
  ].filter((f): f is HistoryFinding => f !== null);
}

const keyText = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} = ${v === null ? 'NULL' : String(v)}`)
    .join(', ');

/** Keys present more than once: an error, with the commits that added the most repeated ones. */
export function duplicateFindings(duplicates: DuplicateKeys, commits: readonly HistoryCommit[]): HistoryFinding[] {
  if (duplicates.distinct === 0) return [];
  const byVersion = new Map(commits.map((c) => [c.version, c]));
  const concurrent = duplicates.keys.filter((k) => k.addedBy.some((s) => s.concurrent));
  const versions = [...new Set(duplicates.keys.flatMap((k) => k.addedBy.map((s) => s.version)))].sort((a, b) => a - b);
  const examples = duplicates.keys
    .slice(0, 3)
    .map(
      (k) =>
        `${keyText(k.values)} ×${k.count}, added by ${
          k.addedBy
            .map((s) => {
              const who = s.writer.appId ?? s.writer.library ?? 'an unknown writer';
              return `version ${s.version} (${byVersion.get(s.version)?.operation ?? 'commit'} by ${who}${s.concurrent ? ', concurrent' : ''})`;
            })
            .join(' and ') || 'commits older than the log read'
        }`,
    )
    .join('; ');
  return [
    {
      rule: 'duplicate-keys',
      severity: 'error',
      versions,
      evidence: `${plural(duplicates.distinct, 'key')} of (${duplicates.key.join(', ')}) ${duplicates.distinct === 1 ? 'is' : 'are'} present more than once at version ${duplicates.atVersion}; of the ${duplicates.keys.length} listed, ${concurrent.length} were added by concurrent commits. ${examples}.`,
      fix: 'Two jobs that each check for rows and then append both append: appends never conflict (lesson E1). Overwrite with a predicate on what the job owns (lesson E2) or MERGE on the key, and remove the extra rows.',
    },
  ];
}

/** Every finding of the re-judgement and the duplicates, in that order. */
export function historyFindings(
  commits: readonly HistoryCommit[],
  rejudgements: readonly Rejudgement[],
  duplicates: DuplicateKeys | null,
): HistoryFinding[] {
  return [...rejudgementFindings(commits, rejudgements), ...(duplicates ? duplicateFindings(duplicates, commits) : [])];
}
