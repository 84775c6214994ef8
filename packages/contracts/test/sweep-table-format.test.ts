/**
 * A sweep's table format in its input: Delta by default and then absent from the checked input (results written
 * before Iceberg sweeps read the same); Iceberg with its catalog, SQLite by default; what Iceberg cannot do is
 * refused, naming what it supports, and a catalog given to Delta is refused too.
 */
import { describe, expect, it } from 'vitest';
import { checkSweepInput, sweepTableFormatOf } from '../src/index';

describe('tableFormat and catalog', () => {
  it('Delta by default, and absent from the checked input', () => {
    const r = checkSweepInput({ operation: 'append-row' });
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect('tableFormat' in r.value || 'catalog' in r.value).toBe(false);
    expect(sweepTableFormatOf(r.value)).toBe('delta');
    expect(checkSweepInput({ operation: 'append-row', tableFormat: 'delta' })).toEqual(r);
  });

  it('Iceberg carries its catalog, SQLite by default', () => {
    const r = checkSweepInput({ operation: 'append-row', tableFormat: 'iceberg', policy: 'none' });
    expect(r).toMatchObject({ ok: true, value: { tableFormat: 'iceberg', catalog: 'sqlite' } });
  });

  it('refuses what Iceberg cannot do and a catalog given to Delta, with every problem', () => {
    expect(checkSweepInput({ operation: 'append-day', tableFormat: 'iceberg', catalog: 'postgres' })).toEqual({
      ok: false,
      problems: [
        'operation append-day is not supported on Iceberg: Iceberg sweeps support append-row',
        'catalog postgres is not supported by sweeps yet: Iceberg sweeps commit through the SQLite catalog',
      ],
    });
    expect(checkSweepInput({ operation: 'append-row', catalog: 'sqlite' })).toEqual({
      ok: false,
      problems: ['catalog applies to tableFormat iceberg only'],
    });
    expect(checkSweepInput({ operation: 'append-row', tableFormat: 'hudi', catalog: 'mysql' })).toMatchObject({
      ok: false,
      problems: [
        "tableFormat must be one of delta, iceberg, got 'hudi'",
        "catalog must be one of sqlite, postgres, got 'mysql'",
      ],
    });
  });
});
