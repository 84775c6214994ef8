/**
 * Types and fields about tables: the per-engine reading of an isolation string, the audit of
 * tables' `delta.isolationLevel`, the layout of a table's files, and the conflict forecast.
 */
import { DeltaTable, ISOLATION_LEVEL_KEY, NotATableError } from '@racelab/engine';
import {
  CaseInputError,
  customCase,
  ForecastError,
  forecastConflict,
  LocationError,
  resolveTableLocation,
  tableLayout,
} from '@racelab/lab';
import type { Audit } from '../db/prisma';
import { toCustomWriter, type WriterInput } from '../races/spec';
import { type Interpretation, interpret } from '../tables/interpret';
import { type ApiContext, builder, requireReader, requireToken } from './builder';
import { InputError } from './errors';
import { KeyValue, type KeyValueShape, ValueCount, WriterInputType } from './types';

export const MAX_AUDIT_LOCATIONS = 50;

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

/** Resolves a user's location and opens its Delta table; every failure is the user's to fix. */
async function openTable(ctx: ApiContext, location: string) {
  try {
    const resolved = await resolveTableLocation(location, ctx.locations);
    return { resolved, table: await DeltaTable.open(resolved.path) };
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(e.message);
    if (e instanceof NotATableError) throw new InputError(`${location} is not a Delta table (no _delta_log)`);
    throw e;
  }
}

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
  }),
});

interface LayoutFileShape {
  path: string;
  rows: number;
  partitionValues: KeyValueShape[];
  minValues: string;
  maxValues: string;
  countsBy: { value: string; rows: number }[] | null;
}
const LayoutFile = builder.objectRef<LayoutFileShape>('LayoutFile').implement({
  fields: (t) => ({
    path: t.exposeString('path'),
    rows: t.exposeInt('rows'),
    partitionValues: t.field({ type: [KeyValue], resolve: (f) => f.partitionValues }),
    minValues: t.exposeString('minValues'),
    maxValues: t.exposeString('maxValues'),
    countsBy: t.field({ type: [ValueCount], nullable: true, resolve: (f) => f.countsBy }),
  }),
});

const TableLayoutType = builder
  .objectRef<{ location: string; version: number; files: LayoutFileShape[] }>('TableLayout')
  .implement({
    fields: (t) => ({
      location: t.exposeString('location'),
      version: t.exposeInt('version'),
      files: t.field({ type: [LayoutFile], resolve: (l) => l.files }),
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
}
const ConflictPrediction = builder.objectRef<PredictionShape>('ConflictPrediction').implement({
  fields: (t) => ({
    secondCommits: t.exposeBoolean('secondCommits'),
    failedCheck: t.exposeString('failedCheck', { nullable: true }),
    message: t.exposeString('message', { nullable: true }),
    isolationLevel: t.exposeString('isolationLevel'),
    firstTouchesFiles: t.exposeInt('firstTouchesFiles'),
    secondReadsFiles: t.exposeInt('secondReadsFiles'),
    nothingToCommit: t.exposeStringList('nothingToCommit'),
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
    resolve: (_r, { value }, ctx) => {
      requireReader(ctx);
      if (value.length > 200) throw new InputError('value: at most 200 characters');
      return interpret(value);
    },
  }),
  tableLayout: t.field({
    type: TableLayoutType,
    args: { location: t.arg.string({ required: true }), countBy: t.arg.string() },
    resolve: async (_r, { location, countBy }, ctx) => {
      requireReader(ctx);
      const { resolved } = await openTable(ctx, location);
      try {
        const layout = await tableLayout(resolved.path, countBy ?? undefined);
        return {
          location: resolved.display,
          version: layout.version,
          files: layout.files.map((f) => ({
            path: f.path,
            rows: f.rows,
            partitionValues: Object.entries(f.partitionValues).map(([key, value]) => ({ key, value })),
            minValues: JSON.stringify(f.minValues),
            maxValues: JSON.stringify(f.maxValues),
            countsBy: f.countsBy?.map((c) => ({ value: c.value ?? 'NULL', rows: c.rows })) ?? null,
          })),
        };
      } catch (e) {
        if (e instanceof ForecastError || (e as Error).name === 'ExpressionError')
          throw new InputError((e as Error).message);
        throw e;
      }
    },
  }),
  predictConflict: t.field({
    type: ConflictPrediction,
    args: { input: t.arg({ type: PredictConflictInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      requireReader(ctx);
      const { resolved, table } = await openTable(ctx, input.table);
      try {
        // Validated as a two-writer race on this table's own schema (names, operations, expressions).
        const c = customCase(
          { writers: [input.first, input.second].map((w) => toCustomWriter(w as WriterInput)) },
          table.schema,
        );
        const [first, second] = c.writers;
        if (!first || !second) throw new InputError('two writers are needed');
        return await forecastConflict({ table: resolved.path, first, second });
      } catch (e) {
        if (e instanceof CaseInputError) throw new InputError(e.message, e.problems);
        if (e instanceof ForecastError) throw new InputError(e.message);
        throw e;
      }
    },
  }),
  audits: t.field({
    type: [TableAudit],
    args: { first: t.arg.int({ defaultValue: 20 }) },
    resolve: (_r, { first }, ctx) => {
      requireReader(ctx);
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
      requireToken(ctx);
      if (locations.length === 0 || locations.length > MAX_AUDIT_LOCATIONS) {
        throw new InputError(`locations: 1 to ${MAX_AUDIT_LOCATIONS}`);
      }
      // Every location must resolve and open before anything is stored.
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
            },
          });
        }),
      );
    },
  }),
}));
