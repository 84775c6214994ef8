/**
 * commitInfo records `readVersion` exactly where delta-rs 1.6.x does: DELETE (operations/delete.rs L351-353),
 * UPDATE (update.rs L532-534), MERGE (merge/mod.rs L1718) and OPTIMIZE (optimize.rs L959-961) insert it into the
 * commit's app metadata; WRITE (write/mod.rs) and VACUUM (vacuum.rs) never do. The engine writes only as delta-rs,
 * so a history audit reads its appends as delta-rs's: their overlap inferred from timestamp and
 * execution_time_ms, their updates' recorded.
 */
import { describe, expect, it } from 'vitest';
import { DeltaTable, deleteRows, merge, optimize, update, vacuum, writeDeltaTable } from '../src/index';
import { february, LESSON, lessonTable } from './helpers/lesson';
import { commitInfoOf, validatedLog } from './helpers/log';
import { tempDir } from './helpers/tmp';

const root = tempDir('read-version');
const lastInfo = (dir: string) => commitInfoOf(validatedLog(dir).at(-1));

describe("commitInfo's readVersion, operation by operation, as delta-rs 1.6.x writes it", () => {
  it('WRITE and VACUUM leave it out; UPDATE, DELETE, MERGE and OPTIMIZE record the version they read', async () => {
    const dir = await lessonTable(root, 'ops');
    await writeDeltaTable(dir, february('2025-02-14', 5, 0), { mode: 'append' });
    const append = lastInfo(dir);
    expect(append.operation).toBe('WRITE');
    expect(append).not.toHaveProperty('readVersion');
    expect((append.operationMetrics as Record<string, unknown>).execution_time_ms).toEqual(expect.any(Number));

    const steps: [string, (t: DeltaTable) => Promise<unknown>][] = [
      ['UPDATE', (t) => update(t, { predicate: 'VendorID = 6', set: { tip_amount: 'tip_amount + 1' } })],
      ['DELETE', (t) => deleteRows(t, 'fare_amount < 2.5')],
      [
        'MERGE',
        (t) => merge(t, { kind: 'rows', schema: LESSON, rows: [{ trip_id: 1, VendorID: 2 }] }, { on: ['trip_id'] }),
      ],
      ['OPTIMIZE', (t) => optimize(t)],
    ];
    for (const [operation, run] of steps) {
      const read = await DeltaTable.open(dir);
      await run(read);
      expect(lastInfo(dir)).toMatchObject({ operation, readVersion: read.version });
    }

    const before = validatedLog(dir).length;
    await vacuum(await DeltaTable.open(dir), { dryRun: false, retentionHours: 0, enforceRetentionDuration: false });
    const vacuumInfos = validatedLog(dir).slice(before).map(commitInfoOf);
    expect(vacuumInfos.map((i) => i.operation)).toEqual(['VACUUM START', 'VACUUM END']);
    for (const info of vacuumInfos) expect(info).not.toHaveProperty('readVersion');
  });
});
