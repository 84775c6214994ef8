/** The lab's preset races as the catalog lists them, and any race's case, each described in one sentence. */
import type { LabCase, RowsFrom, WriterOperation } from '@racelab/lab';
import { builder } from './builder';

/**
 * Where a writer's rows come from, without the server's folders: a source file is held resolved (an absolute
 * path), so it is named by kind only.
 */
const rowsText = (from: RowsFrom) =>
  'sample' in from ? `${from.sample} rows sampled from the table` : 'the rows of a Parquet file';

function operationText(op: WriterOperation): string {
  switch (op.kind) {
    case 'update':
      return `update ${Object.entries(op.set)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')} where ${op.predicate}`;
    case 'delete':
      return `delete where ${op.predicate}`;
    case 'optimize':
      return op.kind;
    case 'overwrite':
      return `overwrite where ${op.predicate} with ${rowsText(op.from)}`;
    default:
      if ('day' in op) return `${op.kind} ${op.day}${'blind' in op && op.blind ? ' (blind)' : ''}`;
      return op.kind === 'append'
        ? `append ${rowsText(op.from)}${op.blind ? ' (blind)' : ''}`
        : `if no row matches ${op.predicate}, append ${rowsText(op.from)}`;
  }
}

/** A Delta case's table: one of the lab's, or a table of the user's own as the user named it. */
const tableText = (c: LabCase) => {
  if (c.engine !== 'delta') return 'the Iceberg table of 2025-01-15 (SQL catalog)';
  return typeof c.table === 'string' ? `the ${c.table} Delta table` : `copies of the Delta table ${c.table.display}`;
};

export const describeCase = (c: LabCase): string => {
  if (c.engine === 'postgres') {
    return `Postgres (${c.isolation}): transaction A updates VendorID ${c.vendorA} and holds its locks; B updates VendorID ${c.vendorB}.`;
  }
  const props = Object.entries(c.properties ?? {}).map(([k, v]) => `${k}=${v}`);
  const writers = c.writers.map((w) => {
    const extras = [
      w.maxCommitRetries !== undefined && `max commit retries ${w.maxCommitRetries}`,
      w.retryLoop !== undefined && `retry loop of ${w.retryLoop}`,
      w.startAfter && `starts after ${w.startAfter} committed`,
    ].filter(Boolean);
    return `${w.name}: ${operationText(w.operation)}${extras.length > 0 ? ` (${extras.join(', ')})` : ''}`;
  });
  return `On ${tableText(c)}${props.length > 0 ? ` with ${props.join(', ')}` : ''}. ${writers.join('; ')}.`;
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
