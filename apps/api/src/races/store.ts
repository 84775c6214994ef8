/**
 * Races in the database: created with their queue job in one transaction (a race is never stored
 * without its job, nor queued without its row), moved through their states by atomic updates, and
 * every step recorded as an event and announced with NOTIFY for the progress subscription.
 */

import { formatOf, type RunResult, type RunVerdict, type VerdictExample } from '@racelab/lab';
import { type Actor, storedActor } from '../actors/actor';
import { type Db, Prisma, type RaceStatus } from '../db/prisma';
import { inTransaction, type PgBoss, RACE_QUEUE, type RaceJob } from '../queue/boss';
import { type RaceSpec, storedSpec } from './spec';

export const PROGRESS_CHANNEL = 'race_progress';
export const CANCEL_CHANNEL = 'race_cancel';
export const TERMINAL: readonly RaceStatus[] = ['DONE', 'FAILED', 'CANCELLED'];

type Tx = Prisma.TransactionClient | Db;

export async function emit(
  db: Tx,
  raceId: string,
  status: RaceStatus,
  message: string,
  runIndex: number | null = null,
): Promise<void> {
  await db.raceEvent.create({ data: { raceId, status, message, runIndex } });
  await db.$executeRaw`SELECT pg_notify(${PROGRESS_CHANNEL}, ${raceId})`;
}

/** What a race runs on: the lab's data set at a scale, or copies of a table of the user's own. */
function onWhat(spec: RaceSpec): string {
  const own = formatOf(spec.case).ownTable(spec.case);
  return own ? `on copies of ${own.display}` : `at scale ${spec.scale}`;
}

export async function createRace(db: Db, boss: PgBoss, spec: RaceSpec, caseId: string | null, startedBy: Actor) {
  return db.$transaction(async (tx) => {
    const race = await tx.race.create({
      data: {
        caseId,
        title: spec.case.title,
        spec: storedSpec(spec) as Prisma.InputJsonValue,
        runsRequested: spec.runs,
        scale: spec.scale,
        startedBy: storedActor(startedBy),
      },
    });
    const job: RaceJob = { raceId: race.id };
    await boss.send(RACE_QUEUE, job, { db: inTransaction(tx) });
    await emit(tx, race.id, 'QUEUED', `queued: ${spec.runs} run(s) of ${caseId ?? 'a custom race'} ${onWhat(spec)}`);
    return race;
  });
}

/** QUEUED → RUNNING for this worker; false when the race is no longer waiting (cancelled, taken). */
export async function claimRace(db: Db, raceId: string, worker: string): Promise<boolean> {
  const { count } = await db.race.updateMany({
    where: { id: raceId, status: 'QUEUED' },
    data: { status: 'RUNNING', worker, startedAt: new Date() },
  });
  if (count === 1) await emit(db, raceId, 'RUNNING', `running on worker ${worker}`);
  return count === 1;
}

export async function startRun(db: Db, raceId: string, index: number): Promise<void> {
  await db.run.upsert({
    where: { raceId_index: { raceId, index } },
    create: { raceId, index },
    update: { status: 'RUNNING', startedAt: new Date() },
  });
}

/** The run's log in brief, in commit order: which writer took which version. */
function commitLog(r: RunResult) {
  return (r.commitOrder ?? []).map((name, i) => {
    const w = r.writers.find((x) => x.name === name);
    return { position: i + 1, writer: name, version: w?.version ?? null, operation: w?.operation ?? null };
  });
}

/**
 * A verdict as stored: each example row as [column, value] pairs, since a JSONB column keeps no key order and
 * a row reads best with its columns in the table's order.
 */
export type StoredVerdict = Omit<RunVerdict, 'examples'> & {
  examples?: { kind: VerdictExample['kind']; row: [string, unknown][] }[];
};

function storedVerdict(v: RunVerdict): StoredVerdict {
  return { ...v, examples: v.examples?.map((e) => ({ kind: e.kind, row: Object.entries(e.row) })) };
}

export async function saveRun(db: Db, raceId: string, r: RunResult): Promise<void> {
  const { tipChangedByVendor, tipDeltaValues, tripsByVendor, stagingFilesOnDisk, tempLogFilesOnDisk } = r.table;
  await db.$transaction(async (tx) => {
    const run = await tx.run.update({
      where: { raceId_index: { raceId, index: r.index } },
      data: {
        status: 'DONE',
        finishedAt: new Date(),
        durationMs: r.durationMs ?? null,
        commitOrder: r.commitOrder ?? [],
        commitLog: commitLog(r),
        verdict: r.verdict ? (storedVerdict(r.verdict) as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      },
    });
    await tx.writerOutcome.createMany({
      data: r.writers.map((w, position) => ({
        runId: run.id,
        position,
        name: w.name,
        operation: w.operation,
        committed: w.committed,
        version: w.version,
        attempts: w.attempts,
        commitRetries: w.commitRetries,
        errorClass: w.errorClass,
        errorMessage: w.errorMessage,
        attemptErrors: w.attemptErrors as unknown as Prisma.InputJsonValue,
        readVersion: w.readVersion ?? null,
        warnings: w.warnings,
        timings: w.timings ? (w.timings as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
        filesWritten: w.filesWritten ?? null,
        bytesWritten: w.bytesWritten === undefined ? null : BigInt(w.bytesWritten),
        peakRssMb: w.peakRssMb ?? null,
        host: w.host ?? null,
        filesRemoved: w.filesRemoved ?? null,
        filesAdded: w.filesAdded ?? null,
        observed: w.observed ?? Prisma.DbNull,
        library: w.library ?? null,
        libraryVersion: w.libraryVersion ?? null,
        libraryRun: w.run ?? null,
      })),
    });
    await tx.tableCheck.create({
      data: {
        runId: run.id,
        version: r.table.version,
        rows: r.table.rows,
        distinctTripIds: r.table.distinctTripIds,
        dataFilesOnDisk: r.table.dataFilesOnDisk,
        dataFilesInLog: r.table.dataFilesInLog,
        // The lesson's figures: a table of the user's own has none.
        tripsOnDay: r.table.tripsOnDay ?? {},
        tipDeltaByVendor: r.table.tipDeltaByVendor ?? {},
        details: {
          tipChangedByVendor,
          tipDeltaValues,
          tripsByVendor,
          stagingFilesOnDisk,
          tempLogFilesOnDisk,
        } as Prisma.InputJsonValue,
      },
    });
  });
}

/** Ends a race that is still RUNNING (or QUEUED), with its unfinished runs; false if it had ended. */
export async function endRace(
  db: Db,
  raceId: string,
  status: 'DONE' | 'FAILED' | 'CANCELLED',
  reason: string | null,
  environment?: Record<string, unknown>,
): Promise<boolean> {
  const ended = await db.$transaction(async (tx) => {
    const { count } = await tx.race.updateMany({
      where: { id: raceId, status: { in: ['QUEUED', 'RUNNING'] } },
      data: {
        status,
        reason,
        finishedAt: new Date(),
        ...(environment && { environment: environment as Prisma.InputJsonValue }),
      },
    });
    if (count === 0) return false;
    await tx.run.updateMany({
      where: { raceId, status: 'RUNNING' },
      data: { status: status === 'DONE' ? 'FAILED' : status, reason, finishedAt: new Date() },
    });
    await emit(tx, raceId, status, reason ?? 'done');
    return true;
  });
  return ended;
}
