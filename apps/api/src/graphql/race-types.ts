/** A race as the API shows it, and the events that report its progress. */
import { formatOf, namedRoots } from '@racelab/lab';
import type { Race, RaceEvent } from '../db/prisma';
import { specOf } from '../races/spec';
import { specForClients } from '../races/spec-for-clients';
import { verdictSummary, worstVerdict } from '../races/verdict-summary';
import { ActorType, storedActorOf } from './actor-types';
import { builder } from './builder';
import { clientSafeText, clientSafeTextOrNull } from './client-safe-text';
import { KeyValue, pairs } from './key-value-types';
import { RaceStatusEnum } from './race-status';
import { RunType } from './run-types';

export const RaceType = builder.objectRef<Race>('Race').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    caseId: t.exposeString('caseId', { nullable: true }),
    title: t.exposeString('title'),
    status: t.field({ type: RaceStatusEnum, resolve: (r) => r.status }),
    createdAt: t.string({ resolve: (r) => r.createdAt.toISOString() }),
    startedAt: t.string({ nullable: true, resolve: (r) => r.startedAt?.toISOString() ?? null }),
    finishedAt: t.string({ nullable: true, resolve: (r) => r.finishedAt?.toISOString() ?? null }),
    runsRequested: t.exposeInt('runsRequested'),
    scale: t.exposeFloat('scale'),
    reason: t.string({
      nullable: true,
      description: 'why the race failed or was cancelled',
      resolve: (r, _args, ctx) => clientSafeTextOrNull(r.reason, ctx),
    }),
    worker: t.exposeString('worker', { nullable: true }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
    cancelledBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.cancelledBy) }),
    spec: t.string({
      description: "the race as the worker runs it (JSON; the server's folders shown by the settings that name them)",
      resolve: (r, _args, ctx) => specForClients(r.spec, namedRoots(ctx.locations)),
    }),
    tableRoot: t.string({ nullable: true, resolve: (r) => specOf(r.spec).tableRoot ?? null }),
    realLibrary: t.string({
      nullable: true,
      description: "the real library the writers ran in (startRace's real run); null when the engine emulated them",
      resolve: (r) => specOf(r.spec).realLibrary ?? null,
    }),
    warnings: t.stringList({
      description:
        'what was said when the race was submitted, e.g. a writer whose predicate matches no rows of the table as it was then (that writer will end with nothing to commit)',
      resolve: (r) => specOf(r.spec).warnings ?? [],
    }),
    tableLocation: t.string({
      nullable: true,
      description: "the table of one's own whose copies the race ran on, as it was named; null for the lab's tables",
      resolve: (r) => {
        const c = specOf(r.spec).case;
        return formatOf(c).ownTable(c)?.display ?? null;
      },
    }),
    tableProperties: t.field({
      type: [KeyValue],
      resolve: (r) => {
        const c = specOf(r.spec).case;
        return pairs(formatOf(c).tableProperties(c));
      },
    }),
    runs: t.field({
      type: [RunType],
      resolve: (r, _args, ctx) => ctx.loaders.runsOf(r.id),
    }),
    verdictSummary: t.string({
      nullable: true,
      description: 'the runs\' verdicts in one line, e.g. "data OK in 5 of 5"; null while no run has a verdict',
      resolve: async (r, _args, ctx) => verdictSummary(await ctx.loaders.verdictsOf(r.id), r.runsRequested),
    }),
    verdictStatus: t.string({
      nullable: true,
      description: "the worst of the runs' verdict statuses (serializable, reordered, not-serializable)",
      resolve: async (r, _args, ctx) => worstVerdict(await ctx.loaders.verdictsOf(r.id)),
    }),
  }),
});

export const RaceEventType = builder.objectRef<RaceEvent>('RaceEvent').implement({
  fields: (t) => ({
    raceId: t.exposeID('raceId'),
    runIndex: t.exposeInt('runIndex', { nullable: true }),
    message: t.string({ resolve: (e, _args, ctx) => clientSafeText(e.message, ctx) }),
    status: t.field({ type: RaceStatusEnum, resolve: (e) => e.status }),
    sequence: t.exposeInt('id', { description: 'increases with every event of every race' }),
    at: t.string({ resolve: (e) => e.createdAt.toISOString() }),
  }),
});
