/**
 * The jobs audit's "Race FIRST then SECOND": the pair's lab table and scale, SECOND starting after FIRST,
 * and the table properties the two jobs declare that a race can set.
 */
import { checkStartRace } from '@racelab/contracts';
import { describe, expect, it } from 'vitest';
import { type AuditedJob, type JobPair, raceInput } from '../lib/jobs';

const job = (name: string, vendor: number, tableProperties: AuditedJob['tableProperties'] = []): AuditedJob => ({
  name,
  table: 'lab:flat@0.01',
  engine: 'delta-rs 1.6.6',
  operation: 'update',
  predicate: `VendorID = ${vendor}`,
  tableProperties,
});

const pair = (first: string, second: string, table = 'lab:flat@0.01') =>
  ({ table, first, second, secondCommits: false }) as JobPair;

describe('raceInput', () => {
  it('races FIRST then SECOND on the lab table with the table properties both jobs declare', () => {
    const jobs = [
      job('vendor1', 1, [
        { key: 'delta.isolationLevel', value: 'WriteSerializable' },
        { key: 'delta.checkpointInterval', value: '10' },
      ]),
      job('vendor2', 2, [
        { key: 'delta.isolationLevel', value: 'Serializable' },
        { key: 'delta.enableChangeDataFeed', value: 'true' },
      ]),
    ];
    const input = raceInput(pair('vendor1', 'vendor2'), jobs);
    expect(input).toEqual({
      table: 'flat',
      scale: 0.01,
      runs: 3,
      // SECOND's value of a key both declare; a property a race cannot set is left to the base table.
      tableProperties: [
        { key: 'delta.isolationLevel', value: 'Serializable' },
        { key: 'delta.checkpointInterval', value: '10' },
      ],
      writers: [
        {
          name: 'vendor1',
          operation: 'update',
          predicate: 'VendorID = 1',
          set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
        },
        {
          name: 'vendor2',
          operation: 'update',
          predicate: 'VendorID = 2',
          set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
          startAfter: 'vendor1',
        },
      ],
    });
    expect(checkStartRace(input).ok).toBe(true);
  });

  it('declares no property when the jobs declare none, and races nothing off the lab tables', () => {
    const jobs = [job('vendor1', 1), job('vendor2', 2)];
    expect(raceInput(pair('vendor2', 'vendor1'), jobs)?.tableProperties).toEqual([]);
    expect(raceInput(pair('vendor1', 'vendor2', 'tables/nightly'), jobs)).toBeNull();
  });
});
