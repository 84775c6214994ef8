/**
 * Sweeps over the API: `startSweep` checks its input against the sweep's bounds before anything is
 * stored (the contracts' checkSweepInput, the same the CLI and the dashboard's form use, every problem at once),
 * stores the sweep with its queue job, and a worker runs it (one sweep at a time per worker); `sweep(id)` and
 * `sweeps(last)` read them back, `sweepProgress(id)` streams progress the way races stream theirs, and
 * `cancelSweep(id)` stops one. Auth, Origin and Host are the operation guard's and the edge's, as for races.
 */

import {
  checkSweepInput,
  DEFAULT_SWEEP_APPEND_RATE,
  DEFAULT_SWEEP_COMMITS,
  DEFAULT_SWEEP_WRITERS,
  ICEBERG_SWEEP_OPERATIONS,
  MAX_SWEEP_COMMITS,
  MAX_SWEEP_COMMITS_PER_WRITER,
  MAX_SWEEP_WRITERS,
  RETRY_POLICIES,
  SWEEP_CATALOGS,
  SWEEP_SCENARIO_NAMES,
  SWEEP_TABLE_FORMATS,
} from '@racelab/contracts';
import { storedActor } from '../actors/actor';
import type { Db, Sweep } from '../db/prisma';
import { ConflictError, InputError, NotFoundError } from '../errors/client-errors';
import type { ProgressHub } from '../races/progress';
import { tableRootOf } from '../races/spec';
import { CANCEL_CHANNEL, TERMINAL } from '../races/store';
import { announceSweep, createSweep } from '../sweeps/store';
import { builder } from './builder';
import { callerOf } from './caller';
import { SweepType } from './sweep-types';
import { refuseLongSweep } from './work-limit';

/** The most sweeps one `sweeps` call lists (limits.ts sizes the list so). */
export const MAX_SWEEPS_LISTED = 50;

const BackoffInput = builder.inputType('SweepBackoffInput', {
  fields: (t) => ({
    baseMs: t.int({ required: true }),
    capMs: t.int({ required: true }),
    jitter: t.string({ required: true, description: 'none, full or equal' }),
  }),
});

const RetryPolicyInput = builder.inputType('RetryPolicyInput', {
  description: `a preset by name alone (${Object.keys(RETRY_POLICIES).join(', ')}), or name custom with every number`,
  fields: (t) => ({
    name: t.string({ required: true }),
    maxCommitRetries: t.int({ description: "the engine's commit loop: delta-rs max_commit_retries" }),
    appTries: t.int({ description: "the application loop's tries of the whole change (1 = no app retry)" }),
    backoff: t.field({
      type: BackoffInput,
      description: 'the pause before app try t > 1; null for none',
    }),
  }),
});

const StartSweepInput = builder.inputType('StartSweepInput', {
  fields: (t) => ({
    writers: t.intList({
      description: `N for each point, 1 to ${MAX_SWEEP_WRITERS} (default ${DEFAULT_SWEEP_WRITERS.join(', ')})`,
    }),
    commitsPerWriter: t.int({
      description: `K, 1 to ${MAX_SWEEP_COMMITS_PER_WRITER} (default ${DEFAULT_SWEEP_COMMITS}); N x K over the points at most ${MAX_SWEEP_COMMITS}`,
    }),
    operation: t.string({
      description:
        'append-row, append-day, update-disjoint, update-overlap or compaction; required unless a scenario gives it',
    }),
    scenario: t.string({
      description: `a setting that fixes writers, commitsPerWriter and operation (${SWEEP_SCENARIO_NAMES.join(', ')}); given with one of them otherwise, refused; the policy stays this input's`,
    }),
    appendRatePerSec: t.float({
      description: `compaction only: appends per second per append writer (default ${DEFAULT_SWEEP_APPEND_RATE})`,
    }),
    policy: t.field({ type: RetryPolicyInput, description: 'default delta-rs' }),
    seed: t.float({ description: "the app loop's jitter and the synthetic rows" }),
    tableFormat: t.string({
      description: `the table format: ${SWEEP_TABLE_FORMATS.join(' or ')} (default delta); iceberg takes operation ${ICEBERG_SWEEP_OPERATIONS.join(', ')} only`,
    }),
    catalog: t.string({
      description: `iceberg only: the SQL catalog, ${SWEEP_CATALOGS.join(' or ')} (default sqlite; postgres is refused, not supported yet)`,
    }),
    tableRoot: t.string({ description: "an s3:// prefix in a configured bucket for the sweep's tables; none: local" }),
  }),
});

type PolicyArg = {
  name: string;
  maxCommitRetries?: number | null;
  appTries?: number | null;
  backoff?: { baseMs: number; capMs: number; jitter: string } | null;
};

/** GraphQL's policy as checkSweepInput takes it: a preset's name alone, or the numbers given. */
function policyOf(p: PolicyArg | null | undefined): unknown {
  if (p == null) return undefined;
  const numbers = p.maxCommitRetries != null || p.appTries != null || p.backoff !== undefined;
  if (!numbers) return p.name;
  return { name: p.name, maxCommitRetries: p.maxCommitRetries, appTries: p.appTries, backoff: p.backoff ?? null };
}

/** The sweep's events until it ends: its row as stored, each time its worker announces a change. */
async function* sweepUpdates(db: Db, hub: ProgressHub, sweepId: string): AsyncGenerator<Sweep> {
  const watch = hub.watch(sweepId);
  let seen = '';
  try {
    for (;;) {
      const sweep = await db.sweep.findUniqueOrThrow({ where: { id: sweepId } });
      // Changes come coalesced: the row holds the latest, and a wake with nothing new yields nothing.
      const now = `${sweep.status}:${sweep.done}:${sweep.writers}`;
      if (now !== seen) {
        seen = now;
        yield sweep;
      }
      if (TERMINAL.includes(sweep.status)) return;
      await watch.wait();
      if (hub.stopped) return;
    }
  } finally {
    watch.close();
  }
}

builder.queryFields((t) => ({
  sweeps: t.field({
    type: [SweepType],
    description: 'the latest sweeps, newest first',
    args: { last: t.arg.int({ defaultValue: 20 }) },
    resolve: (_r, { last }, ctx) => {
      const take = last ?? 20;
      if (take < 1 || take > MAX_SWEEPS_LISTED) throw new InputError(`last must be from 1 to ${MAX_SWEEPS_LISTED}`);
      return ctx.db.sweep.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
    },
  }),
  sweep: t.field({
    type: SweepType,
    nullable: true,
    description: 'one sweep; null when none has this id',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.db.sweep.findUnique({ where: { id: String(id) } }),
  }),
}));

builder.mutationFields((t) => ({
  startSweep: t.field({
    type: SweepType,
    description: `Queues a sweep; refused before anything is stored beyond N ≤ ${MAX_SWEEP_WRITERS}, K ≤ ${MAX_SWEEP_COMMITS_PER_WRITER}, ${MAX_SWEEP_COMMITS} commits.`,
    args: { input: t.arg({ type: StartSweepInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const { tableRoot, policy, ...rest } = input;
      const given = Object.fromEntries(
        Object.entries({ ...rest, policy: policyOf(policy) }).filter(([, v]) => v != null),
      );
      const checked = checkSweepInput(given);
      const problems = checked.ok ? [] : checked.problems;
      let root: string | undefined;
      try {
        root = await tableRootOf(tableRoot, ctx.locations);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        problems.push(e.message);
      }
      if (checked.ok && root !== undefined && checked.value.tableFormat === 'iceberg') {
        problems.push("tableRoot is for Delta sweeps: an Iceberg sweep's tables are local");
      }
      if (!checked.ok || problems.length > 0) throw new InputError(problems.join('; '), problems);
      await refuseLongSweep(ctx.db, checked.value, root, ctx.maxWorkMinutes);
      return createSweep(ctx.db, ctx.boss, checked.value, callerOf(ctx), root);
    },
  }),
  cancelSweep: t.field({
    type: SweepType,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const sweepId = String(id);
      const sweep = await ctx.db.sweep.findUnique({ where: { id: sweepId } });
      if (!sweep) throw new NotFoundError(`sweep ${sweepId}`);
      // Still queued: it ends here and the worker that fetches its job finds it cancelled.
      const now = new Date();
      const queued = await ctx.db.sweep.updateMany({
        where: { id: sweepId, status: 'QUEUED' },
        data: {
          status: 'CANCELLED',
          reason: 'cancelled before it started',
          finishedAt: now,
          cancelRequestedAt: now,
          cancelledBy: storedActor(callerOf(ctx)),
        },
      });
      if (queued.count === 1) {
        await announceSweep(ctx.db, sweepId);
      } else {
        const running = await ctx.db.sweep.updateMany({
          where: { id: sweepId, status: 'RUNNING' },
          data: { cancelRequestedAt: now, cancelledBy: storedActor(callerOf(ctx)) },
        });
        if (running.count === 0) throw new ConflictError(`sweep ${sweepId} has already ended (${sweep.status})`);
        // The worker holding the sweep listens on this channel and stops its writer processes.
        await ctx.db.$executeRaw`SELECT pg_notify(${CANCEL_CHANNEL}, ${sweepId})`;
      }
      return ctx.db.sweep.findUniqueOrThrow({ where: { id: sweepId } });
    },
  }),
}));

builder.subscriptionFields((t) => ({
  sweepProgress: t.field({
    type: SweepType,
    description: 'the sweep as it runs (status, done of total, the N running), until it ends',
    args: { id: t.arg.id({ required: true }) },
    subscribe: async function* (_r, { id }, ctx) {
      const sweep = await ctx.db.sweep.findUnique({ where: { id: String(id) } });
      if (!sweep) throw new NotFoundError(`sweep ${id}`);
      yield* sweepUpdates(ctx.db, ctx.hub, sweep.id);
    },
    resolve: (s) => s,
  }),
}));
