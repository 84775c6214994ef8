/**
 * Each commit as evidence: who wrote it, which isolation property was in force, and which commits landed between
 * its read and its own landing. Recorded where commitInfo holds `readVersion` (the versions after it and before
 * this one); inferred where it does not but holds a timestamp and `operationMetrics.execution_time_ms` (the
 * commits with a lower version stamped after it started, those that landed while it retried included: its own
 * timestamp is stamped before its first claim; the clock of delta-rs's execution_time_ms starts after the table is
 * loaded, so a commit that landed between the load and the operation's start is not seen); unknown otherwise, which is never counted as safe. The
 * table's first commit needs no record: nothing landed before it.
 */
import { ISOLATION_LEVEL_KEY } from '@racelab/engine';
import type { LoggedCommit } from './read';
import type { HistoryCommit, HistoryWriter } from './types';

type Obj = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);

/** The configuration in force after each version, from the one before the range and the metaData actions read. */
export class ConfigurationTimeline {
  private readonly changes: { version: number; configuration: Record<string, string> }[] = [];

  constructor(
    private readonly initial: Record<string, string>,
    commits: readonly LoggedCommit[],
  ) {
    for (const c of commits)
      if (c.configuration) this.changes.push({ version: c.version, configuration: c.configuration });
  }

  at(version: number): Record<string, string> {
    let conf = this.initial;
    for (const c of this.changes) {
      if (c.version > version) break;
      conf = c.configuration;
    }
    return conf;
  }
}

/** The writer a commit names: library and version from engineInfo or clientVersion, its job or app. */
export function writerOf(c: LoggedCommit): HistoryWriter {
  const info: Obj = c.commitInfo ?? {};
  const engineInfo = text(info.engineInfo);
  const clientVersion = text(info.clientVersion);
  const { library, version } = libraryOf(engineInfo, clientVersion, info);
  const job = obj(info.job);
  const notebook = obj(info.notebook);
  const appId =
    c.appIds[0] ??
    text(job?.jobId) ??
    text(notebook?.notebookId) ??
    text(info.clusterId) ??
    (typeof job?.jobId === 'number' ? String(job.jobId) : null);
  return { library, version, engineInfo, appId, userMetadata: text(info.userMetadata) };
}

function libraryOf(engineInfo: string | null, clientVersion: string | null, info: Obj) {
  const e = engineInfo ?? '';
  const databricks = /Databricks-Runtime\/(\S+)/.exec(e);
  if (databricks) return { library: 'databricks', version: databricks[1] ?? null };
  const spark = /Delta-Lake\/(\S+)/.exec(e);
  if (spark || /Apache-Spark/.test(e)) return { library: 'delta-spark', version: spark?.[1] ?? null };
  // Databricks recorded its notebook, job or cluster long before it wrote engineInfo.
  if (engineInfo === null && (obj(info.notebook) || obj(info.job) || text(info.clusterId))) {
    return { library: 'databricks', version: null };
  }
  // This product's engine writes as delta-rs 1.6.x does, and says so with its own engineInfo.
  const engine = /^racelab-engine:(\S+)/.exec(e);
  if (engine) return { library: 'delta-rs', version: `racelab-engine ${engine[1]}` };
  const rs = /^delta-rs[.:](?:py-|rs-)?(\S+)/.exec(clientVersion ?? e);
  if (rs) return { library: 'delta-rs', version: rs[1] ?? null };
  return { library: null, version: clientVersion };
}

/** The commits as evidence, oldest first, with whom each was concurrent and how that is known. */
export function historyCommits(logged: readonly LoggedCommit[], config: ConfigurationTimeline): HistoryCommit[] {
  const commits = logged.map((c) => baseCommit(c, config));
  const prefixMax: number[] = [];
  let max = Number.NEGATIVE_INFINITY;
  for (const c of commits) {
    max = Math.max(max, c.timestamp ?? Number.NEGATIVE_INFINITY);
    prefixMax.push(max);
  }
  for (const [i, c] of commits.entries()) {
    if (c.version === 0) {
      // The table's first commit: the log itself shows nothing landed before it.
      c.evidence = 'recorded';
    } else if (c.readVersion !== null) {
      for (let v = Math.max(c.readVersion + 1, 0); v < c.version; v++) c.concurrentWith.push(v);
      c.evidence = 'recorded';
    } else if (c.timestamp !== null && c.startedAt !== null) {
      // Every earlier commit whose landing came after this one started; the prefix maximum stops the scan early.
      for (let j = i - 1; j >= 0 && (prefixMax[j] as number) >= c.startedAt; j--) {
        const other = commits[j] as HistoryCommit;
        // A tie at the millisecond cannot be told apart: counted as an overlap, never as safe.
        if (other.timestamp !== null && other.timestamp >= c.startedAt) c.concurrentWith.push(other.version);
      }
      c.concurrentWith.reverse();
      c.evidence = 'inferred';
    }
  }
  return commits;
}

/** How long the operation ran: delta-rs's `execution_time_ms` (a number), Delta Spark's `executionTimeMs` (text). */
function elapsedOf(metrics: Obj | null): number | null {
  const rs = int(metrics?.execution_time_ms);
  if (rs !== null) return rs;
  const spark = text(metrics?.executionTimeMs);
  return spark !== null && /^\d+$/.test(spark) ? Number(spark) : null;
}

function baseCommit(c: LoggedCommit, config: ConfigurationTimeline): HistoryCommit {
  const info: Obj = c.commitInfo ?? {};
  const timestamp = int(info.timestamp);
  const elapsed = elapsedOf(obj(info.operationMetrics));
  const readVersion = int(info.readVersion);
  const params = obj(info.operationParameters);
  const predicate = text(params?.predicate) ?? text(params?.matchPredicates) ?? null;
  const property = config.at(readVersion ?? c.version - 1)[ISOLATION_LEVEL_KEY] ?? null;
  return {
    version: c.version,
    timestamp,
    startedAt: timestamp !== null && elapsed !== null ? timestamp - elapsed : null,
    operation: text(info.operation),
    predicate,
    readVersion,
    isolationLevel: text(info.isolationLevel),
    isBlindAppend: typeof info.isBlindAppend === 'boolean' ? info.isBlindAppend : null,
    isolationProperty: property,
    writer: writerOf(c),
    concurrentWith: [],
    evidence: 'unknown',
    adds: c.adds,
    removes: c.removes,
  };
}
