/**
 * A case in words, for the dashboard's case list and a race's page: what each writer does, and the sentence a
 * format's describeCase builds from its starting table and its writers.
 */

import { basename } from 'node:path';
import { plural } from '@racelab/contracts';
import type { RowsFrom, WriterOperation, WriterSpec } from './catalog';

/**
 * Where a writer's rows come from, without the server's folders: a source file is held resolved (an absolute
 * path), so it is named by kind only.
 */
const rowsText = (from: RowsFrom) =>
  'sample' in from ? `${plural(from.sample, 'row')} sampled from the table` : 'the rows of a Parquet file';

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
    case 'command':
      // Paths are the server's: each item by its last segment only.
      return `runs its own job: ${op.command.map((a) => basename(a)).join(' ')}`;
    default:
      if ('day' in op) return `${op.kind} ${op.day}${'blind' in op && op.blind ? ' (blind)' : ''}`;
      return op.kind === 'append'
        ? `append ${rowsText(op.from)}${op.blind ? ' (blind)' : ''}`
        : `if no row matches ${op.predicate}, append ${rowsText(op.from)}`;
  }
}

/** "On <table> with <properties>. <writer>: <what it does> (<its options>); …." */
export function describeWriters(
  table: string,
  c: { properties?: Record<string, string>; writers: readonly WriterSpec[] },
): string {
  const props = Object.entries(c.properties ?? {}).map(([k, v]) => `${k}=${v}`);
  const writers = c.writers.map((w) => {
    const extras = [
      w.maxCommitRetries !== undefined && `max commit retries ${w.maxCommitRetries}`,
      w.retryLoop !== undefined && `retry loop of ${w.retryLoop}`,
      w.startAfter && `starts after ${w.startAfter} committed`,
    ].filter(Boolean);
    return `${w.name}: ${operationText(w.operation)}${extras.length > 0 ? ` (${extras.join(', ')})` : ''}`;
  });
  return `On ${table}${props.length > 0 ? ` with ${props.join(', ')}` : ''}. ${writers.join('; ')}.`;
}
