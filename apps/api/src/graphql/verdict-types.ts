/**
 * The serial-replay oracle's verdict on a run, as stored with it: the committed writers replayed one
 * after another, compared with the raced table.
 */
import type { FailedWriterCheck, NothingToCommitCheck, VerdictWriter } from '@racelab/lab';
import type { StoredVerdict } from '../races/store';
import { builder } from './builder';
import { KeyValue, pairs } from './key-value-types';

const VerdictWriterType = builder.objectRef<VerdictWriter>('VerdictWriter').implement({
  description: "A committed writer's change in the raced table, when the table is not the serial one",
  fields: (t) => ({
    name: t.exposeString('name'),
    notApplied: t.exposeBoolean('notApplied', { description: 'absent although the writer reported committed' }),
    appliedTwice: t.exposeBoolean('appliedTwice', { description: 'in the raced table twice' }),
  }),
});

type StoredExample = NonNullable<StoredVerdict['examples']>[number];
const VerdictExampleType = builder.objectRef<StoredExample>('VerdictExample').implement({
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

const FailedWriterCheckType = builder.objectRef<FailedWriterCheck>('FailedWriterCheck').implement({
  description: 'A writer that failed: what its change would have touched, left as it was',
  fields: (t) => ({
    name: t.exposeString('name'),
    rowsTouched: t.exposeInt('rowsTouched'),
    untouched: t.exposeBoolean('untouched', { description: 'true: nothing of its change leaked in' }),
    summary: t.exposeString('summary'),
  }),
});

const NothingToCommitCheckType = builder.objectRef<NothingToCommitCheck>('NothingToCommitCheck').implement({
  description: 'A writer that ended without an error and wrote nothing: no failure',
  fields: (t) => ({
    name: t.exposeString('name'),
    summary: t.exposeString('summary', { description: `e.g. "del1's delete matched no rows: nothing to commit"` }),
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
    nothingToCommit: t.field({
      type: [NothingToCommitCheckType],
      description: 'writers that had nothing to commit; they are not among failedWriters',
      resolve: (v) => v.nothingToCommit ?? [],
    }),
    oracleMs: t.exposeFloat('oracleMs', { description: "the oracle's own time, outside the run's durationMs" }),
  }),
});
