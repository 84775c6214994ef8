import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDocument,
  checkResults,
  DEFAULT_CASES_DOC,
  derivedFigures,
  extractNumbers,
  type Figures,
  formatReport,
  messages,
  type Report,
  UnusableInputError,
  validateResults,
} from '../src/report/index';
import type { LabResults, RunResult, RunVerdict, WriterResult } from '../src/results/types';
import { FIG, goodResults, resultsWithoutVerdicts, writeReportData } from './helpers/report-fixture';

const { DELETED_READ } = messages;
const LAB = fileURLToPath(new URL('..', import.meta.url));

let dir = '';
let dataDir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lab-report-'));
  dataDir = join(dir, 'data');
  await mkdir(dataDir);
  await writeReportData(dataDir);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const clone = (r: LabResults): LabResults => structuredClone(r);

function run(r: LabResults, id: string, index = 1): RunResult {
  const found = r.cases.find((k) => k.id === id)?.runs.find((x) => x.index === index);
  if (!found) throw new Error(`no ${id} run ${index}`);
  return found;
}

function writer(r: RunResult, name: string): WriterResult {
  const found = r.writers.find((w) => w.name === name);
  if (!found) throw new Error(`no writer ${name}`);
  return found;
}

function allMismatches(report: Report): string[] {
  return [
    ...report.cases.flatMap((k) => k.mismatches),
    ...(report.document.status === 'checked' ? report.document.mismatches : []),
  ];
}

/** The mismatches of the good file with `plant` applied; the file must fail. */
async function mismatches(plant: (r: LabResults) => void): Promise<string[]> {
  const r = clone(goodResults(dataDir));
  plant(r);
  const report = await checkResults(r);
  expect(report.ok).toBe(false);
  return allMismatches(report);
}

describe('report checker: recount', () => {
  it('counts the raw data with its own SQL', async () => {
    const report = await checkResults(goodResults(dataDir));
    const f: Figures = report.figures;
    expect(f.january).toBe(FIG.J);
    expect(f.byVendor).toEqual(FIG.n);
    expect([f.negativeFare, f.zeroDistance, f.both, f.jan15]).toEqual([FIG.neg, FIG.zero, FIG.both, FIG.jan15]);
    expect([f.feb01, f.feb02, f.feb14]).toEqual([FIG.f1, FIG.f2, FIG.f14]);
    // The data set has the shape the cases need.
    expect(Object.keys(FIG.n).sort()).toEqual(['1', '2', '6', '7']);
    expect(FIG.both).toBeGreaterThan(0);
    expect(FIG.jan15).toBeGreaterThan(0);
  });
});

describe('report checker: a correct results file', () => {
  it('passes every present case and lists the absent ones as skipped', async () => {
    const report = await checkResults(goodResults(dataDir));
    expect(allMismatches(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked).toEqual([
      'A1',
      'A2',
      'B1',
      'B2',
      'B3',
      'C1',
      'C2',
      'C3',
      'I4',
      'I5',
      'D1',
      'E1',
      'E2',
      'F1',
      'F2',
      'P1',
      'P2',
      'P3',
    ]);
    expect(report.skipped).toEqual(['I1', 'I2', 'I3', 'I6']);
    expect(report.document).toEqual({
      status: 'skipped',
      reason: 'results at scale 0.01; the document quotes scale 1',
    });
  });

  it('accepts another D1 order whose attempts follow from the reads (6, 7, 2, 1 → 1, 1, 3, 2)', async () => {
    const r = clone(goodResults(dataDir));
    const d = run(r, 'D1');
    const v1 = writer(d, 'vendor1');
    const v2 = writer(d, 'vendor2');
    [v1.version, v2.version] = [4, 3];
    [v1.attempts, v2.attempts] = [3, 2];
    [v1.attemptErrors, v2.attemptErrors] = [v2.attemptErrors, v1.attemptErrors];
    [v1.readVersion, v2.readVersion] = [3, 2];
    d.commitOrder = ['vendor6', 'vendor7', 'vendor2', 'vendor1'];
    (d.verdict as RunVerdict).order = d.commitOrder;
    const report = await checkResults(r);
    expect(allMismatches(report)).toEqual([]);
  });
});

describe('report checker: planted wrong numbers', () => {
  it('A1 rows off by one', async () => {
    const m = await mismatches((r) => {
      run(r, 'A1', 2).table.rows += 1;
    });
    expect(m).toContain(
      `A1 run 2: row count differs: expected ${(FIG.J + FIG.f1 + FIG.f2).toLocaleString('en-US')} (January + Feb 1 + Feb 2), got ${(FIG.J + FIG.f1 + FIG.f2 + 1).toLocaleString('en-US')}`,
    );
  });

  it('B1 loser message changed', async () => {
    const m = await mismatches((r) => {
      writer(run(r, 'B1', 3), 'vendor2').errorMessage = DELETED_READ;
    });
    expect(m).toHaveLength(1);
    expect(m[0]).toMatch(
      /^B1 run 3: loser message differs \(vendor2\): expected "Failed to commit transaction: Commit failed: a concurrent transactions added new data\.\\nHelp:/,
    );
  });

  it('B1 tips of the loser changed, and the zombie file missing', async () => {
    const m = await mismatches((r) => {
      const t = run(r, 'B1', 1).table;
      t.tipDeltaByVendor = { ...t.tipDeltaByVendor, '2': 1 };
      t.dataFilesOnDisk = 10;
    });
    expect(m.some((x) => x.startsWith("B1 run 1: tipDeltaByVendor['2'] differs: expected 0"))).toBe(true);
    expect(m.some((x) => x.startsWith('B1 run 1: dataFilesOnDisk differs: expected 11'))).toBe(true);
  });

  it('D1 attempts 1, 1, 2, 2 (the attempts field alone)', async () => {
    const m = await mismatches((r) => {
      writer(run(r, 'D1'), 'vendor2').attempts = 2;
    });
    expect(m).toContain(
      "D1 run 1: vendor2's attempt count differs: expected 3 (one more than its attemptErrors), got 2",
    );
  });

  it('D1 attempts 1, 1, 2, 2 where the last attempt read too early: the reads and the commit order decide', async () => {
    const m = await mismatches((r) => {
      const v2 = writer(run(r, 'D1'), 'vendor2');
      v2.attempts = 2;
      v2.attemptErrors = v2.attemptErrors.slice(0, 1);
      // Its final attempt now claims to have read version 1 (only vendor 6 in), yet it committed after 7 and 1.
      v2.readVersion = 1;
      v2.commitRetries = (v2.version ?? 0) - 2;
    });
    expect(m.some((x) => x.includes('vendor2 committed version 4 on a read of version 1'))).toBe(true);
  });

  it('D1 with one attempt fewer and a consistent history passes: which version a retry reads is timing', async () => {
    const r = clone(goodResults(dataDir));
    const v2 = writer(run(r, 'D1'), 'vendor2');
    v2.attempts = 2;
    v2.attemptErrors = v2.attemptErrors.slice(0, 1);
    expect(allMismatches(await checkResults(r))).toEqual([]);
  });

  it('D1: vendor 6 committing after vendor 7 on its first attempt is impossible', async () => {
    const m = await mismatches((r) => {
      const d = run(r, 'D1');
      writer(d, 'vendor6').version = 2;
      writer(d, 'vendor6').commitRetries = 1;
      writer(d, 'vendor7').version = 1;
      writer(d, 'vendor7').commitRetries = 0;
      d.commitOrder = ['vendor7', 'vendor6', 'vendor1', 'vendor2'];
    });
    expect(m).toContain(
      "D1 run 1: vendor6 committed version 2 on a read of version 0, but vendor7's commit at version 1 conflicts with it (added new data)",
    );
  });

  it('D1: a failed attempt with no conflicting commit in its window', async () => {
    const m = await mismatches((r) => {
      const v2 = writer(run(r, 'D1', 2), 'vendor2');
      const e = v2.attemptErrors[1];
      if (e) e.readVersion = 3; // read version 3, then failed — but only its own commit (4) follows
    });
    expect(m).toContain(
      'D1 run 2: vendor2 attempt 2 failed, but no commit after its read (version 3) and before its next read (version 3) conflicts with it',
    );
  });

  it('E2 second job attempts 1', async () => {
    const m = await mismatches((r) => {
      writer(run(r, 'E2', 1), 'job1').attempts = 1;
    });
    expect(m).toContain(
      "E2 run 1: job1's attempt count differs: expected 2 (it failed once, reopened, committed), got 1",
    );
  });

  it('E2 day stored twice, P2 B did not wait, A2 wrong class', async () => {
    const m = await mismatches((r) => {
      const e2 = run(r, 'E2', 2).table;
      e2.tripsOnDay = { ...e2.tripsOnDay, '2025-02-14': 2 * FIG.f14 };
      writer(run(r, 'P2', 2), 'B').waitedOnLock = false;
      writer(run(r, 'A2'), 'feb01').errorClass = 'CommitConflictError';
    });
    expect(m).toContain(`E2 run 2: tripsOnDay['2025-02-14'] differs: expected ${FIG.f14}, got ${2 * FIG.f14}`);
    expect(m).toContain("P2 run 2: B's waitedOnLock differs: expected true, got false");
    expect(m).toContain(
      'A2 run 1: loser error class differs (feb01): expected "CommitFailedError", got "CommitConflictError"',
    );
  });
});

describe('report checker: verdicts', () => {
  const verdict = (r: LabResults, id: string) => run(r, id).verdict as RunVerdict;

  it('E1 said to be serializable', async () => {
    const m = await mismatches((r) => {
      Object.assign(verdict(r, 'E1'), { status: 'serializable', summary: 'data OK' });
    });
    expect(m).toEqual([
      'E1 run 1: verdict differs: expected "not-serializable" (each Feb 14 trip once too often), got "serializable"',
    ]);
  });

  it('I5 said to be serializable in commit order', async () => {
    const m = await mismatches((r) => {
      Object.assign(verdict(r, 'I5'), { status: 'serializable', order: ['append', 'vendor2'], summary: 'data OK' });
    });
    expect(m).toEqual([
      'I5 run 1: verdict differs: expected "reordered" (the update before the append), got "serializable"',
    ]);
  });

  it('I5 reordered the wrong way round', async () => {
    const m = await mismatches((r) => {
      verdict(r, 'I5').order = ['append', 'vendor2'];
    });
    expect(m).toEqual([
      'I5 run 1: verdict order differs: expected "vendor2, append" (the update before the append), got "append, vendor2"',
    ]);
  });

  it('E1 with one row too many written twice, and its summary saying so', async () => {
    const m = await mismatches((r) => {
      Object.assign(verdict(r, 'E1'), { rowsDuplicated: FIG.f14 + 1, summary: `${FIG.f14 + 1} rows written twice` });
    });
    expect(m).toEqual([
      `E1 run 1: verdict rowsDuplicated differs: expected ${FIG.f14} (each Feb 14 trip once too often), got ${FIG.f14 + 1}`,
      `E1 run 1: verdict summary differs: expected it to start "${FIG.f14} rows written twice", got "${FIG.f14 + 1} rows written twice"`,
    ]);
  });

  it("a loser whose change leaked in, an A1 run called not serializable, P3's loser left out", async () => {
    const m = await mismatches((r) => {
      const b1 = verdict(r, 'B1');
      b1.failedWriters = b1.failedWriters.map((f) => ({ ...f, untouched: false, summary: 'its rows changed' }));
      Object.assign(run(r, 'A1', 2).verdict as RunVerdict, { status: 'not-serializable', summary: '3 rows missing' });
      verdict(r, 'P3').failedWriters = [];
    });
    expect(m).toEqual([
      'A1 run 2: verdict differs: expected "serializable" (in commit order), got "not-serializable"',
      'B1 run 1: verdict: vendor2 failed, yet "its rows changed"',
      'P3 run 1: verdict failedWriters differ: expected B, got none',
    ]);
  });

  it('a results file from before verdicts passes, each case saying its runs were not checked', async () => {
    const report = await checkResults(resultsWithoutVerdicts(dataDir));
    expect(allMismatches(report)).toEqual([]);
    const e1 = report.cases.find((k) => k.id === 'E1');
    expect(e1?.verdicts).toEqual(['no verdict recorded (not checked)']);
  });

  it('the validator reads a verdict when there is one', () => {
    const r = clone(goodResults(dataDir));
    expect(validateResults(r, 'r.json')).toEqual(r);
    (verdict(r, 'E1') as { status: string }).status = 'fine';
    expect(() => validateResults(r, 'r.json')).toThrow(
      'r.json: cases[11].runs[0].verdict.status must be one of serializable, reordered, not-serializable',
    );
    const p = clone(goodResults(dataDir));
    (verdict(p, 'P3').failedWriters[0] as { rowsTouched: unknown }).rowsTouched = -1;
    expect(() => validateResults(p, 'r.json')).toThrow(
      'r.json: cases[17].runs[0].verdict.failedWriters[0].rowsTouched must be at least 0',
    );
  });
});

describe('report checker: the cases document', () => {
  const fake: Figures = {
    january: 3_475_226,
    byVendor: { '1': 753_671, '2': 2_719_860, '6': 489, '7': 1_206 },
    negativeFare: 144_118,
    zeroDistance: 90_893,
    both: 14_451,
    negativeFareByVendor: {},
    zeroDistanceByVendor: {},
    jan15: 125_359,
    feb01: 148_649,
    feb02: 123_646,
    feb14: 158_575,
  };

  it('extracts numbers with thousands separators, and nothing else', () => {
    const found = extractNumbers('3,475,226 trips; 489 and 2025-01-15; attempts 1,1,2,3; (1,206).\nA1: 3,747,521 rows');
    expect(found.map((x) => [x.line, x.text, x.value])).toEqual([
      [1, '3,475,226', 3_475_226],
      [1, '1,206', 1_206],
      [2, '3,747,521', 3_747_521],
    ]);
  });

  it('reports a number the results do not produce', () => {
    const doc = 'January: 3,475,226 trips.\nA1 ends with 3,747,521 rows.\nE2 ends with 3,633,802 trips.\n';
    const result = checkDocument(doc, derivedFigures(fake), 'doc.md');
    expect(result.numbers).toBe(3);
    expect(result.mismatches).toEqual(['doc.md line 3: 3,633,802 is not a figure the results produce']);
  });

  it("every figure in the project's docs/lab-cases.md is one the lesson's full-scale data produces", async () => {
    const text = await readFile(DEFAULT_CASES_DOC, 'utf8');
    const result = checkDocument(text, derivedFigures(fake), 'docs/lab-cases.md');
    expect(result.mismatches).toEqual([]);
    for (const figure of [
      '3,475,226',
      '753,671',
      '2,719,860',
      '1,206',
      '144,118',
      '90,893',
      '14,451',
      '125,359',
      '148,649',
      '123,646',
      '158,575',
      '3,747,521',
      '3,598,872',
      '3,331,108',
      '317,150',
      '3,633,801',
      '397,654',
      '5,439,720',
    ]) {
      expect(text).toContain(figure);
    }
  });

  it('at scale 1 checks the document against the recount of the data set', async () => {
    const doc = join(dir, 'cases.md');
    // The tiny data set has no figure of 4 digits, so any number with a thousands separator is wrong.
    await writeFile(doc, `January: ${FIG.J} trips.\nA typo: 1,234.\n`);
    const bigger = await checkResults(goodResults(dataDir, 1), { casesDoc: doc });
    expect(bigger.document).toEqual({
      status: 'checked',
      path: doc,
      numbers: 1,
      mismatches: [`${doc} line 2: 1,234 is not a figure the results produce`],
    });
    expect(bigger.ok).toBe(false);
  });
});

describe('report checker: Delta Spark runs', () => {
  it("holds them not to the lesson's delta-rs expectations, and says so", async () => {
    const r = clone(goodResults(dataDir));
    // C2 as Delta Spark runs it: its second writer reads the compaction's commit and commits (delta-rs's fails).
    const c2 = r.cases.find((c) => c.id === 'C2') as LabResults['cases'][number];
    for (const run of c2.runs)
      run.writers = run.writers.map((w) => ({ ...w, committed: true, errorClass: null, library: 'delta-spark' }));
    const report = await checkResults(r);
    expect(report.ok).toBe(true);
    expect(report.checked).not.toContain('C2');
    expect(report.deltaSpark).toEqual(['C2']);
    expect(formatReport(report, 'r.json')).toContain(
      "run in Delta Spark, not held to the lesson's delta-rs expectations (lab compare --library delta-spark judges them): C2",
    );
    expect((await checkResults(goodResults(dataDir))).deltaSpark).toBeUndefined();
  });
});

describe('report checker: input', () => {
  it('names the first bad field', () => {
    const r = clone(goodResults(dataDir)) as unknown as { cases: { runs: { writers: Record<string, unknown>[] }[] }[] };
    const w = r.cases[2]?.runs[0]?.writers[1];
    if (w) w.committed = 'yes';
    expect(() => validateResults(r, 'results.json')).toThrow(
      new UnusableInputError('results.json: cases[2].runs[0].writers[1].committed must be a boolean'),
    );
    expect(() => validateResults({ ...goodResults(dataDir), cases: undefined }, 'r.json')).toThrow(
      'r.json: cases must be an array',
    );
  });

  it('a missing data file is unusable input', async () => {
    await expect(checkResults(goodResults(join(dir, 'nowhere')))).rejects.toThrow(UnusableInputError);
  });
});

describe('npm run lab:report (the CLI)', () => {
  function cli(...args: string[]) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/report.ts', ...args], {
      cwd: LAB,
      encoding: 'utf8',
      env: { ...process.env, INIT_CWD: LAB },
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  }

  it('exits 0 on the good file, 1 on a planted one, 2 on unusable input', async () => {
    const good = join(dir, 'good.json');
    const planted = join(dir, 'planted.json');
    await writeFile(good, JSON.stringify(goodResults(dataDir), null, 2));
    const p = clone(goodResults(dataDir));
    writer(run(p, 'D1', 2), 'vendor2').attempts = 2;
    await writeFile(planted, JSON.stringify(p));

    const ok = cli(good);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('✓ D1  2 runs; data OK in 2 of 2; commit order 6, 7, 1, 2 (2 of 2)');
    expect(ok.out).toContain(`✓ E1  1 run; ${FIG.f14} rows written twice in 1 of 1\n`);
    expect(ok.out).toContain('✓ I5  1 run; reordered: update before append, as WriteSerializable allows in 1 of 1\n');
    expect(ok.out).toContain('skipped (not in the file): I1 I2 I3 I6');
    expect(ok.out).toContain('cases document not checked: results at scale 0.01');
    expect(ok.out.trim().split('\n').at(-1)).toMatch(/^OK: 18 cases checked/);

    const bad = cli(planted);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('✗ D1  2 runs');
    expect(bad.out).toContain("    D1 run 2: vendor2's attempt count differs: expected 3");
    expect(bad.out.trim().split('\n').at(-1)).toMatch(/^MISMATCH: \d+ mismatch(es)? \(1 of 18 cases\)/);

    // A planted error: E1's runs said to leave the data OK.
    const e1Planted = join(dir, 'e1-serializable.json');
    const e = clone(goodResults(dataDir));
    Object.assign(run(e, 'E1').verdict as RunVerdict, { status: 'serializable', summary: 'data OK' });
    await writeFile(e1Planted, JSON.stringify(e));
    const e1 = cli(e1Planted);
    expect(e1.code).toBe(1);
    expect(e1.out).toContain('✗ E1  1 run; data OK in 1 of 1, 1 mismatch\n');
    expect(e1.out).toContain('    E1 run 1: verdict differs: expected "not-serializable"');

    const older = join(dir, 'older.json');
    await writeFile(older, JSON.stringify(resultsWithoutVerdicts(dataDir)));
    const o = cli(older);
    expect(o.code).toBe(0);
    expect(o.out).toContain('✓ A1  2 runs; no verdict recorded (not checked) in 2 of 2\n');

    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'lab results, honest');
    const noCases = join(dir, 'no-cases.json');
    const { cases: _, ...rest } = goodResults(dataDir);
    await writeFile(noCases, JSON.stringify(rest));
    const noData = join(dir, 'no-data.json');
    await writeFile(noData, JSON.stringify(goodResults(join(dir, 'nowhere'))));
    // A race on a table of one's own: a case of its own, and no data set where dataDir points.
    const ownTable = join(dir, 'own-table.json');
    const own = goodResults(join(dir, 'nowhere'));
    await writeFile(
      ownTable,
      JSON.stringify({ ...own, cases: own.cases.slice(0, 1).map((c) => ({ ...c, id: 'custom' })) }),
    );
    for (const [file, message] of [
      [join(dir, 'missing.json'), /missing\.json: cannot read it \(ENOENT\)$/],
      [notJson, /not\.json: not JSON \(/],
      [noCases, /no-cases\.json: cases must be an array$/],
      [noData, /data set .*nowhere has no january\.parquet$/],
      [ownTable, /^no case of the lesson's in the file \(only custom\): the checker checks the lesson's cases/],
    ] as const) {
      const r = cli(file);
      expect(r.code, file).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err.trim()).toMatch(message);
    }
  });
});
