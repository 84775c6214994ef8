/**
 * The object types of the API: those of contracts/api.graphql with their exact names and fields,
 * extended with what the lab records (timings, bytes, the run's commit log, reasons).
 */
import { clientSafeMessage, type FailedWriterCheck, type LabCase, namedRoots, type VerdictWriter } from '@racelab/lab';
import type { Race, RaceEvent, Run, TableCheck, WriterOutcome } from '../db/prisma';
import type { RaceSpec } from '../races/spec';
import type { StoredVerdict } from '../races/store';
import { verdictSummary, worstVerdict } from '../races/verdict-summary';
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

export const VerdictWriterType = builder.objectRef<VerdictWriter>('VerdictWriter').implement({
  description: "A committed writer's change in the raced table, when the table is not the serial one",
  fields: (t) => ({
    name: t.exposeString('name'),
    notApplied: t.exposeBoolean('notApplied', { description: 'absent although the writer reported committed' }),
    appliedTwice: t.exposeBoolean('appliedTwice', { description: 'in the raced table twice' }),
  }),
});

type StoredExample = NonNullable<StoredVerdict['examples']>[number];
export const VerdictExampleType = builder.objectRef<StoredExample>('VerdictExample').implement({
  description: 'A row that differs between the raced table and the serial replay',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'duplicated, missing or extra' }),
    row: t.field({
      type: [KeyValue],
      description: "the row's columns in the table's order, as text (dates and timestamps as ISO text)",
      resolve: (e) => pairs(Object.fromEntries(e.row)),
    }),
  }),
});

export const FailedWriterCheckType = builder.objectRef<FailedWriterCheck>('FailedWriterCheck').implement({
  description: 'A writer that failed: what its change would have touched, left as it was',
  fields: (t) => ({
    name: t.exposeString('name'),
    rowsTouched: t.exposeInt('rowsTouched'),
    untouched: t.exposeBoolean('untouched', { description: 'true: nothing of its change leaked in' }),
    summary: t.exposeString('summary'),
  }),
});

export const RunVerdictType = builder.objectRef<StoredVerdict>('RunVerdict').implement({
  description:
    'The serial-replay oracle: the committed writers replayed one after another on a fresh copy of the starting table, compared with the raced table as a multiset of rows',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'serializable, reordered or not-serializable' }),
    order: t.exposeStringList('order', {
      description: 'the serial order replayed: commit order, or the one that matched',
    }),
    summary: t.exposeString('summary'),
    rowsDuplicated: t.exposeInt('rowsDuplicated', { nullable: true }),
    rowsMissing: t.exposeInt('rowsMissing', { nullable: true }),
    rowsExtra: t.exposeInt('rowsExtra', { nullable: true }),
    writers: t.field({ type: [VerdictWriterType], resolve: (v) => v.writers ?? [] }),
    examples: t.field({ type: [VerdictExampleType], resolve: (v) => v.examples ?? [] }),
    failedWriters: t.field({ type: [FailedWriterCheckType], resolve: (v) => v.failedWriters }),
    oracleMs: t.exposeFloat('oracleMs', { description: "the oracle's own time, outside the run's durationMs" }),
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
    verdict: t.field({
      type: RunVerdictType,
      nullable: true,
      description:
        'did the table end as some serial order of the committed writers would leave it? null until the run ends, and for runs stored before verdicts',
      resolve: (r) => r.verdict as unknown as StoredVerdict | null,
    }),
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
    message: t.string({ resolve: (e, _args, ctx) => shown(e.message, ctx) }),
    status: t.field({ type: RaceStatusEnum, resolve: (e) => e.status }),
    sequence: t.exposeInt('id', { description: 'increases with every event of every race' }),
    at: t.string({ resolve: (e) => e.createdAt.toISOString() }),
  }),
});
