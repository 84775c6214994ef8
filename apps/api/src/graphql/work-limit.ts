/**
 * The work limit at the door: startSweep and startRace estimate how long the work would take (the contracts'
 * estimateSweep and estimateRace, the same the CLI prints) and refuse it above LAB_MAX_WORK_MINUTES with TOO_LONG,
 * naming the estimate, the limit and the field that drives it, before anything is stored. A sweep is estimated
 * with the step times measured on its store by the latest sweep that finished there (the machine's cores with
 * them), else with the product's figures. The worker's deadline at the same limit stops what runs past it anyway.
 */
import { availableParallelism } from 'node:os';
import {
  estimateRace,
  estimateSweep,
  type StepTimes,
  type SweepEstimateContext,
  type SweepInput,
  type WorkEstimate,
  workRefusal,
} from '@racelab/contracts';
import type { Db } from '../db/prisma';
import { TooLongError } from '../errors/client-errors';
import type { RaceSpec } from '../races/spec';

interface StoredResults {
  machine?: { cores?: number };
  points?: { writers: number; measured?: StepTimes }[];
}

/** The store's step times as its latest finished sweep measured them, at its smallest N (the least contended). */
async function measuredOn(db: Db, store: 'local' | 's3'): Promise<SweepEstimateContext> {
  const latest = await db.sweep.findFirst({
    where: { status: 'DONE', tableRoot: store === 's3' ? { not: null } : null },
    orderBy: { finishedAt: 'desc' },
    select: { results: true },
  });
  const results = (latest?.results ?? {}) as StoredResults;
  const smallest = [...(results.points ?? [])].sort((a, b) => a.writers - b.writers)[0];
  const measured = smallest?.measured;
  const usable = measured !== undefined && measured.attemptMs.p50 > 0;
  return {
    store,
    cores: results.machine?.cores ?? availableParallelism(),
    ...(usable && { measured: { attemptMs: measured.attemptMs, prepareMs: measured.prepareMs } }),
  };
}

function refuseAbove(kind: 'sweep' | 'race', estimate: WorkEstimate, limitMinutes: number): void {
  const refused = workRefusal(kind, estimate, limitMinutes);
  if (refused === null) return;
  throw new TooLongError(refused.message, {
    estimateMinutes: estimate.minutes,
    limitMinutes,
    field: refused.field,
  });
}

/** Refuses a checked sweep estimated above the limit. */
export async function refuseLongSweep(db: Db, input: SweepInput, tableRoot: string | undefined, limitMinutes: number) {
  refuseAbove('sweep', estimateSweep(input, await measuredOn(db, tableRoot ? 's3' : 'local')), limitMinutes);
}

/** Refuses a race estimated above the limit. */
export function refuseLongRace(spec: RaceSpec, limitMinutes: number): void {
  const writers = 'writers' in spec.case ? spec.case.writers.length : 2;
  refuseAbove('race', estimateRace({ runs: spec.runs, scale: spec.scale, writers }), limitMinutes);
}
