/**
 * Types and fields about tables: the per-engine reading of an isolation string, the audit of
 * tables' `delta.isolationLevel`, the layout of a table's files, and the conflict forecast.
 */

import { propertyProblems, repeatedKeys } from '@racelab/contracts';
import { type EngineForecast, ExpressionError, ISOLATION_LEVEL_KEY, type StructType } from '@racelab/engine';
import {
  CaseInputError,
  customCase,
  type Dataset,
  FEB_DAYS,
  type FebDay,
  ForecastError,
  forecastConflict,
  labTableSchema,
  previewAppend,
  tableLayout,
  type WriterSpec,
} from '@racelab/lab';
import { storedActor } from '../actors/actor';
import type { Audit } from '../db/prisma';
import { InputError } from '../errors/client-errors';
import { type Measured, measuredOutcomes, type OrderTally } from '../races/measured';
import { toCustomWriter, type WriterInput } from '../races/spec';
import { type Interpretation, interpret } from '../tables/interpret';
import { openTable as openTableAt, refusedTable } from '../tables/open-table';
import { ActorType, storedActorOf } from './actor-types';
import { type ApiContext, builder } from './builder';
import { callerOf } from './caller';
import { clientSafeText } from './client-safe-text';
import { EngineForecastType } from './engine-forecast-types';
import { KeyValue, type KeyValueShape, pairs, ValueCount } from './key-value-types';
import { KeyValueInput, WriterInputType } from './race-input';

export const MAX_AUDIT_LOCATIONS = 50;
const MAX_LAYOUT_PREDICATES = 20;

/** Two writers, validated as a two-writer race on `schema` (names, operations, expressions). */
function writerPair(first: WriterInput, second: WriterInput, schema: StructType): [WriterSpec, WriterSpec] {
  try {
    const c = customCase({ writers: [first, second].map(toCustomWriter) }, schema);
    return [c.writers[0] as WriterSpec, c.writers[1] as WriterSpec];
  } catch (e) {
    if (e instanceof CaseInputError) throw new InputError(e.message, e.problems);
    throw e;
  }
}

export const EngineInterpretation = builder.objectRef<Interpretation>('EngineInterpretation').implement({
  fields: (t) => ({
    engine: t.exposeString('engine'),
    outcome: t.exposeString('outcome', { description: 'PARSED, SILENTLY_IGNORED or REJECTED' }),
    effectiveLevel: t.exposeString('effectiveLevel', { nullable: true }),
    message: t.exposeString('message'),
    flagged: t.exposeBoolean('flagged', { description: 'the author most likely meant something else' }),
    suggestion: t.exposeString('suggestion', { nullable: true }),
    error: t.exposeString('error', { nullable: true, description: 'the exact error text the engine raises' }),
  }),
});

/** A user's location resolved and its Delta table opened (tables/open-table.ts). */
const openTable = (ctx: ApiContext, location: string) => openTableAt(location, ctx.locations);

export const TableAudit = builder.objectRef<Audit>('TableAudit').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    location: t.exposeString('location'),
    isolationLevel: t.exposeString('isolationLevel', { nullable: true }),
    interpretations: t.field({
      type: [EngineInterpretation],
      resolve: (a) => a.interpretations as unknown as Interpretation[],
    }),
    flagged: t.exposeBoolean('flagged', { description: 'some engine will ignore or reject the value' }),
    flaggedBy: t.stringList({
      resolve: (a) => (a.interpretations as unknown as Interpretation[]).filter((i) => i.flagged).map((i) => i.engine),
    }),
    tableVersion: t.exposeInt('tableVersion'),
    auditedAt: t.string({ resolve: (a) => a.createdAt.toISOString() }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
  }),
});

interface LayoutFileShape {
  path: string;
  rows: number;
  partitionValues: KeyValueShape[];
  minValues: string;
  maxValues: string;
  countsBy: { value: string; rows: number }[] | null;
  size: number;
  stats: string | null;
  matches: number[] | null;
}
const LayoutFile = builder.objectRef<LayoutFileShape>('LayoutFile').implement({
  fields: (t) => ({
    path: t.exposeString('path'),
    rows: t.exposeInt('rows', { description: 'the rows a scan returns from the file: net of its deletion vector' }),
    partitionValues: t.field({
      type: [KeyValue],
      description: 'keyed by the logical column names, as are minValues, maxValues and stats',
      resolve: (f) => f.partitionValues,
    }),
    minValues: t.exposeString('minValues'),
    maxValues: t.exposeString('maxValues'),
    countsBy: t.field({ type: [ValueCount], nullable: true, resolve: (f) => f.countsBy }),
    size: t.exposeFloat('size', { description: "the add action's size, bytes" }),
    stats: t.exposeString('stats', {
      nullable: true,
      description:
        "the add action's stats JSON under the logical column names, numRecords net of the file's deletion vector",
    }),
    matches: t.exposeIntList('matches', {
      nullable: true,
      description: 'rows matching each of the predicates asked for, in their order, counted from the data',
    }),
  }),
});

interface AppendShape {
  day: string;
  files: { partitionValues: KeyValueShape[]; stats: string }[];
}
const AppendedFile = builder.objectRef<AppendShape['files'][number]>('AppendedFile').implement({
  fields: (t) => ({
    partitionValues: t.field({ type: [KeyValue], resolve: (f) => f.partitionValues }),
    stats: t.exposeString('stats'),
  }),
});
const AppendPreview = builder.objectRef<AppendShape>('AppendPreview').implement({
  description: 'What appending one of the lab days would add to this table: per partition, the rows and their stats',
  fields: (t) => ({
    day: t.exposeString('day'),
    files: t.field({ type: [AppendedFile], resolve: (a) => a.files }),
  }),
});

interface LayoutShape {
  location: string;
  version: number;
  files: LayoutFileShape[];
  schema: string;
  partitionColumns: string[];
  protocol: string;
  configuration: KeyValueShape[];
  appends: AppendShape[];
  warnings: string[];
}
const TableLayoutType = builder.objectRef<LayoutShape>('TableLayout').implement({
  fields: (t) => ({
    location: t.exposeString('location'),
    version: t.exposeInt('version'),
    files: t.field({ type: [LayoutFile], resolve: (l) => l.files }),
    schema: t.exposeString('schema', { description: 'the Delta schema, JSON' }),
    partitionColumns: t.exposeStringList('partitionColumns'),
    protocol: t.exposeString('protocol', { description: 'the protocol action, JSON' }),
    configuration: t.field({ type: [KeyValue], resolve: (l) => l.configuration }),
    appends: t.field({ type: [AppendPreview], resolve: (l) => l.appends }),
    warnings: t.exposeStringList('warnings', {
      description:
        'what the engine read past to load this version, e.g. an unreadable checkpoint skipped for the JSON commits (named by its key)',
    }),
  }),
});

/** The losers' messages as a client may see them, each once. */
const clientSafeMessages = (messages: string[], ctx: ApiContext) => [
  ...new Set(messages.map((x) => clientSafeText(x, ctx))),
];

const NOTHING_TO_COMMIT_RUNS =
  'runs in which the writer ended with nothing to commit (no failure: e.g. its predicate matched no rows)';
const MeasuredOrderType = builder.objectRef<OrderTally>('MeasuredOrder').implement({
  description: 'The runs of a pair that committed in one order',
  fields: (t) => ({
    runs: t.exposeInt('runs'),
    firstCommitted: t.exposeInt('firstCommitted'),
    secondCommitted: t.exposeInt('secondCommitted'),
    firstNothingToCommit: t.exposeInt('firstNothingToCommit', { description: NOTHING_TO_COMMIT_RUNS }),
    secondNothingToCommit: t.exposeInt('secondNothingToCommit', { description: NOTHING_TO_COMMIT_RUNS }),
    messages: t.stringList({ resolve: (o, _args, ctx) => clientSafeMessages(o.messages, ctx) }),
  }),
});

const EITHER_ORDER = 'counts the runs of both commit orders; compare a prediction with inOrder';
const MeasuredType = builder.objectRef<Measured>('MeasuredOutcome').implement({
  description: 'Stored runs of lab races whose two writers do exactly these changes on this base table',
  fields: (t) => ({
    races: t.exposeInt('races'),
    runs: t.exposeInt('runs', { description: 'every run of the pair, in either order' }),
    firstCommitted: t.exposeInt('firstCommitted', { description: EITHER_ORDER }),
    secondCommitted: t.exposeInt('secondCommitted', { description: EITHER_ORDER }),
    firstNothingToCommit: t.exposeInt('firstNothingToCommit', { description: EITHER_ORDER }),
    secondNothingToCommit: t.exposeInt('secondNothingToCommit', { description: EITHER_ORDER }),
    messages: t.stringList({
      description: EITHER_ORDER,
      resolve: (m, _args, ctx) => clientSafeMessages(m.messages, ctx),
    }),
    caseIds: t.exposeStringList('caseIds'),
    inOrder: t.field({
      type: MeasuredOrderType,
      description:
        "runs in which FIRST went first: its commit is in the log before SECOND's, or SECOND started after it",
      resolve: (m) => m.inOrder,
    }),
    otherOrder: t.field({
      type: MeasuredOrderType,
      description: 'runs in which SECOND went first',
      resolve: (m) => m.otherOrder,
    }),
    neitherCommitted: t.exposeInt('neitherCommitted', {
      description: 'runs of two writers released together in which neither committed: they have no order',
    }),
  }),
});

interface PredictionShape {
  secondCommits: boolean;
  failedCheck: string | null;
  message: string | null;
  isolationLevel: string;
  firstTouchesFiles: number;
  secondReadsFiles: number;
  nothingToCommit: string[];
  byEngine: EngineForecast[];
}
const ConflictPrediction = builder.objectRef<PredictionShape>('ConflictPrediction').implement({
  description: 'Both writers read one version; FIRST commits; does SECOND? The top fields are delta-rs 1.6.x',
  fields: (t) => ({
    secondCommits: t.exposeBoolean('secondCommits'),
    failedCheck: t.exposeString('failedCheck', { nullable: true }),
    message: t.exposeString('message', { nullable: true }),
    isolationLevel: t.exposeString('isolationLevel'),
    firstTouchesFiles: t.exposeInt('firstTouchesFiles'),
    secondReadsFiles: t.exposeInt('secondReadsFiles'),
    nothingToCommit: t.exposeStringList('nothingToCommit'),
    byEngine: t.field({
      type: [EngineForecastType],
      description: 'SECOND as a writer of each engine, FIRST a delta-rs writer (as in races)',
      resolve: (p) => p.byEngine,
    }),
  }),
});

const PredictConflictInput = builder.inputType('PredictConflictInput', {
  fields: (t) => ({
    table: t.string({ required: true }),
    first: t.field({ type: WriterInputType, required: true }),
    second: t.field({ type: WriterInputType, required: true }),
  }),
});

builder.queryFields((t) => ({
  isolationLevelInterpretation: t.field({
    type: [EngineInterpretation],
    args: { value: t.arg.string({ required: true }) },
    resolve: (_r, { value }) => {
      if (value.length > 200) throw new InputError('value: at most 200 characters');
      return interpret(value);
    },
  }),
  tableLayout: t.field({
    type: TableLayoutType,
    args: {
      location: t.arg.string({ required: true }),
      countBy: t.arg.string(),
      predicates: t.arg.stringList({ description: 'count the rows matching each, per file (at most 20)' }),
      appendDays: t.arg.stringList({ description: 'lab tables: preview appending these February days' }),
    },
    resolve: async (_r, { location, countBy, predicates, appendDays }, ctx) => {
      if ((predicates?.length ?? 0) > MAX_LAYOUT_PREDICATES)
        throw new InputError(`predicates: at most ${MAX_LAYOUT_PREDICATES}`);
      const { resolved, table } = await openTable(ctx, location);
      // Each day is a preview counted with DuckDB: a day asked for twice is refused, not counted twice.
      const days = appendDays ?? [];
      const unknownDay = days.find((d) => !FEB_DAYS.includes(d as (typeof FEB_DAYS)[number]));
      if (unknownDay !== undefined)
        throw new InputError(`appendDays: ${unknownDay} is not one of ${FEB_DAYS.join(', ')}`);
      if (new Set(days).size < days.length) throw new InputError('appendDays: each day at most once');
      if (days.length > 0 && !resolved.dataset)
        throw new InputError('appendDays: only the lab tables (lab:…) have days to append');
      try {
        // One snapshot for the files, their counts and the append previews.
        const layout = await tableLayout(table, countBy ?? undefined, { predicates: predicates ?? [] });
        const appends = [];
        for (const day of days) {
          const files = await previewAppend(table, (resolved.dataset as Dataset).february(day as FebDay));
          appends.push({
            day,
            files: files.map((f) => ({ partitionValues: pairs(f.partitionValues), stats: JSON.stringify(f.stats) })),
          });
        }
        return {
          location: resolved.display,
          version: layout.version,
          schema: JSON.stringify(layout.schema),
          partitionColumns: layout.partitionColumns,
          protocol: JSON.stringify(layout.protocol),
          configuration: pairs(layout.configuration),
          appends,
          warnings: table.state.warnings.map((w) => clientSafeText(w, ctx)),
          files: layout.files.map((f) => ({
            path: f.path,
            rows: f.rows,
            partitionValues: pairs(f.partitionValues),
            minValues: JSON.stringify(f.minValues),
            maxValues: JSON.stringify(f.maxValues),
            countsBy: f.countsBy?.map((c) => ({ value: c.value ?? 'NULL', rows: c.rows })) ?? null,
            size: f.size,
            stats: f.stats,
            matches: f.matches ?? null,
          })),
        };
      } catch (e) {
        if (e instanceof ForecastError || (e as Error).name === 'ExpressionError')
          throw new InputError((e as Error).message);
        throw refusedTable(e, resolved.display);
      }
    },
  }),
  predictConflict: t.field({
    type: ConflictPrediction,
    args: { input: t.arg({ type: PredictConflictInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const { resolved, table } = await openTable(ctx, input.table);
      const [first, second] = writerPair(input.first as WriterInput, input.second as WriterInput, table.schema);
      try {
        // Appends to a lab table are judged by the rows the day really has (its data set's file).
        return await forecastConflict({ table, first, second, ...(resolved.dataset && { dataset: resolved.dataset }) });
      } catch (e) {
        if (e instanceof ForecastError || e instanceof ExpressionError) throw new InputError(e.message);
        throw refusedTable(e, resolved.display);
      }
    },
  }),
  measuredOutcome: t.field({
    type: MeasuredType,
    args: {
      table: t.arg.string({ required: true, description: 'flat or partitioned' }),
      first: t.arg({ type: WriterInputType, required: true }),
      second: t.arg({ type: WriterInputType, required: true }),
      tableProperties: t.arg({
        type: [KeyValueInput],
        description: 'the table properties the races set on their copy of the base table (none: the plain table)',
      }),
    },
    resolve: (_r, { table, first, second, tableProperties }, ctx) => {
      if (table !== 'flat' && table !== 'partitioned') throw new InputError('table must be flat or partitioned');
      const [a, b] = writerPair(first as WriterInput, second as WriterInput, labTableSchema());
      const given = (tableProperties ?? []) as { key: string; value: string }[];
      const properties = Object.fromEntries(given.map((p) => [p.key, p.value]));
      const problems = [...repeatedKeys('tableProperties', given), ...propertyProblems(properties)];
      if (problems.length > 0) throw new InputError(problems.join('; '), problems);
      return measuredOutcomes(ctx.db, table, a, b, properties);
    },
  }),
  audits: t.field({
    type: [TableAudit],
    args: { first: t.arg.int({ defaultValue: 20 }) },
    resolve: (_r, { first }, ctx) => {
      const take = first ?? 20;
      if (take < 1 || take > 100) throw new InputError('first must be from 1 to 100');
      return ctx.db.audit.findMany({ orderBy: { createdAt: 'desc' }, take });
    },
  }),
}));

builder.mutationFields((t) => ({
  auditTables: t.field({
    type: [TableAudit],
    args: { locations: t.arg.stringList({ required: true }) },
    resolve: async (_r, { locations }, ctx) => {
      if (locations.length === 0 || locations.length > MAX_AUDIT_LOCATIONS) {
        throw new InputError(`locations: 1 to ${MAX_AUDIT_LOCATIONS}`);
      }
      // Every location must resolve and open before anything is stored.
      const startedBy = storedActor(callerOf(ctx));
      const opened = [];
      for (const location of locations) opened.push(await openTable(ctx, location));
      return ctx.db.$transaction(
        opened.map(({ resolved, table }) => {
          const value = table.metadata.configuration[ISOLATION_LEVEL_KEY] ?? null;
          const interpretations = interpret(value);
          return ctx.db.audit.create({
            data: {
              location: resolved.display,
              tableVersion: table.version,
              isolationLevel: value,
              interpretations: interpretations as unknown as object[],
              flagged: interpretations.some((i) => i.flagged),
              startedBy,
            },
          });
        }),
      );
    },
  }),
}));
