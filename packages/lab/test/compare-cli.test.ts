/**
 * `npm run lab -- compare` end to end: A1, B1 and E1 raced emulated and by the real delta-rs 1.6.6 on identical
 * copies agree (needs the Python side, `npm run setup:python`; without it the command exits 2 naming that
 * command). And the usage refusals: no case named; `--writers` without `--table` (plain lab).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaseVerdict } from '../src/compare/index';
import type { LabResults } from '../src/index';
import { runLab } from './helpers/lab-cli';

const work = join(tmpdir(), `racelab-compare-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run lab -- compare', () => {
  it('A1 B1 E1 at scale 0.05, two runs each side: every case agrees, exit 0', () => {
    const r = runLab(
      ['compare', 'A1', 'B1', 'E1', '--scale', '0.05', '--runs', '2', '--json', '-', '--work-dir', work],
      {},
      600_000,
    );
    if (r.status === 2) expect(r.stderr).toContain('npm run setup:python');
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { verdicts: CaseVerdict[]; emulated: LabResults; real: LabResults };
    expect(doc.verdicts.map((v) => [v.id, v.agree, v.differences])).toEqual([
      ['A1', true, []],
      ['B1', true, []],
      ['E1', true, []],
    ]);
    // Both sides ran the same cases at the same scale, and the real side's commits were read while they existed.
    expect(doc.emulated.cases.map((c) => c.runs.length)).toEqual([2, 2, 2]);
    expect(doc.real.scale).toBe(doc.emulated.scale);
    expect(doc.real.versions.deltalake).toBe('1.6.6');
    const writes = doc.real.cases[0]?.runs[0]?.commits ?? [];
    expect(writes.map((c) => c.operation)).toEqual(['WRITE', 'WRITE']);
    expect(r.stderr).toMatch(/A1 {2}agree\n/);
    expect(r.stderr).toContain('every case agrees (3)');
  }, 600_000);

  it('refuses no case, and a case with no real library, with exit 2', () => {
    const none = runLab(['compare', '--work-dir', work]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('compare needs the cases to compare');
    const pg = runLab(['compare', 'G1', '--work-dir', work]);
    expect(pg.status, pg.stderr).toBe(2);
    expect(pg.stderr).toContain('G1 is a store case');
  });
});

describe('npm run lab -- --writers FILE without --table', () => {
  it('is refused with exit 2, saying --writers needs --table, before anything runs', () => {
    const r = runLab(['--writers', join(work, 'race.json'), '--runs', '1', '--work-dir', work]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--writers FILE.json needs --table LOCATION');
    expect(r.stdout).not.toContain('verdict');
  });
});
