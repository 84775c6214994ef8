/**
 * Sweeps in the database: created with their queue job in one transaction (as races are), moved through their
 * states by atomic updates, their progress kept on the row and announced with NOTIFY on the races' progress
 * channel (ids are UUIDs, so a sweep's never wakes a race's subscribers), so the API's one ProgressHub serves both.
 */

import { type SweepInput, sweepCommits } from '@racelab/contracts';
import { type Actor, storedActor } from '../actors/actor';
import type { Db, Prisma, Sweep } from '../db/prisma';
import { inTransaction, type PgBoss, SWEEP_QUEUE, type SweepJob } from '../queue/boss';
import { PROGRESS_CHANNEL } from '../races/store';

type Tx = Prisma.TransactionClient | Db;

export async function announceSweep(db: Tx, sweepId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${PROGRESS_CHANNEL}, ${sweepId})`;
}

export async function createSweep(
  db: Db,
  boss: PgBoss,
  input: SweepInput,
  startedBy: Actor,
  tableRoot?: string,
): Promise<Sweep> {
  return db.$transaction(async (tx) => {
    const sweep = await tx.sweep.create({
      data: {
        input: input as unknown as Prisma.InputJsonValue,
        total: sweepCommits(input),
        startedBy: storedActor(startedBy),
        ...(tableRoot !== undefined && { tableRoot }),
      },
    });
    const job: SweepJob = { sweepId: sweep.id };
    await boss.send(SWEEP_QUEUE, job, { db: inTransaction(tx) });
    return sweep;
  });
}

/** QUEUED → RUNNING for this worker; false when the sweep is no longer waiting (cancelled, taken). */
export async function claimSweep(db: Db, sweepId: string, worker: string): Promise<boolean> {
  const { count } = await db.sweep.updateMany({
    where: { id: sweepId, status: 'QUEUED' },
    data: { status: 'RUNNING', worker, startedAt: new Date() },
  });
  if (count === 1) await announceSweep(db, sweepId);
  return count === 1;
}

export interface SweepProgressRow {
  done: number;
  total: number;
  writers: number | null;
}

/**
 * Keeps the row's progress at the latest event without queueing one update per commit: while an update is in
 * flight, newer events replace each other and only the last is written next. `flush` waits for the last write.
 */
export function progressWriter(db: Db, sweepId: string) {
  let latest: SweepProgressRow | null = null;
  let running: Promise<void> | null = null;
  let failure: unknown = null;
  const drain = async () => {
    while (latest !== null) {
      const p = latest;
      latest = null;
      await db.sweep.updateMany({ where: { id: sweepId, status: 'RUNNING' }, data: p });
      await announceSweep(db, sweepId);
    }
  };
  return {
    push(p: SweepProgressRow) {
      latest = p;
      running ??= drain()
        .catch((e: unknown) => {
          failure ??= e;
        })
        .finally(() => {
          running = null;
        });
    },
    async flush() {
      while (running) await running;
      if (failure !== null) throw failure;
    },
  };
}

/** Ends a sweep that is still QUEUED or RUNNING; false if it had ended already. */
export async function endSweep(
  db: Db,
  sweepId: string,
  status: 'DONE' | 'FAILED' | 'CANCELLED',
  reason: string | null,
  results?: unknown,
): Promise<boolean> {
  const { count } = await db.sweep.updateMany({
    where: { id: sweepId, status: { in: ['QUEUED', 'RUNNING'] } },
    data: {
      status,
      reason,
      finishedAt: new Date(),
      writers: null,
      ...(results !== undefined && { results: results as Prisma.InputJsonValue }),
    },
  });
  await announceSweep(db, sweepId);
  return count === 1;
}
