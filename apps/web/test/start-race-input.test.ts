/**
 * What the start-race form sends: its writers' drafts become the race input's WriterInput, which the form checks
 * with the race input's schema before sending, in the words the API refuses it with.
 */
import { checkStartRace, type StartRaceInput } from '@racelab/contracts';
import { describe, expect, it } from 'vitest';
import { type DraftWriter, newWriter, toWriterInput } from '../lib/writer-draft';

const race = (...writers: DraftWriter[]): StartRaceInput => ({
  runs: 1,
  scale: 0.01,
  table: 'flat',
  writers: writers.map((w) => toWriterInput(w)),
});

/** A race of `writers` on copies of a table of one's own: no scale, no lab table. */
const ownRace = (...writers: DraftWriter[]): StartRaceInput => ({
  runs: 1,
  tableLocation: 'sales/orders',
  writers: writers.map((w) => toWriterInput(w, true)),
});

describe('the start-race form’s input', () => {
  it('the writers a form starts with, and an appended one, make a race the schema accepts', () => {
    const input = race(newWriter('first', 'update-1'), newWriter('second', 'update-2'), newWriter('third'));
    expect(input.writers?.map((w) => w.operation)).toEqual(['update', 'update', 'append']);
    expect(input.writers?.[0]).toEqual({
      name: 'first',
      operation: 'update',
      predicate: 'VendorID = 1',
      set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
    });
    expect(checkStartRace(input)).toMatchObject({ ok: true });
  });

  it('a draft sends only what its operation takes: an append keeps no predicate, a delete no day', () => {
    const append = { ...newWriter('a', 'update-1'), operation: 'append', blindAppend: true };
    const del = { ...newWriter('b'), operation: 'delete', predicate: 'VendorID = 2' };
    expect(race(append, del).writers).toEqual([
      { name: 'a', operation: 'append', day: '2025-02-01', blindAppend: true },
      { name: 'b', operation: 'delete', predicate: 'VendorID = 2' },
    ]);
  });

  it('is refused before it is sent, every problem named as the API names it', () => {
    const loop = { ...newWriter('first', 'update-1'), retryLoopAttempts: '0', startAfter: 'second' };
    const waits = { ...newWriter('second', 'update-2'), startAfter: 'first', set: 'tip_amount = 1\ntip_amount = 2' };
    expect(checkStartRace({ ...race(loop, waits), runs: 0 })).toEqual({
      ok: false,
      problems: [
        'writer first: retryLoopAttempts must be a whole number from 1 to 20',
        'writer second: set: tip_amount is given twice',
        'writers first, second wait for each other in a cycle',
        'runs must be a whole number from 1 to 50, got 0',
      ],
    });
  });

  it('on a table of its own, an append adds a sample or a file, an overwrite also takes a predicate, no day', () => {
    const sample = { ...newWriter('sampled'), sample: '250' };
    const file = { ...newWriter('filed'), rowsFrom: 'file' as const, sourceLocation: ' feeds/new.parquet ' };
    const overwrite = { ...newWriter('over'), operation: 'overwrite', predicate: 'id < 10' };
    const update = { ...newWriter('upd', 'update-1'), predicate: 'id = 1', set: 'amount = amount + 1' };
    const input = ownRace(sample, file, overwrite, update);
    expect(input.writers).toEqual([
      { name: 'sampled', operation: 'append', sample: 250 },
      { name: 'filed', operation: 'append', sourceLocation: 'feeds/new.parquet' },
      { name: 'over', operation: 'overwrite', predicate: 'id < 10', sample: 100 },
      { name: 'upd', operation: 'update', predicate: 'id = 1', set: [{ key: 'amount', value: 'amount + 1' }] },
    ]);
    expect(checkStartRace(input)).toMatchObject({ ok: true });
  });

  it('on a table of its own, a sample that is no whole number is refused in the contract’s words', () => {
    const checked = checkStartRace(ownRace({ ...newWriter('a'), sample: '' }, { ...newWriter('b'), sample: '2.5' }));
    expect(checked).toEqual({
      ok: false,
      problems: [
        'writer a: sample must be a whole number from 1 to 1000000, got NaN',
        'writer b: sample must be a whole number from 1 to 1000000, got 2.5',
      ],
    });
  });
});
