/**
 * What a table's own log says happened (`npm run audit -- history`, the API's `tableHistory`): every commit read
 * as evidence (read.ts), whom each was concurrent with and how that is known (concurrency.ts), the concurrent
 * ones re-judged under every writer library and level (rejudge.ts), keys present more than once and the commits
 * that added them (duplicates.ts), the findings and the summary (summary.ts). The location resolves as every
 * table location does (LAB_ROOTS, LAB_S3_BUCKETS); the table is named as the user named it, never by a server
 * folder.
 */
import { DeltaTable, readCommit, storeFor } from '@racelab/engine';
import { clientSafeMessage, namedRoots } from '../../results/safe-message';
import { type LocationConfig, type ResolvedLocation, resolveTableLocation } from '../../tables/locations';
import { readingTable } from '../../tables/not-a-table';
import { ConfigurationTimeline, historyCommits } from './concurrency';
import { duplicateKeys } from './duplicates';
import { versionsText } from './findings';
import { type HistoryBounds, readLog } from './read';
import { rejudge } from './rejudge';
import { summarize } from './summary';
import type { DuplicateKeys, HistoryCommit, HistoryFinding, Rejudgement, TableHistory } from './types';

export { DEFAULT_HISTORY_BOUNDS, HistoryBoundError, type HistoryBounds } from './read';
export { writerKey } from './summary';
export type * from './types';

export interface TableHistoryOptions {
  /** Only commits at or after this time, ms since the epoch. */
  since?: number;
  /** Key columns whose duplicates are looked for. */
  key?: string[];
  /** Read the table as of this version (the history up to it, the duplicates in its snapshot). */
  atVersion?: number;
  locations: LocationConfig;
  bounds?: Partial<HistoryBounds>;
  /** Progress through a stage: reading the log, then looking for duplicates. */
  onProgress?: (stage: 'log' | 'duplicates', done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function tableHistory(location: string, o: TableHistoryOptions): Promise<TableHistory> {
  const resolved = await resolveTableLocation(location, o.locations);
  const store = storeFor(resolved.path);
  // A location with no commit says what is there instead, as every surface says it.
  const log = await readingTable(resolved, () =>
    readLog(store, {
      display: resolved.display,
      ...(o.since !== undefined && { since: o.since }),
      ...(o.atVersion !== undefined && { toVersion: o.atVersion }),
      ...(o.bounds && { bounds: o.bounds }),
      ...(o.onProgress && { onProgress: (done: number, total: number) => o.onProgress?.('log', done, total) }),
      ...(o.signal && { signal: o.signal }),
    }),
  );
  const findings = [...log.findings];
  const opened = async (version: number) => {
    try {
      return await DeltaTable.open(resolved.path, { version, roots: o.locations.roots });
    } catch (e) {
      findings.push(unopened(e, version, resolved, o.locations));
      return null;
    }
  };
  const before = log.fromVersion > 0 ? await configurationBefore(log.fromVersion, resolved, o.locations) : {};
  if (before === null) {
    findings.push({
      rule: 'isolation-property-unknown',
      severity: 'info',
      versions: [],
      evidence: `the table before version ${log.fromVersion} cannot be loaded (its commits are cleaned up and no checkpoint stands for them): the isolation property in force is known only from the first metaData read on`,
      fix: 'none needed; a history from a later --since, or a log kept longer, reads it',
    });
  }
  const timeline = new ConfigurationTimeline(before ?? {}, log.commits);
  const commits = historyCommits(log.commits, timeline);
  const table = log.latestVersion >= 0 ? await opened(log.latestVersion) : null;
  const readActions = (version: number) => readCommit(store, version);
  let rejudgements: Rejudgement[] = [];
  let duplicates: DuplicateKeys | null = null;
  if (table) {
    const judged = await rejudge(commits, {
      table,
      configurationAt: (v) => timeline.at(v),
      readActions,
      ...(o.signal && { signal: o.signal }),
    });
    rejudgements = judged.rejudgements;
    findings.push(...judged.findings);
    if (o.key && o.key.length > 0) {
      const found = await duplicateKeys(table, o.key, {
        commits,
        readActions,
        ...(o.onProgress && { onProgress: (done, total) => o.onProgress?.('duplicates', done, total) }),
        ...(o.signal && { signal: o.signal }),
      });
      duplicates = found.duplicates;
      findings.push(...found.findings);
    }
  }
  findings.push(...evidenceFindings(commits));
  return {
    location: resolved.display,
    range: {
      fromVersion: log.fromVersion,
      latestVersion: log.latestVersion,
      oldestKept: log.oldestKept,
      since: o.since === undefined ? null : new Date(o.since).toISOString(),
    },
    commits,
    rejudgements,
    duplicates,
    findings,
    summary: summarize(commits, duplicates?.distinct ?? null),
    failed: findings.some((f) => f.severity === 'error'),
  };
}

/** The configuration in force just before `version`, or null when the table cannot be loaded there. */
async function configurationBefore(
  version: number,
  resolved: ResolvedLocation,
  cfg: LocationConfig,
): Promise<Record<string, string> | null> {
  try {
    const table = await DeltaTable.open(resolved.path, { version: version - 1, roots: cfg.roots });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(table.configuration)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    // Cleaned up, or damaged: a finding says the property is unknown, and the damage itself is reported by the reading.
    return null;
  }
}

/** The snapshot a judgement or the duplicates need cannot be loaded: why, the table named as the user named it. */
function unopened(e: unknown, version: number, resolved: ResolvedLocation, cfg: LocationConfig): HistoryFinding {
  const text = e instanceof Error ? e.message.replaceAll(resolved.path, resolved.display) : String(e);
  return {
    rule: 'snapshot-unreadable',
    severity: 'error',
    versions: [version],
    evidence: `the table at version ${version} cannot be loaded, so nothing that needs its files is judged: ${clientSafeMessage(text, { roots: namedRoots(cfg) })}`,
    fix: 'repair the log (the finding naming its file says where); the commits read are still reported',
  };
}

/** What the evidence itself says: concurrency that is only inferred, and concurrency that cannot be known. */
function evidenceFindings(commits: HistoryCommit[]): HistoryFinding[] {
  const out: HistoryFinding[] = [];
  const unknown = commits.filter((c) => c.evidence === 'unknown').map((c) => c.version);
  if (unknown.length > 0) {
    out.push({
      rule: 'concurrency-unknown',
      severity: 'warning',
      versions: unknown,
      evidence: `${unknown.length} commit${unknown.length === 1 ? '' : 's'} (${versionsText(unknown)}) record neither readVersion nor timing: whether they overlapped another commit is unknown, which is not the same as safe`,
      fix: 'write with a library that records readVersion in commitInfo (Delta Spark, Databricks), or keep operationMetrics',
    });
  }
  const inferred = commits
    .filter((c) => c.evidence === 'inferred' && c.concurrentWith.length > 0)
    .map((c) => c.version);
  if (inferred.length > 0) {
    out.push({
      rule: 'concurrency-inferred',
      severity: 'info',
      versions: inferred,
      evidence: `${inferred.length} commit${inferred.length === 1 ? '' : 's'} (${versionsText(inferred)}) overlapped others by their timing only (timestamp − execution_time_ms), no readVersion recorded; the timing starts after the writer loaded the table, so a commit that landed between that load and the operation's start is missed`,
      fix: 'record readVersion on every commit to know, not infer, what each commit overlapped',
    });
  }
  return out;
}

export { KeyColumnError } from './duplicates';
