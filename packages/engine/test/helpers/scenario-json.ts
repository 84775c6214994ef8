/**
 * Reading the conflict scenario files (test/fixtures/delta-rs-conflict-scenarios.json for delta-rs,
 * test/fixtures/spark-conflict-scenarios.json for Delta Spark): both describe a table by its schema
 * as a field list and write adds with parsed stats and without size or time.
 */
import type { Action, StructType } from '../../src/index';

// biome-ignore lint/suspicious/noExplicitAny: the scenario files are JSON, read field by field by their tests
export type Json = any;

export const schemaOf = (s: Json): StructType => ({
  type: 'struct',
  fields: s.table.schema.map((f: Json) => ({ name: f.name, type: f.type, nullable: f.nullable, metadata: {} })),
});

/** A scenario action as the log holds it: an add's stats as JSON text, size and time filled in. */
export function logAction(a: Json): Action {
  if (a.add) {
    const { stats, ...rest } = a.add;
    return { add: { size: 0, modificationTime: 0, ...rest, ...(stats ? { stats: JSON.stringify(stats) } : {}) } };
  }
  return a as Action;
}
