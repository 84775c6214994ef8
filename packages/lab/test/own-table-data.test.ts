/**
 * A race on a table of the user's own prepares only what it uses: `npm run lab -- --table … --writers …` on a
 * 10-row table gives its verdict without building the lab's taxi data set (no `data` folder in the work folder,
 * no "preparing data set" line), and names the table, not a data set, in its summary line.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { runLab } from './helpers/lab-cli';

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'racelab-own-table-'));
  mkdirSync(join(tmp, 'tables'));
  cpSync(fixture('delta-golden', 'table-with-dv-small'), join(tmp, 'tables', 'dv'), { recursive: true });
  writeFileSync(
    join(tmp, 'two-updates.json'),
    JSON.stringify({
      writers: [
        { name: 'low', operation: 'update', predicate: 'value = 1', set: { value: 'value + 100' } },
        { name: 'high', operation: 'update', predicate: 'value = 8', set: { value: 'value + 200' } },
      ],
    }),
  );
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a race on a table of your own', () => {
  it('gives its verdict without preparing the lab data set', () => {
    const work = join(tmp, 'work');
    const json = join(tmp, 'results.json');
    const args = ['--table', 'dv', '--writers', join(tmp, 'two-updates.json'), '--runs', '1'];
    // The data set would go under the work folder; TLC files are looked for in an empty folder.
    const r = runLab([...args, '--json', json, '--work-dir', work], {
      LAB_ROOTS: join(tmp, 'tables'),
      LAB_DATA_DIR: join(tmp, 'no-tlc'),
    });
    expect(r.stderr).not.toMatch(/lab:/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^racelab: copies of dv; node /m);
    expect(r.stdout).toMatch(/verdict: data OK in 1 of 1/);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/data set|synthetic data/);
    expect(existsSync(join(work, 'data'))).toBe(false);
    const results = JSON.parse(readFileSync(json, 'utf8'));
    expect(results.cases[0].runs[0].verdict).toBeTruthy();
    expect(results.cases[0].runs[0].table.rows).toBe(8);
  });
});
