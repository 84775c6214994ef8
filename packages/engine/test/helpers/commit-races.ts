/**
 * The commit-loop races both stores must pass (local disk in storage.test.ts, S3 in test-s3): log-only
 * appenders in separate processes, released together, on a table at `location`.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadState, readCommit } from '../../src/index';
import { createLogOnlyTable } from './log';
import { raceProcesses } from './processes';
import { TAXI } from './taxi';

const APPEND_WORKER = fileURLToPath(new URL('./append-worker.ts', import.meta.url));

/** `n` appenders with delta-rs's retries: versions 1..n, each append exactly once, every writer in the log. */
export async function expectEveryAppendOnce(location: string, n: number): Promise<void> {
  const store = await createLogOnlyTable(location, TAXI);
  const results = await raceProcesses(APPEND_WORKER, (i) => [location, `w${i}`, '15'], n);
  const outcomes = results.map((r) => JSON.parse(r.out[0] as string) as { version: number; attempts: number });
  const versions = Array.from({ length: n }, (_, i) => i + 1);
  expect(outcomes.map((o) => o.version).sort((a, b) => a - b)).toEqual(versions);
  // The writer that got version v was turned away by the v - 1 versions claimed before it.
  for (const o of outcomes) expect(o.attempts).toBeGreaterThanOrEqual(1);
  const writers = await Promise.all(
    versions.map(async (v) => {
      const [info] = await readCommit(store, v);
      return (info as { commitInfo: { writer: string } }).commitInfo.writer;
    }),
  );
  expect(new Set(writers).size).toBe(n);
  expect((await loadState(store)).files.size).toBe(n);
}

/** Two appenders with retries off: one gets version 1, the other fails at once, as delta-rs does. */
export async function expectNoRetryFailure(location: string): Promise<void> {
  await createLogOnlyTable(location, TAXI);
  const results = await raceProcesses(APPEND_WORKER, (i) => [location, `w${i}`, '0'], 2);
  const outcomes = results.map((r) => JSON.parse(r.out[0] as string) as { version?: number; error?: string });
  expect(outcomes.filter((o) => o.version === 1)).toHaveLength(1);
  expect(outcomes.filter((o) => o.error === 'Failed to commit transaction: 0')).toHaveLength(1);
}
