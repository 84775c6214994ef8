/**
 * The object types of the API: those of contracts/api.graphql with their exact names and fields,
 * extended with what the lab records (timings, bytes, the run's commit log, reasons).
 */
import { clientSafeMessage, type LabCase, namedRoots } from '@racelab/lab';
import type { Race, RaceEvent, Run, TableCheck, WriterOutcome } from '../db/prisma';
import type { RaceSpec } from '../races/spec';
import { type ApiContext, builder } from './builder';

/**
 * Stored error text as a client sees it. Workers store it safe already; rows written before they did
 * may quote SQL or server folders, so it is made safe again when read (that changes nothing otherwise).
 */
export const shown = (text: string, ctx: ApiContext) => clientSafeMessage(text, { roots: namedRoots(ctx.locations) });
const shownOrNull = (text: string | null, ctx: ApiContext) => (text === null ? null : shown(text, ctx));

export const RaceStatusEnum = builder.enumType('RaceStatus', {
  values: ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'] as const,
});

export const KeyValueInput = builder.inputType('KeyValueInput', {
  fields: (t) => ({ key: t.string({ required: true }), value: t.string({ required: true }) }),
});

export const WriterInputType = builder.inputType('WriterInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    operation: t.string({
      required: true,
      description: 'append, update, delete, optimize, overwrite (replace a day), check-then-append',
    }),
    predicate: t.string({ description: 'SQL predicate over the table, parsed by the engine (update, delete)' }),
    set: t.field({ type: [KeyValueInput], description: 'update: column = expression' }),
    day: t.string({ description: 'append, overwrite, check-then-append: 2025-02-01, 2025-02-02 or 2025-02-14' }),
    maxCommitRetries: t.int({ description: 'delta-rs max_commit_retries (default 15)' }),
    retryLoopAttempts: t.int({ description: 'an application loop that redoes the whole change on CommitFailedError' }),
    blindAppend: t.boolean(),
    startAfter: t.string({ description: 'the name of a writer that must have committed first' }),
  }),
});

export interface KeyValueShape {
  key: string;
  value: string | null;
}
export const KeyValue = builder.objectRef<KeyValueShape>('KeyValue').implement({
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value', { nullable: true }) }),
});

export interface ValueCountShape {
  value: string;
  rows: number;
}
export const ValueCount = builder.objectRef<ValueCountShape>('ValueCount').implement({
  fields: (t) => ({ value: t.exposeString('value'), rows: t.exposeInt('rows') }),
});

const describeCase = (c: LabCase): string => {
  if (c.engine === 'postgres') {
    return `Postgres (${c.isolation}): transaction A updates VendorID ${c.vendorA} and holds its locks; B updates VendorID ${c.vendorB}.`;
  }
  const table = c.engine === 'delta' ? `the ${c.table} Delta table` : 'the Iceberg table of 2025-01-15 (SQL catalog)';
  const props = Object.entries(c.properties ?? {}).map(([k, v]) => `${k}=${v}`);
  const writers = c.writers.map((w) => {
    const op = w.operation;
    const what =
      op.kind === 'update'
        ? `update ${Object.entries(op.set)
            .map(([k, v]) => `${k} = ${v}`)
            .join(', ')} where ${op.predicate}`
        : op.kind === 'delete'
          ? `delete where ${op.predicate}`
          : 'day' in op
            ? `${op.kind} ${op.day}${'blind' in op && op.blind ? ' (blind)' : ''}`
            : op.kind;
    const extras = [
      w.maxCommitRetries !== undefined && `max commit retries ${w.maxCommitRetries}`,
      w.retryLoop !== undefined && `retry loop of ${w.retryLoop}`,
      w.startAfter && `starts after ${w.startAfter} committed`,
    ].filter(Boolean);
    return `${w.name}: ${what}${extras.length > 0 ? ` (${extras.join(', ')})` : ''}`;
  });
  return `On ${table}${props.length > 0 ? ` with ${props.join(', ')}` : ''}. ${writers.join('; ')}.`;
};

export const RaceCase = builder.objectRef<LabCase>('RaceCase').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.string({ resolve: describeCase }),
    engine: t.exposeString('engine', { description: 'delta, iceberg or postgres' }),
    writers: t.stringList({
      resolve: (c) => (c.engine === 'postgres' ? ['A', 'B'] : c.writers.map((w) => w.name)),
    }),
  }),
});

export const WriterTimings = builder
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
export const AttemptError = builder.objectRef<AttemptShape>('AttemptError').implement({
  fields: (t) => ({
    attempt: t.exposeInt('attempt'),
    errorClass: t.exposeString('errorClass'),
    errorMessage: t.string({ resolve: (a, _args, ctx) => shown(a.errorMessage, ctx) }),
    readVersion: t.int({ nullable: true, resolve: (a) => a.readVersion ?? null }),
  }),
});

export const WriterOutcomeType = builder.objectRef<WriterOutcome>('WriterOutcome').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    operation: t.exposeString('operation'),
    committed: t.exposeBoolean('committed'),
    version: t.exposeInt('version', { nullable: true }),
    attempts: t.exposeInt('attempts'),
    errorClass: t.exposeString('errorClass', { nullable: true }),
    errorMessage: t.string({ nullable: true, resolve: (w, _args, ctx) => shownOrNull(w.errorMessage, ctx) }),
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
  }),
});

const pairs = (o: unknown): KeyValueShape[] =>
  Object.entries((o ?? {}) as Record<string, unknown>).map(([key, v]) => ({
    key,
    value: v == null ? null : String(v),
  }));

export const TableCheckType = builder.objectRef<TableCheck>('TableCheck').implement({
  fields: (t) => ({
    version: t.exposeInt('version', { nullable: true }),
    rows: t.exposeInt('rows'),
    distinctTripIds: t.exposeInt('distinctTripIds', { nullable: true }),
    dataFilesOnDisk: t.exposeInt('dataFilesOnDisk', { nullable: true }),
    dataFilesInLog: t.exposeInt('dataFilesInLog', { nullable: true }),
    tripsOnDay: t.field({ type: [KeyValue], resolve: (c) => pairs(c.tripsOnDay) }),
    tipDeltaByVendor: t.field({ type: [KeyValue], resolve: (c) => pairs(c.tipDeltaByVendor) }),
  }),
});

interface LogEntryShape {
  position: number;
  writer: string;
  version: number | null;
  operation: string | null;
}
export const LogEntry = builder.objectRef<LogEntryShape>('LogEntry').implement({
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
    reason: t.string({ nullable: true, resolve: (r, _args, ctx) => shownOrNull(r.reason, ctx) }),
    commitOrder: t.exposeStringList('commitOrder'),
    commitLog: t.field({ type: [LogEntry], resolve: (r) => (r.commitLog ?? []) as unknown as LogEntryShape[] }),
  }),
});

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
      resolve: (r, _args, ctx) => shownOrNull(r.reason, ctx),
    }),
    worker: t.exposeString('worker', { nullable: true }),
    spec: t.string({ description: 'the race as the worker runs it (JSON)', resolve: (r) => JSON.stringify(r.spec) }),
    tableRoot: t.string({ nullable: true, resolve: (r) => (r.spec as unknown as RaceSpec).tableRoot ?? null }),
    tableProperties: t.field({
      type: [KeyValue],
      resolve: (r) => {
        const c = (r.spec as unknown as RaceSpec).case;
        return pairs(c.engine === 'postgres' ? {} : c.properties);
      },
    }),
    runs: t.field({
      type: [RunType],
      resolve: (r, _args, ctx) => ctx.loaders.runsOf(r.id),
    }),
  }),
});

export const RaceEventType = builder.objectRef<RaceEvent>('RaceEvent').implement({
  fields: (t) => ({
    raceId: t.exposeID('raceId'),
    runIndex: t.exposeInt('runIndex', { nullable: true }),
    message: t.string({ resolve: (e, _args, ctx) => shown(e.message, ctx) }),
    status: t.field({ type: RaceStatusEnum, resolve: (e) => e.status }),
    sequence: t.exposeInt('id', { description: 'increases with every event of every race' }),
    at: t.string({ resolve: (e) => e.createdAt.toISOString() }),
  }),
});
