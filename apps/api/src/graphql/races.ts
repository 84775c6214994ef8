/** Races: the case catalog, listing and reading races, starting and cancelling them, live progress. */

import { labCases, onBaseTable } from '@racelab/lab';
import { storedActor } from '../actors/actor';
import type { Db, Prisma, Race } from '../db/prisma';
import { ConflictError, InputError, NotFoundError } from '../errors/client-errors';
import { raceEvents } from '../races/progress';
import { realRunOf } from '../races/real-run';
import { raceSpec, specOf } from '../races/spec';
import { CANCEL_CHANNEL, createRace, emit } from '../races/store';
import { builder } from './builder';
import { callerOf } from './caller';
import { RaceCase } from './case-types';
import { StartRaceInputType } from './race-input';
import { RaceStatusEnum } from './race-status';
import { RaceEventType, RaceType } from './race-types';
import { refuseLongRace } from './work-limit';

const MAX_PAGE = 100;

const PageInfo = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true }),
  }),
});
const RaceEdge = builder.objectRef<{ cursor: string; node: Race }>('RaceEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: RaceType, resolve: (e) => e.node }) }),
});
const RaceConnection = builder
  .objectRef<{ edges: { cursor: string; node: Race }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>(
    'RaceConnection',
  )
  .implement({
    fields: (t) => ({
      edges: t.field({ type: [RaceEdge], resolve: (c) => c.edges }),
      pageInfo: t.field({ type: PageInfo, resolve: (c) => c.pageInfo }),
    }),
  });

/** Cursors are opaque to clients: the (createdAt, id) of the last race seen, newest first. */
const cursorOf = (r: Race) => Buffer.from(JSON.stringify([r.createdAt.toISOString(), r.id])).toString('base64url');
function afterCursor(cursor: string): Prisma.RaceWhereInput {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad');
    return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
  } catch {
    throw new InputError('after: not a cursor this API gave out');
  }
}

const IsolationCell = builder
  .objectRef<{ value: string | null; blindAppend: boolean; runs: number; updateCommitted: number }>('IsolationCell')
  .implement({
    description: 'Stored outcomes of races where an update that read v0 follows an append: did the update commit?',
    fields: (t) => ({
      value: t.exposeString('value', { nullable: true }),
      blindAppend: t.exposeBoolean('blindAppend'),
      runs: t.exposeInt('runs'),
      updateCommitted: t.exposeInt('updateCommitted'),
    }),
  });

builder.queryFields((t) => ({
  // The one case list: the lesson's cases, then the store cases (each says the store it needs).
  cases: t.field({ type: [RaceCase], resolve: () => labCases() }),
  races: t.field({
    type: RaceConnection,
    args: {
      first: t.arg.int({ defaultValue: 20 }),
      after: t.arg.string(),
      caseId: t.arg.string(),
      status: t.arg({ type: RaceStatusEnum }),
    },
    resolve: async (_r, args, ctx) => {
      const first = args.first ?? 20;
      if (first < 1 || first > MAX_PAGE) throw new InputError(`first must be from 1 to ${MAX_PAGE}`);
      const where: Prisma.RaceWhereInput = {
        ...(args.caseId != null && { caseId: args.caseId.toUpperCase() }),
        ...(args.status != null && { status: args.status }),
        ...(args.after != null && afterCursor(args.after)),
      };
      const rows = await ctx.db.race.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: first + 1,
      });
      const page = rows.slice(0, first);
      const edges = page.map((node) => ({ cursor: cursorOf(node), node }));
      return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor ?? null } };
    },
  }),
  race: t.field({
    type: RaceType,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.db.race.findUnique({ where: { id: String(id) } }),
  }),
  isolationMatrix: t.field({
    type: [IsolationCell],
    resolve: (_r, _a, ctx) => isolationMatrix(ctx.db),
  }),
}));

/**
 * Every stored run of a race on a lab table shaped like I1–I6 (an append, then an update that starts
 * after it), preset or custom, grouped by the isolation property's value and whether the append was blind.
 */
async function isolationMatrix(db: Db) {
  const races = await db.race.findMany({
    where: { status: { in: ['DONE', 'CANCELLED', 'FAILED'] } },
    select: { spec: true, runs: { where: { status: 'DONE' }, select: { writers: true } } },
  });
  const cells = new Map<
    string,
    { value: string | null; blindAppend: boolean; runs: number; updateCommitted: number }
  >();
  for (const race of races) {
    // The lesson's shapes on the lab's tables only: a table of one's own has its own data and properties.
    const c = onBaseTable(specOf(race.spec).case);
    if (c === null || c.writers.length !== 2) continue;
    const append = c.writers.find((w) => w.operation.kind === 'append');
    const update = c.writers.find((w) => w.operation.kind === 'update' && w.startAfter === append?.name);
    if (!append || !update || append.operation.kind !== 'append') continue;
    const value = c.properties?.['delta.isolationLevel'] ?? null;
    const blindAppend = append.operation.blind === true;
    const key = JSON.stringify([value, blindAppend]);
    const cell = cells.get(key) ?? { value, blindAppend, runs: 0, updateCommitted: 0 };
    for (const run of race.runs) {
      cell.runs++;
      if (run.writers.some((w) => w.name === update.name && w.committed)) cell.updateCommitted++;
    }
    if (cell.runs > 0) cells.set(key, cell);
  }
  // Unset first, then values by code unit (so 'WriteSerializable' and 'writeSerializable' never interleave).
  const key = (c: { value: string | null; blindAppend: boolean }) =>
    `${c.value === null ? 0 : 1}${c.value ?? ''}${Number(c.blindAppend)}`;
  return [...cells.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

builder.mutationFields((t) => ({
  startRace: t.field({
    type: RaceType,
    args: { input: t.arg({ type: StartRaceInputType, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const checked = await raceSpec(input, ctx.locations);
      const realLibrary = await realRunOf(input, checked.case, checked, ctx.locations);
      const spec = realLibrary === undefined ? checked : { ...checked, realLibrary };
      refuseLongRace(spec, ctx.maxWorkMinutes);
      return createRace(ctx.db, ctx.boss, spec, input.caseId == null ? null : spec.case.id, callerOf(ctx));
    },
  }),
  cancelRace: t.field({
    type: RaceType,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const raceId = String(id);
      const race = await ctx.db.race.findUnique({ where: { id: raceId } });
      if (!race) throw new NotFoundError(`race ${raceId}`);
      // Still queued: it ends here and the worker that fetches its job will find it cancelled.
      const queued = await ctx.db.race.updateMany({
        where: { id: raceId, status: 'QUEUED' },
        data: {
          status: 'CANCELLED',
          reason: 'cancelled before it started',
          finishedAt: new Date(),
          cancelRequestedAt: new Date(),
          cancelledBy: storedActor(callerOf(ctx)),
        },
      });
      if (queued.count === 1) {
        await emit(ctx.db, raceId, 'CANCELLED', 'cancelled before it started');
      } else {
        const running = await ctx.db.race.updateMany({
          where: { id: raceId, status: 'RUNNING' },
          data: { cancelRequestedAt: new Date(), cancelledBy: storedActor(callerOf(ctx)) },
        });
        if (running.count === 0) throw new ConflictError(`race ${raceId} has already ended (${race.status})`);
        // The worker holding the race listens on this channel and kills its writer processes.
        await ctx.db.$executeRaw`SELECT pg_notify(${CANCEL_CHANNEL}, ${raceId})`;
      }
      return ctx.db.race.findUniqueOrThrow({ where: { id: raceId } });
    },
  }),
}));

builder.subscriptionFields((t) => ({
  raceProgress: t.field({
    type: RaceEventType,
    args: { id: t.arg.id({ required: true }) },
    subscribe: async function* (_r, { id }, ctx) {
      const race = await ctx.db.race.findUnique({ where: { id: String(id) } });
      if (!race) throw new NotFoundError(`race ${id}`);
      yield* raceEvents(ctx.db, ctx.hub, race.id);
    },
    resolve: (e) => e,
  }),
}));
