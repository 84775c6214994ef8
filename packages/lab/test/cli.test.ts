/**
 * The lab's commands refuse bad input with one clear line and a non-zero exit, writing nothing:
 * an unknown case, --runs 0, a scale out of range, a TLC file with the wrong schema, a Postgres
 * that is not there.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { runLab } from './helpers/lab-cli';

const work = mkdtempSync(join(tmpdir(), 'racelab-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function lab(args: string[], env: Record<string, string> = {}) {
  const r = runLab([...args, '--work-dir', work], env);
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
      "lab: unknown case Z9; the lesson's cases are A1, A2, B1, B2, B3, C1, C2, C3, I1, I2, I3, I4, I5, I6, D1, E1, E2, F1, F2, P1, P2, P3; the store cases are H1, G1, G2, G3",
    ]);
    expect(existsSync(json)).toBe(false);
  });

  it('H1 on local disk: refused, saying the store it needs, before anything runs', () => {
    const json = join(work, 'h1.json');
    const r = lab(['H1', '--runs', '1', '--scale', '0.01', '--json', json]);
    expect(r.status).toBe(2);
    expect(r.lines).toEqual([
      'lab: H1 needs a store that ignores put-if-absent (a lying S3 store, as the fault proxy of npm run test:s3 makes): it runs only with its tables on S3 (a table root s3://…); a local disk always honours put-if-absent; start it with a table root on S3',
    ]);
    expect(r.stderr).not.toMatch(/preparing|data OK/);
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

describe('--list', () => {
  it("lists the one case list: the lesson's 22 cases, then the store cases with the store each needs", () => {
    const r = runLab(['--list']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const ids = (from: number, to: number) =>
      lines.slice(from, to).flatMap((l) => /^ {2}([A-Z][0-9]) /.exec(l)?.[1] ?? []);
    const store = lines.findIndex((l) => l.startsWith('the store cases'));
    expect(lines[0]).toMatch(/^the lesson's cases/);
    expect(ids(1, store)).toHaveLength(22);
    expect(ids(store + 1, lines.length)).toEqual(['H1', 'G1', 'G2', 'G3']);
    const h1 = lines.findIndex((l) => l.startsWith('  H1 '));
    expect(lines[h1 + 1]).toContain('needs a store that ignores put-if-absent');
  });
});
