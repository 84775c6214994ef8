/**
 * A case described in one sentence: a race on a table of one's own names the table as the user did and its
 * writers' rows by kind, never by the server path a source file was resolved to.
 */
import { CASES, type DeltaCase } from '@racelab/lab';
import { describe, expect, it } from 'vitest';
import { describeCase } from '../src/graphql/case-types';

describe('describeCase', () => {
  it('describes a race on copies of a table of your own without server paths', () => {
    const c: DeltaCase = {
      id: 'custom',
      title: 'custom race on teams/orders: …',
      format: 'delta',
      table: { location: '/srv/tables/teams/orders', display: 'teams/orders' },
      writers: [
        { name: 'feed', operation: { kind: 'append', from: { file: '/srv/tables/feeds/new.parquet' }, blind: true } },
        {
          name: 'redo',
          operation: { kind: 'overwrite', predicate: 'id = 3', from: { sample: 5 } },
          startAfter: 'feed',
        },
        { name: 'once', operation: { kind: 'check-then-append', predicate: 'id = 4', from: { sample: 2 } } },
      ],
    };
    const text = describeCase(c);
    expect(text).toBe(
      'On copies of the Delta table teams/orders. feed: append the rows of a Parquet file (blind); ' +
        'redo: overwrite where id = 3 with 5 rows sampled from the table (starts after feed committed); ' +
        'once: if no row matches id = 4, append 2 rows sampled from the table.',
    );
    expect(text).not.toContain('/srv');
  });

  it("describes the lesson's presets as before", () => {
    const b1 = CASES.find((c) => c.id === 'B1') as DeltaCase;
    expect(describeCase(b1)).toBe(
      'On the flat Delta table. vendor1: update tip_amount = tip_amount + 1 where VendorID = 1; vendor2: update tip_amount = tip_amount + 1 where VendorID = 2.',
    );
    const e2 = CASES.find((c) => c.id === 'E2') as DeltaCase;
    expect(describeCase(e2)).toBe(
      'On the flat Delta table. job1: overwrite-day 2025-02-14 (retry loop of 10); job2: overwrite-day 2025-02-14 (retry loop of 10).',
    );
  });
});
