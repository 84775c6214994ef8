/**
 * A writer whose predicate matches no rows ends with nothing to commit: no failure. Two deletes matching nothing
 * race a copy of a small table through `npm run lab -- --table … --writers …` (real writer processes): the CLI
 * warns before running, each writer's outcome is nothing-to-commit, the run is neither "both fail" nor a failed
 * data check, and the table is the serial result of no committed writer.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLabResults, writerOutcomeOf } from '@racelab/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { runOutcome } from '../src/results/summary';
import type { LabResults } from '../src/results/types';
import { runLab } from './helpers/lab-cli';
import { writerResult } from './helpers/writer-result';

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'racelab-nothing-'));
  mkdirSync(join(tmp, 'tables'));
  // The deletion-vector golden table: one column, `value`, 8 live rows.
  cpSync(fixture('delta-golden', 'table-with-dv-small'), join(tmp, 'tables', 'small'), { recursive: true });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a race whose writers match no rows', () => {
  it('two deletes matching nothing: warned before running, each nothing to commit, data OK', () => {
    const writers = join(tmp, 'race.json');
    writeFileSync(
      writers,
      JSON.stringify({
        writers: [
          { name: 'del1', operation: 'delete', predicate: 'value = 1000' },
          { name: 'del2', operation: 'delete', predicate: 'value = 2000' },
        ],
      }),
    );
    const json = join(tmp, 'results.json');
    const args = ['--table', 'small', '--writers', writers, '--runs', '1', '--scale', '0.01', '--json', json];
    const r = runLab([...args, '--work-dir', join(tmp, 'work')], { LAB_ROOTS: join(tmp, 'tables') }, 180_000);
    expect(r.status, r.stderr).toBe(0);
    // Warned before the race ran: the lines come before any result is printed.
    expect(r.stderr).toContain(
      'lab: warning: writer del1: value = 1000 matches no rows of the table as it is now, so its delete will end with nothing to commit',
    );
    expect(r.stderr).toContain('lab: warning: writer del2: value = 2000');

    const results = JSON.parse(readFileSync(json, 'utf8')) as LabResults;
    expect(checkLabResults(results, 'results.json')).toMatchObject({ ok: true });
    const run = results.cases[0]?.runs[0];
    if (!run) throw new Error('no run');
    expect(run.writers.map((w) => [w.name, w.committed, w.errorMessage, w.outcome])).toEqual([
      ['del1', false, null, 'nothing-to-commit'],
      ['del2', false, null, 'nothing-to-commit'],
    ]);
    // The table as serial order of no committed writer leaves it: its 8 rows, no version added.
    expect(run.table).toMatchObject({ rows: 8 });
    expect(run.verdict).toMatchObject({ status: 'serializable', summary: 'data OK', failedWriters: [] });
    expect(run.verdict?.nothingToCommit).toEqual([
      { name: 'del1', summary: "del1's delete matched no rows: nothing to commit" },
      { name: 'del2', summary: "del2's delete matched no rows: nothing to commit" },
    ]);
    expect(runOutcome(run)).toBe('both matched no rows: nothing to commit');

    expect(r.stdout).toContain('outcome: both matched no rows: nothing to commit, 1 of 1');
    expect(r.stdout).toContain("del1's delete matched no rows: nothing to commit");
    expect(r.stdout).toContain('verdict: data OK in 1 of 1');
    expect(r.stdout).not.toMatch(/fail/);
  });
});

describe('a writer outcome, read from results', () => {
  it('nothing to commit is neither a commit nor a failure; a file without `outcome` reads the same', () => {
    const nothing = writerResult('a', { committed: false, warnings: ['nothing to commit'] });
    const failed = writerResult('b', { committed: false, errorClass: 'CommitFailedError', errorMessage: 'x' });
    const committed = writerResult('c', { version: 1 });
    expect([nothing, failed, committed].map(writerOutcomeOf)).toEqual(['nothing-to-commit', 'failed', 'committed']);
    const run = (writers: ReturnType<typeof writerResult>[]) => ({ index: 1, writers, table: { rows: 0 } }) as never;
    expect(runOutcome(run([committed, nothing]))).toBe('one commits, one matched no rows: nothing to commit');
    expect(runOutcome(run([failed, nothing, committed]))).toBe(
      'one commits, one fails, one matched no rows: nothing to commit',
    );
    expect(runOutcome(run([failed, { ...failed, name: 'd' }]))).toBe('both fail');
  });
});
