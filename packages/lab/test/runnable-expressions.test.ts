/**
 * Expressions that parse and bind but that DuckDB cannot run (a constant it cannot convert, a value
 * that does not fit its column) are refused wherever the lab accepts them for work: a custom race,
 * a forecast, a layout's match counts and a jobs audit (as a problem of its manifest), each with a message in the engine's words
 * and never DuckDB's text. Before, they reached DuckDB and failed there with its raw error.
 */
import { join } from 'node:path';
import { field, writeDeltaTable } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditJobs, type Job } from '../src/audit/index';
import { ManifestError } from '../src/audit/manifest';
import type { WriterSpec } from '../src/cases/catalog';
import { CaseInputError, customCase, runnableCustomCase } from '../src/cases/custom';
import { forecastConflict } from '../src/forecast/conflict-forecast';
import { tableLayout } from '../src/tables/layout';
import type { LocationConfig } from '../src/tables/locations';
import { tempDir } from './helpers/small-base';

/** Parses and binds (a string constant cast to a number), but DuckDB cannot convert 'abc'. */
const CANNOT_RUN = "fare_amount > CAST('abc' AS DOUBLE)";
const CANNOT_RUN_REFUSAL =
  "predicate cannot run on this table: 'CAST('abc' AS DOUBLE)' at position 15: a value cannot be converted, on every row (it reads no column)";

const work = tempDir('runnable');
const cfg: LocationConfig = { roots: [join(work, 'tables')], workDir: work };
const trips = join(work, 'tables', 'trips');

beforeAll(async () => {
  const schema = {
    type: 'struct' as const,
    fields: [field('VendorID', 'integer'), field('fare_amount', 'double'), field('store_and_fwd_flag', 'string')],
  };
  const rows = [1, 2, 6].map((v) => ({ VendorID: v, fare_amount: 10 * v, store_and_fwd_flag: 'N' }));
  await writeDeltaTable(trips, { kind: 'rows', rows, schema });
});

function problemsOf(e: unknown): string[] {
  expect(e).toBeInstanceOf(CaseInputError);
  return (e as CaseInputError).problems;
}

describe('custom races', () => {
  const update = (name: string, predicate: string, set: Record<string, string>) => ({
    name,
    operation: 'update',
    predicate,
    set,
  });

  it('refuses what DuckDB cannot run, every problem named, after the parser accepted it', async () => {
    const input = {
      writers: [
        update('a', CANNOT_RUN, { tip_amount: 'tip_amount + 1' }),
        update('b', 'VendorID = 2', { VendorID: '1e300' }),
      ],
    };
    expect(customCase(input).writers).toHaveLength(2);
    const e = await runnableCustomCase(input).catch((x: unknown) => x);
    expect(problemsOf(e)).toEqual([
      `writer a: predicate: ${CANNOT_RUN_REFUSAL}`,
      "writer b: set VendorID: update expression cannot run on this table: its value does not fit column 'VendorID' (INTEGER): a value cannot be converted, on every row (it reads no column)",
    ]);
  });

  it('still reports what the parser refuses, and accepts a race that runs', async () => {
    const bad = await runnableCustomCase({
      writers: [update('a', 'CAST(store_and_fwd_flag AS BIGINT) = 1', { tip_amount: '1' }), update('b', 'TRUE', {})],
    }).catch((x: unknown) => x);
    expect(problemsOf(bad)).toEqual([
      "writer a: predicate: CAST of 'store_and_fwd_flag' (string) to BIGINT at position 1 can fail on the table's data: text that is not a BIGINT fails it; compare the text itself instead",
      'writer b: set must name 1 to 20 columns',
    ]);
    const c = await runnableCustomCase({
      writers: [
        update('a', 'VendorID = 1', { tip_amount: 'tip_amount + 1' }),
        update('b', 'VendorID = 2', {
          tip_amount: 'round(tip_amount * 1.1, 2)',
        }),
      ],
    });
    expect(c.writers.map((w) => w.name)).toEqual(['a', 'b']);
  });
});

describe('reads of a table', () => {
  const writer = (name: string, predicate: string): WriterSpec => ({ name, operation: { kind: 'delete', predicate } });

  it('a forecast refuses a writer whose predicate cannot run', async () => {
    const e = await forecastConflict({
      table: trips,
      first: writer('a', 'VendorID = 1'),
      second: writer('b', CANNOT_RUN),
    })
      .then(() => null)
      .catch((x: unknown) => x as Error);
    expect(e?.name).toBe('ExpressionError');
    expect(e?.message).toBe(`writer 'b' predicate: ${CANNOT_RUN_REFUSAL}`);
  });

  it("a layout's match counts refuse a predicate that cannot run", async () => {
    const e = await tableLayout(trips, undefined, { predicates: ['VendorID = 1', CANNOT_RUN] }).catch(
      (x: unknown) => x as Error,
    );
    expect((e as Error).message).toBe(`predicates[1]: ${CANNOT_RUN_REFUSAL}`);
    const ok = await tableLayout(trips, undefined, { predicates: ['VendorID = 6'] });
    expect(ok.files.reduce((n, f) => n + (f.matches?.[0] ?? 0), 0)).toBe(1);
  });

  it('an audit refuses the manifest, naming every job whose predicate cannot run and its field', async () => {
    const job = (name: string, predicate: string): Job => ({
      name,
      table: 'trips',
      engine: 'delta-rs 1.6.6',
      operation: 'delete',
      predicate,
      onCommitFailed: 'redo-whole-change',
    });
    const error = await auditJobs(
      { jobs: [job('bad', CANNOT_RUN), job('v1', 'VendorID = 1'), job('also-bad', `VendorID = 2 OR ${CANNOT_RUN}`)] },
      cfg,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).problems).toEqual([
      `job 'bad': predicate: ${CANNOT_RUN_REFUSAL}`,
      `job 'also-bad': predicate: ${CANNOT_RUN_REFUSAL.replace('position 15', 'position 31')}`,
    ]);
  });
});
