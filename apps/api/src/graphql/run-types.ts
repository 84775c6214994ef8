/** One run of a race: each writer's outcome, the table it left, its commit log and its verdict. */
import { WRITER_OUTCOMES, WRITER_RUNS, writerOutcomeOf } from '@racelab/contracts';
import type { Run, TableCheck, WriterOutcome } from '../db/prisma';
import type { StoredVerdict } from '../races/store';
import { builder } from './builder';
import { clientSafeText, clientSafeTextOrNull } from './client-safe-text';
import { KeyValue, pairs } from './key-value-types';
import { RaceStatusEnum } from './race-status';
import { RunVerdictType } from './verdict-types';

const WriterTimings = builder
  .objectRef<{ opened: number; prepared: number; released: number; finished: number }>('WriterTimings')
  .implement({
    description: 'Milliseconds from the run start',
    fields: (t) => ({
      opened: t.exposeFloat('opened'),
      prepared: t.exposeFloat('prepared'),
      released: t.exposeFloat('released'),
      finished: t.exposeFloat('finished'),
    }),
  });

interface AttemptShape {
  attempt: number;
  errorClass: string;
  errorMessage: string;
  readVersion?: number | null;
}
const AttemptError = builder.objectRef<AttemptShape>('AttemptError').implement({
  fields: (t) => ({
    attempt: t.exposeInt('attempt'),
    errorClass: t.exposeString('errorClass'),
    errorMessage: t.string({ resolve: (a, _args, ctx) => clientSafeText(a.errorMessage, ctx) }),
    readVersion: t.int({ nullable: true, resolve: (a) => a.readVersion ?? null }),
  }),
});

/** COMMITTED, FAILED or NOTHING_TO_COMMIT: the contracts' outcomes as GraphQL names them. */
const enumName = (o: string) => o.toUpperCase().replaceAll('-', '_');
const WriterOutcomeKindEnum = builder.enumType('WriterOutcomeKind', {
  description:
    'How a writer ended: it committed, it failed, or it had nothing to commit (no error, nothing written: a delete or update that matched no rows)',
  values: Object.fromEntries(WRITER_OUTCOMES.map((o) => [enumName(o), { value: enumName(o) }])),
});

const LibraryRunEnum = builder.enumType('LibraryRun', {
  description: 'REAL: the library itself ran the change; EMULATED: the engine ran it as the library would',
  values: Object.fromEntries(WRITER_RUNS.map((r) => [enumName(r), { value: enumName(r) }])),
});

const WriterOutcomeType = builder.objectRef<WriterOutcome>('WriterOutcome').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    operation: t.exposeString('operation'),
    committed: t.exposeBoolean('committed'),
    outcome: t.field({
      type: WriterOutcomeKindEnum,
      description:
        'committed, failed, or nothing to commit ("matched no rows: nothing to commit" for a delete or update)',
      resolve: (w) => enumName(writerOutcomeOf(w)),
    }),
    version: t.exposeInt('version', { nullable: true }),
    attempts: t.exposeInt('attempts'),
    errorClass: t.exposeString('errorClass', { nullable: true }),
    errorMessage: t.string({ nullable: true, resolve: (w, _args, ctx) => clientSafeTextOrNull(w.errorMessage, ctx) }),
    commitRetries: t.exposeInt('commitRetries', { nullable: true }),
    readVersion: t.exposeInt('readVersion', { nullable: true }),
    attemptErrors: t.field({ type: [AttemptError], resolve: (w) => w.attemptErrors as unknown as AttemptShape[] }),
    warnings: t.exposeStringList('warnings'),
    timings: t.field({
      type: WriterTimings,
      nullable: true,
      resolve: (w) => w.timings as { opened: number; prepared: number; released: number; finished: number } | null,
    }),
    filesWritten: t.exposeInt('filesWritten', { nullable: true }),
    bytesWritten: t.float({
      nullable: true,
      resolve: (w) => (w.bytesWritten === null ? null : Number(w.bytesWritten)),
    }),
    peakRssMb: t.exposeFloat('peakRssMb', { nullable: true }),
    host: t.exposeString('host', { nullable: true, description: 'the worker that ran it, for races across workers' }),
    library: t.exposeString('library', {
      nullable: true,
      description:
        "the library that ran the change, by the engine's names (delta-rs, pyiceberg, delta-spark); null on outcomes stored before libraries were recorded, and for Postgres writers",
    }),
    libraryVersion: t.exposeString('libraryVersion', {
      nullable: true,
      description: "that library's version: a real library's own (e.g. 1.6.6), the engine's for an emulated writer",
    }),
    run: t.field({
      type: LibraryRunEnum,
      nullable: true,
      description: 'whether the library itself ran the change or the engine emulated it; null where library is',
      resolve: (w) => (w.libraryRun === null ? null : enumName(w.libraryRun)),
    }),
  }),
});

/** What writers killed at work left beside the table, kept in the check's details (older rows have none). */
const leftovers = (c: TableCheck) =>
  (c.details ?? {}) as { stagingFilesOnDisk?: number | null; tempLogFilesOnDisk?: number | null };

const TableCheckType = builder.objectRef<TableCheck>('TableCheck').implement({
  fields: (t) => ({
    version: t.exposeInt('version', { nullable: true }),
    rows: t.exposeInt('rows'),
    distinctTripIds: t.exposeInt('distinctTripIds', { nullable: true }),
    dataFilesOnDisk: t.exposeInt('dataFilesOnDisk', { nullable: true }),
    dataFilesInLog: t.exposeInt('dataFilesInLog', { nullable: true }),
    tripsOnDay: t.field({ type: [KeyValue], resolve: (c) => pairs(c.tripsOnDay) }),
    tipDeltaByVendor: t.field({ type: [KeyValue], resolve: (c) => pairs(c.tipDeltaByVendor) }),
    stagingFilesOnDisk: t.int({
      nullable: true,
      description: "files under the table's _staging/ that a writer killed at work left (null: not counted)",
      resolve: (c) => leftovers(c).stagingFilesOnDisk ?? null,
    }),
    tempLogFilesOnDisk: t.int({
      nullable: true,
      description: '_delta_log files under a temporary name that a writer killed at work left (null: not counted)',
      resolve: (c) => leftovers(c).tempLogFilesOnDisk ?? null,
    }),
  }),
});

interface LogEntryShape {
  position: number;
  writer: string;
  version: number | null;
  operation: string | null;
}
const LogEntry = builder.objectRef<LogEntryShape>('LogEntry').implement({
  description: 'One commit of the run, in the order the log records them',
  fields: (t) => ({
    position: t.exposeInt('position'),
    writer: t.exposeString('writer'),
    version: t.exposeInt('version', { nullable: true }),
    operation: t.exposeString('operation', { nullable: true }),
  }),
});

export type RunShape = Run & { writers: WriterOutcome[]; tableCheck: TableCheck | null };
export const RunType = builder.objectRef<RunShape>('Run').implement({
  fields: (t) => ({
    index: t.exposeInt('index'),
    status: t.field({ type: RaceStatusEnum, resolve: (r) => r.status }),
    writers: t.field({ type: [WriterOutcomeType], resolve: (r) => r.writers }),
    table: t.field({ type: TableCheckType, nullable: true, resolve: (r) => r.tableCheck }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    reason: t.string({ nullable: true, resolve: (r, _args, ctx) => clientSafeTextOrNull(r.reason, ctx) }),
    commitOrder: t.exposeStringList('commitOrder'),
    commitLog: t.field({ type: [LogEntry], resolve: (r) => (r.commitLog ?? []) as unknown as LogEntryShape[] }),
    verdict: t.field({
      type: RunVerdictType,
      nullable: true,
      description:
        'did the table end as some serial order of the committed writers would leave it? null until the run ends, and for runs stored before verdicts',
      resolve: (r) => r.verdict as unknown as StoredVerdict | null,
    }),
  }),
});
