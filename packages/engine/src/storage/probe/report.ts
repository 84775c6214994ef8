/**
 * The store probe's report: what it checked, what it saw, and the verdict. This is the document the
 * CLI writes with `--json`, the API's `probeStore` returns and the dashboard draws; docs/s3.md
 * describes every field.
 */
import { nearestRank } from '../../kernel/statistics/quantiles';

/** The checks that decide the verdict, in the order they run. */
export const DECIDING_CHECKS = [
  'existing-key-refused',
  'one-winner',
  'refused-put-keeps-bytes',
  'read-after-write',
] as const;
export type DecidingCheckId = (typeof DECIDING_CHECKS)[number];

export const INFORMATIONAL_CHECKS = ['if-match', 'conditional-multipart'] as const;
export type InformationalCheckId = (typeof INFORMATIONAL_CHECKS)[number];

/** Call kinds whose latency is reported; a conditional put is counted by its answer. */
export const CALL_KINDS = [
  'put',
  'conditional-put-won',
  'conditional-put-refused',
  'get',
  'list',
  'delete',
  'multipart',
] as const;
export type CallKind = (typeof CALL_KINDS)[number];

export interface DecidingCheck {
  id: DecidingCheckId;
  title: string;
  /** `not-run` only when the probe stopped before the check (verdict `could-not-run`). */
  outcome: 'passed' | 'failed' | 'not-run';
  /** What was seen, in one or two sentences with counts. */
  detail: string;
  /** What a failure of this check does to a Delta table (present whatever the outcome). */
  onDelta: string;
  /** How many times the property was tried and how many of those failed. */
  tries: number;
  failures: number;
}

export interface InformationalCheck {
  id: InformationalCheckId;
  title: string;
  /** `non-standard`: applied, but not as S3 documents it (e.g. only an unquoted ETag matches). */
  outcome: 'honoured' | 'ignored' | 'non-standard' | 'not-supported' | 'error' | 'not-run';
  detail: string;
}

export interface LatencyStat {
  call: CallKind;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export type ProbeVerdict = 'safe' | 'unsafe' | 'could-not-run';

export interface ProbeReport {
  /** The location probed, as given: `s3://bucket/prefix`. */
  location: string;
  /** The fresh sub-prefix every object of the probe lived under, removed at the end. */
  scratch: string;
  /** The endpoint the client talked to (`aws` for AWS's own). */
  endpoint: string;
  startedAt: string;
  durationMs: number;
  settings: { writers: number; rounds: number; readAfterWrite: number };
  verdict: ProbeVerdict;
  /** One line: the verdict and, when unsafe, each failed check; when it could not run, why. */
  summary: string;
  checks: DecidingCheck[];
  informational: InformationalCheck[];
  latency: LatencyStat[];
  /** What was left under `scratch` after the clean-up (0 when it is empty again). */
  cleanup: { removed: number; leftover: number; error?: string };
}

export const CHECK_TEXT: Record<DecidingCheckId, { title: string; onDelta: string }> = {
  'existing-key-refused': {
    title: 'A conditional PUT on an existing key is refused (412, or 409 that a retry resolves)',
    onDelta:
      'a second writer of a version already taken is told it committed: its put replaces the log entry, ' +
      'so the first commit is lost (an overwritten log entry)',
  },
  'one-winner': {
    title: 'Concurrent conditional PUTs to one new key have exactly one winner',
    onDelta:
      'two writers each believe they own the same version (a lost commit, its rows missing), ' +
      'or the writer whose entry landed is not told so (an ambiguous commit it may write again)',
  },
  'refused-put-keeps-bytes': {
    title: "A refused PUT leaves the winner's bytes",
    onDelta:
      "a refused commit still replaced the winner's log entry: the table's history holds the loser's " +
      'actions while the winner believes its own are there (an overwritten log entry)',
  },
  'read-after-write': {
    title: 'A new key is listed and readable right after its PUT',
    onDelta:
      'a writer or reader that lists the log right after a commit misses it: it works from a stale ' +
      'snapshot, and checkpoints or vacuum built on that snapshot can drop a commit',
  },
};

export const INFO_TEXT: Record<InformationalCheckId, string> = {
  'if-match': 'If-Match on PUT (replace only the version read)',
  'conditional-multipart': 'If-None-Match on CompleteMultipartUpload over an existing key',
};

/**
 * The verdict and its line, from the checks alone. A failed check is proof enough even when the
 * probe stopped later; a probe stopped with nothing failed could not tell.
 */
export function verdictOf(checks: DecidingCheck[], stopped?: string): { verdict: ProbeVerdict; summary: string } {
  const failed = checks.filter((c) => c.outcome === 'failed');
  if (failed.length > 0) {
    const named = failed.map((c) => ` ${c.id} failed: ${c.onDelta}.`).join('');
    return { verdict: 'unsafe', summary: `unsafe for concurrent Delta writers.${named}` };
  }
  if (stopped !== undefined) return { verdict: 'could-not-run', summary: `could not run: ${stopped}` };
  return { verdict: 'safe', summary: `safe for concurrent Delta writers: all ${checks.length} checks passed` };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Latency samples by call kind, in milliseconds. */
export class LatencyLog {
  private readonly samples = new Map<CallKind, number[]>();

  add(call: CallKind, ms: number): void {
    const list = this.samples.get(call) ?? [];
    list.push(ms);
    this.samples.set(call, list);
  }

  stats(): LatencyStat[] {
    return CALL_KINDS.flatMap((call) => {
      const list = [...(this.samples.get(call) ?? [])].sort((a, b) => a - b);
      if (list.length === 0) return [];
      return [
        {
          call,
          count: list.length,
          p50Ms: round2(nearestRank(list, 0.5)),
          p99Ms: round2(nearestRank(list, 0.99)),
          maxMs: round2(list[list.length - 1] as number),
        },
      ];
    });
  }
}
