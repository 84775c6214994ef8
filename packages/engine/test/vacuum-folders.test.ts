/**
 * Vacuum and what is not a table file: a small append's data file under its temporary name
 * (`<name>#<owner>`, before its rename) left by a dead writer is a leftover wherever it lies, reclaimed
 * apart from the table files and never counted in `VACUUM START`; and the folders vacuum empties (a
 * column-mapped table's random-prefix folders, `_staging/`) go with their files, never the root or
 * `_delta_log`. The dead writer is a real process that has exited; ages are set with utimes.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { DeltaTable, deleteRows, update, vacuum } from '../src/index';
import { ownerTag } from '../src/storage/staging';
import { JAN_ROWS, lessonTable } from './helpers/lesson';
import { commitInfoOf, validatedLog } from './helpers/log';
import { tempDir } from './helpers/tmp';

const root = tempDir('vacuum-folders');
const HOURS = 3_600_000;
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

/** The owner tag of a process of this host that has ended. */
function deadOwner(): string {
  const gone = spawnSync(process.execPath, ['-e', '']);
  expect(gone.status).toBe(0);
  return ownerTag().replace(`-${process.pid}-`, `-${gone.pid}-`);
}

/** Every folder under `dir`, as paths relative to it. */
function folders(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const sub = rel ? `${rel}/${e.name}` : e.name;
      return [sub, ...folders(dir, sub)];
    });
}

describe('vacuum', () => {
  it("reclaims a dead writer's temporary data file as a leftover, not counted among the table files", async () => {
    const dir = await lessonTable(root, 'temp-data-file');
    await update(await DeltaTable.open(dir), { predicate: 'VendorID = 6', set: { tip_amount: 'tip_amount + 1' } });
    const name = `part-00000-${randomUUID()}-c000.snappy.parquet`;
    const dead = `${name}#${deadOwner()}`;
    const live = `${name}#${ownerTag()}`;
    for (const f of [dead, live]) {
      writeFileSync(join(dir, f), 'PAR1 half a file');
      age(join(dir, f), 2 * HOURS);
    }
    const t = await DeltaTable.open(dir);

    const hourOld = await vacuum(t, { retentionHours: 1, enforceRetentionDuration: false });
    expect(hourOld.files).toEqual([]);
    expect(hourOld.leftovers).toEqual([dead]);

    const dry = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false });
    expect(dry.files).toHaveLength(2);
    expect(dry.files.every((f) => f.endsWith('.parquet'))).toBe(true);
    const tableBytes = dry.files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    const done = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(done.files).toEqual(dry.files);
    expect(done.bytes).toBe(tableBytes);
    expect(done.leftovers).toEqual([dead]);
    expect(done.leftoverBytes).toBe('PAR1 half a file'.length);
    const log = validatedLog(dir);
    expect(log.slice(-2).map((c) => commitInfoOf(c).operation)).toEqual(['VACUUM START', 'VACUUM END']);
    expect(commitInfoOf(log.at(-2)).operationMetrics).toEqual({ numFilesToDelete: 2, sizeOfDataToDelete: tableBytes });
    expect(existsSync(join(dir, dead))).toBe(false);
    // A live writer's is never taken, whatever its age.
    expect(existsSync(join(dir, live))).toBe(true);
    expect(await (await DeltaTable.open(dir)).count()).toBe(JAN_ROWS);
  });

  it('removes the folders it empties, an empty _staging/ too, never the root or _delta_log', async () => {
    const dir = join(root, 'mapped', 'table');
    mkdirSync(dir, { recursive: true });
    cpSync(fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'), dir, { recursive: true });
    await update(await DeltaTable.open(dir), { predicate: 'IntegerType = 1', set: { StringType: "'one'" } });
    // The engine wrote the rewritten file under a random two-hex-digit folder.
    const prefixes = [...new Set((await DeltaTable.open(dir)).activeFiles().map((f) => dirname(f.path)))].filter((d) =>
      /^[0-9a-f]{2}$/.test(d),
    );
    expect(prefixes.length).toBeGreaterThan(0);
    await deleteRows(await DeltaTable.open(dir));
    mkdirSync(join(dir, '_staging'), { recursive: true });
    // A dead writer's data file under its temporary name, in one of those folders.
    const temp = `${prefixes[0]}/part-00000-${randomUUID()}-c000.snappy.parquet#${deadOwner()}`;
    writeFileSync(join(dir, temp), 'PAR1');
    const t = await DeltaTable.open(dir);
    expect(t.activeFiles()).toEqual([]);

    const dry = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false });
    for (const p of prefixes) expect(existsSync(join(dir, p))).toBe(true);
    const done = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(done.files).toEqual(dry.files);
    expect(done.leftovers).toEqual([temp]);
    expect(done.folders).toEqual(expect.arrayContaining([...prefixes, '_staging']));
    for (const p of prefixes) expect(existsSync(join(dir, p))).toBe(false);
    expect(existsSync(join(dir, '_staging'))).toBe(false);
    expect(existsSync(join(dir, '_delta_log'))).toBe(true);
    // No folder is left empty anywhere in the table.
    for (const f of folders(dir)) expect(readdirSync(join(dir, f)).length, f).toBeGreaterThan(0);
    expect(await (await DeltaTable.open(dir)).count()).toBe(0);

    // With nothing left to delete, the root and the log stay even so.
    await vacuum(await DeltaTable.open(dir), { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(readdirSync(dir)).toContain('_delta_log');
  });

  it('removes the folders writers killed before their files landed left empty, a dead staging folder too, not a live one', async () => {
    const dir = await lessonTable(root, 'empty-folders');
    const t = await DeltaTable.open(dir);
    // A random-prefix folder made, its file never moved in; a partition folder and its sub-folder likewise.
    const empty = ['3f', 'VendorID=9/sub'];
    // Hidden folders are not the table's, empty or not.
    const hidden = ['.cache', '_other/empty'];
    for (const f of [...empty, ...hidden]) mkdirSync(join(dir, f), { recursive: true });
    // This process is alive: its staging folder, empty until DuckDB writes, is not vacuum's; a dead one's is.
    const live = join(dir, '_staging', ownerTag());
    const dead = `_staging/${deadOwner()}`;
    const deadEmpty = `_staging/${deadOwner()}`;
    // A dead writer's staging folder holding only empty folders (as DuckDB makes them), and an empty one.
    for (const f of [live, join(dir, dead, 'a', 'b'), join(dir, deadEmpty)]) mkdirSync(f, { recursive: true });

    const dry = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false });
    expect(dry.folders).toEqual([]);
    expect(existsSync(join(dir, '3f'))).toBe(true);
    const done = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(done.files).toEqual([]);
    expect(done.leftovers).toEqual([]);
    expect(done.folders).toEqual(
      ['3f', 'VendorID=9', 'VendorID=9/sub', dead, `${dead}/a`, `${dead}/a/b`, deadEmpty].sort(),
    );
    expect(
      folders(dir)
        .filter((f) => readdirSync(join(dir, f)).length === 0)
        .sort(),
    ).toEqual(['.cache', '_other/empty', `_staging/${live.split('/').pop()}`]);
    expect(existsSync(join(dir, '_delta_log'))).toBe(true);
    expect(await (await DeltaTable.open(dir)).count()).toBe(JAN_ROWS);
  });
});
