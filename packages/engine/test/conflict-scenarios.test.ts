/**
 * The 62 scenarios of fixtures/delta-rs-conflict-scenarios.json (49 from delta-rs's own tests, 13 from
 * the lesson's cases), run twice: through the pure checker, and end to end through the real commit
 * loop on a table laid out on disk from the scenario (read snapshot, filler commits, winners).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Action,
  type Add,
  buildCommitInfo,
  CommitFailedError,
  canDowngradeToSnapshotIsolation,
  checkConflicts,
  checkWinner,
  commit,
  conflictError,
  effectiveIsolationLevel,
  filesMatchingPredicate,
  LocalObjectStore,
  parsePredicate,
  type TransactionReads,
} from '../src/index';
import { type Json, logAction, schemaOf } from './helpers/scenario-json';
import { tempDir } from './helpers/tmp';

const scenarios: Json[] = JSON.parse(
  readFileSync(new URL('./fixtures/delta-rs-conflict-scenarios.json', import.meta.url), 'utf8'),
);
const root = tempDir('scenarios');

function readsOf(s: Json): TransactionReads {
  const schema = schemaOf(s);
  const predicate = s.transaction.readPredicate ? parsePredicate(s.transaction.readPredicate, schema) : null;
  const files = s.table.files.map((f: Json) => (logAction({ add: f }) as { add: Add }).add);
  return {
    readVersion: s.table.readVersion,
    protocol: s.table.protocol,
    readPredicate: predicate,
    readWholeTable: s.transaction.readWholeTable,
    readFiles: new Set(filesMatchingPredicate(files, predicate).map((f) => f.path)),
    actions: s.transaction.actions.map(logAction),
    operation: s.transaction.operation,
    operationChangesData: s.transaction.operationChangesData ?? true,
  };
}

const winnersOf = (s: Json) => s.winners.map((w: Json) => ({ version: w.version, actions: w.actions.map(logAction) }));

describe.each(scenarios.filter((s) => s.layer !== 'helper').map((s) => [s.id, s]))('scenario %s', (_id, s: Json) => {
  const level = effectiveIsolationLevel(s.table.configuration);

  it('parses the isolation level as delta-rs does', () => {
    expect(level).toBe(s.expected.effectiveIsolationLevel);
  });

  if (s.layer === 'checker') {
    it(`the pure checker gives ${s.expected.outcome}`, () => {
      const c = checkConflicts(readsOf(s), winnersOf(s), level);
      expect(c?.kind ?? 'OK').toBe(s.expected.outcome);
      expect(c?.winnerVersion ?? null).toBe(s.expected.failingWinnerVersion);
      expect(c?.message ?? null).toBe(s.expected.message);
      if (c) expect(c.check).toBe(s.expected.decidedBy.check);
    });
  }

  it('the commit loop on a real table ends as delta-rs does', async () => {
    const dir = join(root, s.id);
    const store = new LocalObjectStore(dir);
    const info = (operation: string) => ({ commitInfo: buildCommitInfo({ operation, operationParameters: {} }) });
    const metaData = {
      id: 'f00dfeed-0000-4000-8000-000000000000',
      format: { provider: 'parquet', options: {} },
      schemaString: JSON.stringify(schemaOf(s)),
      partitionColumns: s.table.partitionColumns,
      createdTime: 0,
      configuration: s.table.configuration,
    };
    const put = (v: number, actions: Action[]) =>
      store.putIfAbsent(
        `_delta_log/${String(v).padStart(20, '0')}.json`,
        new TextEncoder().encode(actions.map((a) => JSON.stringify(a)).join('\n')),
      );
    await put(0, [
      info('CREATE TABLE'),
      { protocol: s.table.protocol },
      { metaData },
      ...s.table.files.map((f: Json) => logAction({ add: f })),
    ]);
    for (let v = 1; v <= s.table.readVersion; v++) await put(v, [info('WRITE')]);
    for (const w of winnersOf(s)) await put(w.version, w.actions);

    const reads = readsOf(s);
    const own = reads.actions.filter((a) => !('commitInfo' in a));
    const run = commit({
      store,
      readVersion: s.table.readVersion,
      actions: [info(s.transaction.operation ?? 'WRITE'), ...own],
      ...(s.commit && { maxRetries: s.commit.maxRetries }),
      appendOnly: s.table.configuration['delta.appendOnly'] === 'true',
      checkWinner: (w) => {
        const c = checkWinner(reads, w, level);
        if (c) throw conflictError(c);
      },
    });
    const latest = s.table.readVersion + s.winners.length;
    const expected =
      s.expected.commitResult ??
      (s.expected.outcome === 'OK'
        ? { status: 'committed', version: latest + 1 }
        : { status: 'error', message: `Failed to commit transaction: ${s.expected.message}` });
    if (expected.status === 'committed') {
      expect((await run).version).toBe(expected.version);
    } else {
      await expect(run).rejects.toThrow(CommitFailedError);
      await expect(run).rejects.toThrow(expected.message);
    }
  });
});

describe('helper scenarios', () => {
  const helpers = Object.fromEntries(scenarios.filter((s) => s.layer === 'helper').map((s) => [s.helper.name, s]));

  it('canDowngradeToSnapshotIsolation', () => {
    for (const c of helpers.canDowngradeToSnapshotIsolation.helper.cases) {
      expect(canDowngradeToSnapshotIsolation(c.actions.map(logAction), c.operationChangesData, c.isolationLevel)).toBe(
        c.expected,
      );
    }
  });

  it('parsePredicate accepts and refuses as delta-rs does', () => {
    const s = helpers.parsePredicate;
    for (const c of s.helper.cases) {
      if (c.expected === 'ok') expect(() => parsePredicate(c.predicate, schemaOf(s))).not.toThrow();
      else expect(() => parsePredicate(c.predicate, schemaOf(s))).toThrow();
    }
  });

  it('filesMatchingPredicate keeps the files stats cannot rule out', () => {
    const s = helpers.filesMatchingPredicate;
    const files = s.table.files.map((f: Json) => (logAction({ add: f }) as { add: Add }).add);
    for (const c of s.helper.cases) {
      const pred = c.predicate ? parsePredicate(c.predicate, schemaOf(s)) : null;
      const got = filesMatchingPredicate(files, pred)
        .map((f) => f.path)
        .sort();
      expect(got).toEqual([...c.expectedFiles].sort());
      expect(got).toHaveLength(c.expectedCount);
    }
  });
});
