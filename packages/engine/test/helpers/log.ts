import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  type Action,
  buildCommitInfo,
  commit,
  newTableMetadata,
  type ObjectStore,
  protocolForSchema,
  type StructType,
  storeFor,
  validateAction,
  validateCommitActions,
} from '../../src/index';

/**
 * Reads every commit file of a table as raw text and checks it against the Delta protocol's action
 * shapes and delta-rs's layout: commitInfo first, txn last, no trailing newline.
 */
export function validatedLog(tableDir: string): Action[][] {
  const names = readdirSync(join(tableDir, '_delta_log'))
    .filter((n) => /^\d{20}\.json$/.test(n))
    .sort();
  return names.map((name, i) => {
    expect(name).toBe(`${String(i).padStart(20, '0')}.json`);
    const text = readFileSync(join(tableDir, '_delta_log', name), 'utf8');
    expect(text.endsWith('\n')).toBe(false);
    const actions = text.split('\n').map((line) => validateAction(JSON.parse(line)) as Action);
    expect(actions.every((a) => a !== null)).toBe(true);
    validateCommitActions(actions);
    for (const a of actions) {
      if (!('add' in a) || !a.add.stats) continue;
      const stats = JSON.parse(a.add.stats);
      expect(Object.keys(stats)).toEqual(['numRecords', 'minValues', 'maxValues', 'nullCount']);
      expect(Number.isInteger(stats.numRecords)).toBe(true);
    }
    expect(Object.keys(actions[0] as object)).toEqual(['commitInfo']);
    const firstTxn = actions.findIndex((a) => 'txn' in a);
    if (firstTxn >= 0) expect(actions.slice(firstTxn).every((a) => 'txn' in a)).toBe(true);
    return actions;
  });
}

/** The commitInfo of one commit (its first line). */
export function commitInfoOf(actions: Action[] | undefined): Record<string, unknown> {
  const first = actions?.[0];
  if (!first || !('commitInfo' in first)) throw new Error('the commit does not start with commitInfo');
  return first.commitInfo;
}

/** A new table with no data files at all (log-only), for tests of the log and the commit loop. */
/** A table of only a log (no data files) at `location`: a folder, or s3://bucket/path. */
export async function createLogOnlyTable(location: string | ObjectStore, schema: StructType): Promise<ObjectStore> {
  const store = storeFor(location);
  await commit({
    store,
    readVersion: -1,
    actions: [
      { commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: { mode: 'ErrorIfExists' } }) },
      { protocol: protocolForSchema(schema) },
      { metaData: newTableMetadata(schema) },
    ],
  });
  return store;
}
