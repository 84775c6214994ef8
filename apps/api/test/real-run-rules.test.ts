/**
 * How startRace reads `real` and `library` (races/real-run.ts), without a stack: a library the engine emulates asks
 * for nothing alone (refused: give real with it), one it does not emulate (delta-spark) implies real, so the lab's
 * own rules judge it; the lab's reasons reach the client in the input's words (library, tableRoot), never its
 * command line's flags; and a race without either runs emulated.
 */
import { type LabCase, selectCases } from '@racelab/lab';
import { describe, expect, it } from 'vitest';
import { RealRunRefusedApiError } from '../src/errors/client-errors';
import { realRunOf } from '../src/races/real-run';

const locations = { roots: ['/srv/tables'], workDir: '/srv/lab' };
const caseOf = (id: string) => selectCases([id])[0] as LabCase;

async function refusedWith(p: Promise<unknown>): Promise<string[]> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(RealRunRefusedApiError);
  const refusal = e as RealRunRefusedApiError;
  expect(refusal.extensions.code).toBe('REAL_RUN_REFUSED');
  expect(refusal.message).not.toContain('--');
  return refusal.problems;
}

describe('real and library of startRace', () => {
  it('runs emulated when neither is given', async () => {
    expect(await realRunOf({}, caseOf('B1'), {}, locations)).toBeUndefined();
    expect(await realRunOf({ real: false, library: null }, caseOf('B1'), {}, locations)).toBeUndefined();
  });

  it('refuses a library the engine emulates without real', async () => {
    expect(await refusedWith(realRunOf({ library: 'delta-rs' }, caseOf('B1'), {}, locations))).toEqual([
      'library picks the real library: give real: true with it (delta-rs is emulated otherwise)',
    ]);
  });

  it('takes delta-spark, which the engine does not emulate, as a real run the lab then judges', async () => {
    const judged = await realRunOf({ library: 'delta-spark' }, caseOf('B1'), {}, locations).then(
      (library) => [library],
      (e: RealRunRefusedApiError) => e.problems,
    );
    expect(judged.join('\n')).toMatch(/delta-spark/);
    expect(judged.join('\n')).not.toMatch(/give real: true/);
  });

  it("says the lab's reasons in the input's words, all at once", async () => {
    const problems = await refusedWith(
      realRunOf(
        { real: true, library: 'pyiceberg' },
        caseOf('A1'),
        { tableRoot: 's3://bucket/lab', acrossWorkers: true },
        locations,
      ),
    );
    expect(problems).toEqual([
      'real writers run on this machine only, not on other hosts',
      'real writers write local run tables only, not an S3 table root (tableRoot)',
      'A1 is a Delta case: pyiceberg writes Iceberg tables; delta-rs runs it (library delta-rs, or no library)',
    ]);
  });
});
