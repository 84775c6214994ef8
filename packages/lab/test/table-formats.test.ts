/**
 * The format registry: a fourth format, defined in one folder (fixtures/fake-format) plus one registration, is
 * listed with its cases where the CLI and the API look for cases, and runLab runs its case through the generic path
 * (setup, the case's runs, the verdict memo, dispose, close) to a result with its verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatOf,
  type LabCase,
  type LabResults,
  registerFormat,
  runLab,
  selectCases,
  UnknownCaseError,
} from '../src/index';
import { calls, FAKE_CASE, fakeFormat, replays } from './fixtures/fake-format/index';
import { noTlcDir, SMALL_SCALE, tempDir } from './helpers/small-base';

const work = tempDir('formats');

describe('a format registered from outside the lab', () => {
  let unregister: () => void;
  let results: LabResults;
  beforeAll(async () => {
    unregister = registerFormat(fakeFormat);
    results = await runLab({ cases: ['Z1'], runs: 2, scale: SMALL_SCALE, workDir: work, dataDir: noTlcDir(work) });
  }, 120_000);
  afterAll(() => unregister());

  it('lists its cases after the catalog, where the CLI and the API find cases', () => {
    const listed = selectCases([]);
    expect(listed.at(-1)).toEqual(FAKE_CASE);
    expect(listed.map((c) => c.id)).toContain('A1');
    expect(selectCases(['z1'])).toEqual([FAKE_CASE]);
  });

  it('is the format the case is asked through', () => {
    const c = FAKE_CASE as unknown as LabCase;
    expect(formatOf(c)).toBe(fakeFormat);
    expect(formatOf(c).describeCase(c)).toBe('a count of 10 rows; one and two add to it');
    expect(formatOf(c).writerNames(c)).toEqual(['one', 'two']);
  });

  it('runLab sets it up once, runs each run of its case, and ends the case and the format', () => {
    expect(calls).toEqual([`setup Z1 at ${SMALL_SCALE}`, 'forCase Z1', 'run Z1 1', 'run Z1 2', 'dispose Z1', 'close']);
    expect(results.versions.fake).toBe('counts in memory');
  });

  it("each run carries the shared oracle's verdict; the second run's replay came from the case's memo", () => {
    const [z1] = results.cases;
    expect(z1?.id).toBe('Z1');
    expect(z1?.runs.map((r) => [r.index, r.table.rows, r.verdict?.status, r.verdict?.order])).toEqual([
      [1, 17, 'serializable', ['one', 'two']],
      [2, 17, 'serializable', ['one', 'two']],
    ]);
    expect(z1?.runs[0]?.verdict?.summary).toBe('data OK');
    expect(replays).toEqual([['one', 'two']]);
  });

  it('takes no second format of the same id', () => {
    expect(() => registerFormat({ ...fakeFormat })).toThrow(/table format fake is registered already/);
  });
});

describe('once unregistered', () => {
  it('its case is unknown again', () => {
    expect(() => selectCases(['Z1'])).toThrow(UnknownCaseError);
  });
});
