/**
 * The lesson's Postgres contrast (cases P1–P3) on a real server: writer A updates its rows and
 * keeps its transaction open, writer B starts its own update, a third connection watches whether
 * `pg_blocking_pids(B)` names A, and only then A commits. What happens to B is Postgres's doing:
 * nothing here knows what a case is expected to give.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { VerdictMemo } from '../../oracle/memo';
import type { RunVerdict, TableCheck, WriterResult, WriterTimings } from '../../results/types';
import { labDatabaseUrl, openClient } from './connect';
import { classify } from './error-class';
import { assertPrepared } from './prepare';
import { tableCheck } from './table-check';
import { tipUpdateSql } from './tip-update';
import { buildNextCopy, resetToFreshCopy } from './trips-copy';
import { postgresVerdict, racedFingerprint } from './verdict';

export type PostgresIsolation = 'read committed' | 'repeatable read';

export interface PostgresCaseSpec {
  isolation: PostgresIsolation;
  vendorA: number;
  vendorB: number;
  /** Bound on the watch (B neither waiting on A nor done), ms. Default 120 s: at full scale B's update alone takes seconds. */
  watchTimeoutMs?: number;
  /**
   * When the next run's copy of trips_original is built: 'beside-verdict' (default) on a connection of its own
   * while the verdict runs, 'after-verdict' once it is done. Either way it is built before this run returns.
   */
  nextCopy?: 'beside-verdict' | 'after-verdict';
}

/** WriterResult plus what Postgres told us. */
export interface PostgresWriterResult extends WriterResult {
  /** SQLSTATE of the final failure (40001 for a serialization failure), else null. */
  sqlState: string | null;
  /** The writer's backend PID. */
  backendPid: number;
}

export interface PostgresCaseResult {
  writers: PostgresWriterResult[];
  table: TableCheck;
  /** The committed writers in the order their COMMIT returned to the runner. */
  commitOrder: string[];
  /** The serial-replay oracle's verdict on the table afterwards (its time is not in durationMs). */
  verdict: RunVerdict;
  /** The reset (a prepared copy swapped in, or one built and swapped in when none was ready), the race and the table check. */
  durationMs: number;
  /** The reset's part of durationMs. */
  resetMs: number;
  /** The table check's part of durationMs. */
  checkMs: number;
  /** Whether the reset found a copy prepared (by the previous run or the lab's preparation). */
  resetFromPreparedCopy: boolean;
  /** Building the next run's copy, after durationMs, beside or after the verdict (see PostgresCaseSpec.nextCopy). */
  nextCopyMs: number;
  /** How many times the watcher asked pg_blocking_pids before B waited or returned. */
  watchPolls: number;
}

const UPDATE_SQL = tipUpdateSql('trips');

interface WriterState {
  name: string;
  vendor: number;
  client: pg.Client;
  backendPid: number;
  committed: boolean;
  rowsUpdated: number | null;
  error: unknown;
  timings: WriterTimings;
}

function writerResult(w: WriterState, waitedOnLock: boolean | null): PostgresWriterResult {
  const err = w.error === undefined ? null : classify(w.error);
  return {
    name: w.name,
    operation: 'postgres-update',
    committed: w.committed,
    version: null,
    attempts: 1,
    commitRetries: null,
    attemptErrors: [],
    waitedOnLock,
    warnings: [],
    errorClass: err?.errorClass ?? null,
    errorMessage: err?.errorMessage ?? null,
    sqlState: err?.sqlState ?? null,
    backendPid: w.backendPid,
    timings: w.timings,
    ...(w.rowsUpdated !== null ? { observed: { rowsUpdated: w.rowsUpdated } } : {}),
  };
}

/**
 * Ends the writer's transaction: COMMIT if its statement succeeded, else ROLLBACK. Its name joins `committed` when
 * COMMIT returns: the order the runner saw the commits, which the oracle replays.
 */
async function finish(w: WriterState, ms: () => number, committed: string[]): Promise<void> {
  if (w.error === undefined) {
    try {
      await w.client.query('COMMIT');
      w.committed = true;
      committed.push(w.name);
    } catch (e) {
      w.error = e;
    }
  }
  if (!w.committed) await w.client.query('ROLLBACK').catch(() => undefined);
  w.timings.finished = ms();
}

/**
 * One run of a Postgres case: a fresh copy of the trips swapped in, A updates `vendorA` and holds its transaction, B
 * starts updating `vendorB`, a watcher polls pg_blocking_pids(B) until it names A or B's statement returns, then A
 * commits and B commits (or rolls back what Postgres refused); the table is checked, and the verdict given while
 * the next run's copy is built. `memo` keeps serial results for the case's later runs (see oracle/memo.ts).
 */
export async function runPostgresCase(
  serverUrl: string,
  spec: PostgresCaseSpec,
  opts: { memo?: VerdictMemo } = {},
): Promise<PostgresCaseResult> {
  const memo = opts.memo && { memo: opts.memo };
  const level = { 'read committed': 'READ COMMITTED', 'repeatable read': 'REPEATABLE READ' }[spec.isolation];
  if (level === undefined) throw new Error(`unknown isolation level: ${String(spec.isolation)}`);
  for (const v of [spec.vendorA, spec.vendorB]) {
    if (!Number.isInteger(v)) throw new Error(`VendorID must be an integer, got ${v}`);
  }
  const timeoutMs = spec.watchTimeoutMs ?? 120_000;
  const url = labDatabaseUrl(serverUrl);
  const clients: pg.Client[] = [];
  const connect = async (label: string) => {
    const c = await openClient(url, label);
    clients.push(c);
    return c;
  };

  try {
    const watcher = await connect('watch');
    await assertPrepared(watcher);
    // Local buffers for the verdict's temporary copy (settable only before a session's first temporary table):
    // the default 8 MB would send most of a full-scale copy through the OS on every replayed update.
    await watcher.query("SET temp_buffers = '256MB'");

    const t0 = performance.now();
    const ms = () => Math.round((performance.now() - t0) * 10) / 10;
    const resetFromPreparedCopy = await resetToFreshCopy(watcher);
    const resetMs = ms();
    const writer = async (name: string, vendor: number): Promise<WriterState> => {
      const client = await connect(name);
      const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      const opened = ms();
      return {
        name,
        vendor,
        client,
        backendPid: pid,
        committed: false,
        rowsUpdated: null,
        error: undefined,
        timings: { opened, prepared: opened, released: opened, finished: opened },
      };
    };
    const a = await writer('A', spec.vendorA);
    const b = await writer('B', spec.vendorB);

    // A: update its rows and keep the transaction open.
    await a.client.query(`BEGIN ISOLATION LEVEL ${level}`);
    a.timings.prepared = ms();
    a.timings.released = ms();
    try {
      a.rowsUpdated = (await a.client.query(UPDATE_SQL, [a.vendor])).rowCount;
    } catch (e) {
      a.error = e;
    }

    // B: its transaction (repeatable read: take the snapshot now), then its update, not awaited.
    await b.client.query(`BEGIN ISOLATION LEVEL ${level}`);
    if (level === 'REPEATABLE READ') await b.client.query('SELECT 1');
    b.timings.prepared = ms();
    let bReturned = false;
    b.timings.released = ms();
    const bStatement = b.client.query(UPDATE_SQL, [b.vendor]).then(
      (r) => {
        b.rowsUpdated = r.rowCount;
      },
      (e: unknown) => {
        b.error = e;
      },
    );
    void bStatement.finally(() => {
      bReturned = true;
    });

    // The watcher: until pg_blocking_pids(B) names A, or B's statement has returned.
    let waitedOnLock = false;
    let polls = 0;
    const deadline = Date.now() + timeoutMs;
    while (!bReturned) {
      const r = await watcher.query<{ pids: number[] | null }>('SELECT pg_blocking_pids($1) AS pids', [b.backendPid]);
      polls++;
      if ((r.rows[0]?.pids ?? []).includes(a.backendPid)) {
        waitedOnLock = true;
        break;
      }
      if (bReturned) break;
      if (Date.now() > deadline) {
        throw new Error(
          `watch timed out after ${timeoutMs} ms: B's update (backend ${b.backendPid}) neither waited on A ` +
            `(backend ${a.backendPid}) nor returned; ${polls} polls`,
        );
      }
      await new Promise((r) => setTimeout(r, 2));
    }

    // Only now A commits; then B's statement is awaited and B ends its transaction.
    const commitOrder: string[] = [];
    await finish(a, ms, commitOrder);
    await bStatement;
    await finish(b, ms, commitOrder);

    const checkStart = ms();
    const table = await tableCheck(watcher);
    const durationMs = Math.round(performance.now() - t0);
    const checkMs = Math.round(durationMs - checkStart);

    const copier = await connect('copy');
    let verdict: RunVerdict;
    let nextCopyMs: number;
    if (spec.nextCopy === 'after-verdict') {
      verdict = await postgresVerdict(watcher, [a, b], commitOrder, level, { ...memo });
      nextCopyMs = await buildNextCopy(copier);
    } else {
      // Three connections at once: the verdict copies and replays on the first (only on a memo miss), a second takes
      // the raced rows' fingerprint for it, and the next copy is built on the third from the start. With the case's
      // serial results kept, a verdict is the fingerprint, about 1 s, and the build 3-4 s: taken one after the
      // other on one connection they cost both. Both settle before either outcome is used: a failed verdict does
      // not leave a build running on its own.
      const raced = racedFingerprint(await connect('fingerprint'));
      raced.catch(() => {});
      const build = buildNextCopy(copier);
      const [v, n] = await Promise.allSettled([
        postgresVerdict(watcher, [a, b], commitOrder, level, { racedFingerprint: raced, ...memo }),
        build,
      ]);
      if (v.status === 'rejected') throw v.reason;
      if (n.status === 'rejected') throw n.reason;
      verdict = v.value;
      nextCopyMs = n.value;
    }
    return {
      writers: [writerResult(a, null), writerResult(b, waitedOnLock)],
      table,
      commitOrder,
      verdict,
      durationMs,
      resetMs,
      checkMs,
      resetFromPreparedCopy,
      nextCopyMs: Math.round(nextCopyMs),
      watchPolls: polls,
    };
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}
