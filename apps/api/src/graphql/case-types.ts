/** The lab's preset races as the catalog lists them, each described in one sentence. */
import type { LabCase } from '@racelab/lab';
import { builder } from './builder';

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
