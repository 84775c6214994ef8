/**
 * The lab's commands refuse bad input with one clear line and a non-zero exit, writing nothing:
 * an unknown case, --runs 0, a scale out of range, a TLC file with the wrong schema, a Postgres
 * that is not there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConnection } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';

const LAB = fileURLToPath(new URL('../src/cli/lab.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'racelab-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function lab(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', LAB, ...args, '--work-dir', work], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  const lines = r.stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('lab:'));
  return { status: r.status, lines, stderr: r.stderr };
}

describe('bad input', () => {
  it('an unknown case', () => {
    const json = join(work, 'unknown.json');
    const r = lab(['Z9', '--json', json]);
    expect(r.status).toBe(2);
    expect(r.lines).toEqual([
      'lab: unknown case Z9; the cases are A1, A2, B1, B2, B3, C1, C2, C3, I1, I2, I3, I4, I5, I6, D1, E1, E2, F1, F2, P1, P2, P3, H1, G1, G2, G3',
    ]);
    expect(existsSync(json)).toBe(false);
  });

  it('--runs 0 and a scale out of range', () => {
    expect(lab(['A1', '--runs', '0']).lines).toEqual(['lab: --runs must be a whole number from 1 to 50, got 0']);
    expect(lab(['A1', '--scale', '2']).lines).toEqual(['lab: --scale must be from 0.01 to 1, got 2']);
    expect(lab(['A1', '--runs', 'many']).lines).toEqual(["lab: --runs must be a number, got 'many'"]);
  });

  it('a TLC file with the wrong schema names the file and the column', async () => {
    const dir = join(work, 'tlc-bad');
    mkdirSync(dir, { recursive: true });
    await withConnection(async (c) => {
      for (const m of ['01', '02']) {
        await c.run(
          `COPY (SELECT 1::INTEGER AS VendorID, 2.0::DOUBLE AS tip_amount) TO '${join(dir, `yellow_tripdata_2025-${m}.parquet`)}' (FORMAT parquet)`,
        );
      }
    });
    const r = lab(['A1', '--runs', '1', '--data-dir', dir]);
    expect(r.status).not.toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/yellow_tripdata_2025-01\.parquet/);
    expect(r.lines[0]).toMatch(/tpep_pickup_datetime/);
  });

  it('a Postgres that is not there', () => {
    const json = join(work, 'nopg.json');
    const r = lab(['P1', '--runs', '1', '--scale', '0.01', '--json', json], {
      DATABASE_URL: 'postgresql://postgres:x@127.0.0.1:1/postgres',
    });
    expect(r.status).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/ECONNREFUSED|connect/);
    expect(existsSync(json)).toBe(false);
  });
});
