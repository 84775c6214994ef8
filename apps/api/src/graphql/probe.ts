/**
 * The object-store probe over the API: `probeStore(location)` runs the engine's probe (is this store
 * safe for concurrent Delta writers?) and keeps its report; `storeProbes` and `storeProbe` read the
 * kept ones back for the dashboard's Store page.
 *
 * It writes to a bucket, so it is a mutation (the operation guard wants a token), and its work is
 * bounded before it starts: a location in a configured bucket only (LAB_S3_BUCKETS, through the
 * lab's resolveTableLocation), at most API_PROBE_LIMITS rounds and writers, one probe at a time per
 * API process, once per request (limits.ts). A store that cannot be reached is a report with
 * verdict `could-not-run`, kept like the others; a refused location or number touches no store.
 */

import {
  type DecidingCheck,
  type InformationalCheck,
  type LatencyStat,
  PROBE_DEFAULTS,
  ProbeInputError,
  type ProbeReport,
  probeSettings,
  probeStore,
} from '@racelab/engine';
import { LocationError, resolveTableLocation } from '@racelab/lab';
import { storedActor } from '../actors/actor';
import type { StoreProbe } from '../db/prisma';
import { ConflictError, InputError } from '../errors/client-errors';
import { ActorType, storedActorOf } from './actor-types';
import { builder } from './builder';
import { callerOf } from './caller';

/** Smaller than the CLI's limits: a request holds a connection for the whole probe (~25 s at the defaults on radosgw). */
export const API_PROBE_LIMITS = { rounds: 200, writers: 16 } as const;

const ProbeCheckType = builder.objectRef<DecidingCheck>('ProbeCheck').implement({
  description: 'one of the checks that decide whether the store is safe for concurrent Delta writers',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    outcome: t.exposeString('outcome', { description: 'passed, failed or not-run' }),
    detail: t.exposeString('detail', { description: 'what was seen, with counts' }),
    onDelta: t.exposeString('onDelta', { description: 'what a failure of this check does to a Delta table' }),
    tries: t.exposeInt('tries'),
    failures: t.exposeInt('failures'),
  }),
});

const ProbeInfoType = builder.objectRef<InformationalCheck>('ProbeInformationalCheck').implement({
  description: 'a check reported but not deciding the verdict',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    outcome: t.exposeString('outcome', {
      description: 'honoured, ignored, non-standard, not-supported, error or not-run',
    }),
    detail: t.exposeString('detail'),
  }),
});

const ProbeLatencyType = builder.objectRef<LatencyStat>('ProbeLatency').implement({
  description: 'the latency of one kind of call during the probe, in milliseconds',
  fields: (t) => ({
    call: t.exposeString('call'),
    count: t.exposeInt('count'),
    p50Ms: t.exposeFloat('p50Ms'),
    p99Ms: t.exposeFloat('p99Ms'),
    maxMs: t.exposeFloat('maxMs'),
  }),
});

const report = (p: StoreProbe) => p.report as unknown as ProbeReport;

const StoreProbeType = builder.objectRef<StoreProbe>('StoreProbe').implement({
  description: 'one run of the object-store probe and its verdict',
  fields: (t) => ({
    id: t.exposeID('id'),
    location: t.exposeString('location'),
    verdict: t.exposeString('verdict', { description: 'safe, unsafe or could-not-run' }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
    summary: t.string({
      description: 'the verdict in one line, naming each failed check',
      resolve: (p) => report(p).summary,
    }),
    probedAt: t.string({ resolve: (p) => p.createdAt.toISOString() }),
    durationMs: t.int({ resolve: (p) => report(p).durationMs }),
    writers: t.int({ resolve: (p) => report(p).settings.writers }),
    rounds: t.int({ resolve: (p) => report(p).settings.rounds }),
    checks: t.field({ type: [ProbeCheckType], resolve: (p) => report(p).checks }),
    informational: t.field({ type: [ProbeInfoType], resolve: (p) => report(p).informational }),
    latency: t.field({ type: [ProbeLatencyType], resolve: (p) => report(p).latency }),
    leftover: t.int({
      description: 'objects the clean-up left under the probe’s sub-prefix: 0 when it is empty again, -1 unknown',
      resolve: (p) => report(p).cleanup.leftover,
    }),
  }),
});

/** The location and numbers checked, or an InputError; nothing has touched a store yet. */
async function bounded(
  location: string,
  rounds: number | null | undefined,
  writers: number | null | undefined,
  ctx: Parameters<typeof resolveTableLocation>[1],
) {
  let path: string;
  try {
    const resolved = await resolveTableLocation(location, ctx);
    if (resolved.kind !== 's3') {
      throw new InputError(
        `probeStore needs an s3:// location in a configured bucket (LAB_S3_BUCKETS), got ${location}`,
      );
    }
    path = resolved.path;
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(`location: ${e.message}`);
    throw e;
  }
  const numbers = { rounds: rounds ?? PROBE_DEFAULTS.rounds, writers: writers ?? PROBE_DEFAULTS.writers };
  for (const name of ['rounds', 'writers'] as const) {
    if (numbers[name] > API_PROBE_LIMITS[name]) {
      throw new InputError(`${name}: at most ${API_PROBE_LIMITS[name]} over the API, got ${numbers[name]}`);
    }
  }
  try {
    probeSettings(path, numbers);
  } catch (e) {
    if (e instanceof ProbeInputError) throw new InputError(e.message);
    throw e;
  }
  return { path, ...numbers };
}

/** One probe at a time per API process: each holds up to ~3,000 requests' worth of a bucket's attention. */
let running = false;

builder.queryFields((t) => ({
  storeProbes: t.field({
    type: [StoreProbeType],
    description: 'the latest store probes, newest first',
    args: { first: t.arg.int({ defaultValue: 10 }) },
    resolve: (_r, { first }, ctx) => {
      const take = first ?? 10;
      if (take < 1 || take > 50) throw new InputError('first must be from 1 to 50');
      return ctx.db.storeProbe.findMany({ orderBy: { createdAt: 'desc' }, take });
    },
  }),
  storeProbe: t.field({
    type: StoreProbeType,
    nullable: true,
    description: 'one stored store probe; null when none has this id',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.db.storeProbe.findUnique({ where: { id: String(id) } }),
  }),
  storeBuckets: t.stringList({
    description:
      'the S3 buckets this server may use (LAB_S3_BUCKETS): probeStore and s3:// locations name one of them; ' +
      'empty when none is configured, and then the Store page says so instead of offering its form',
    resolve: (_r, _a, ctx) => [...(ctx.locations.buckets ?? [])],
  }),
}));

builder.mutationFields((t) => ({
  probeStore: t.field({
    type: StoreProbeType,
    description:
      'Probes an S3 location in a configured bucket: is the store safe for concurrent Delta writers? ' +
      'Writes only under a fresh sub-prefix of the location and removes it afterwards (docs/s3.md).',
    args: {
      location: t.arg.string({ required: true, description: 's3://bucket/prefix, the bucket in LAB_S3_BUCKETS' }),
      rounds: t.arg.int({
        description: `rounds of concurrent writers (default ${PROBE_DEFAULTS.rounds}, at most ${API_PROBE_LIMITS.rounds})`,
      }),
      writers: t.arg.int({
        description: `concurrent writers per round (default ${PROBE_DEFAULTS.writers}, at most ${API_PROBE_LIMITS.writers})`,
      }),
    },
    resolve: async (_r, { location, rounds, writers }, ctx) => {
      const settings = await bounded(location, rounds, writers, ctx.locations);
      if (running) throw new ConflictError('a store probe is already running here; try again when it has finished');
      running = true;
      let result: ProbeReport;
      try {
        result = await probeStore(settings.path, { rounds: settings.rounds, writers: settings.writers });
      } finally {
        running = false;
      }
      return ctx.db.storeProbe.create({
        data: {
          location: result.location,
          verdict: result.verdict,
          report: result as unknown as object,
          startedBy: storedActor(callerOf(ctx)),
        },
      });
    },
  }),
}));
