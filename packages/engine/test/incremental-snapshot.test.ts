/**
 * A latest load in a process that loaded the table before reads only the commits after the state it remembers
 * (ops/delta/log/snapshot.ts). Held here to what a full load in a fresh process sees (helpers/load-worker.ts), after
 * this process's own commits, another writer's, a checkpoint, and a table replaced at the same place.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DeltaTable, field, LocalObjectStore, type StructType, writeCheckpoint, writeDeltaTable } from '../src/index';
import { tempDir } from './helpers/tmp';

const LOAD_WORKER = fileURLToPath(new URL('./helpers/load-worker.ts', import.meta.url));
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long')] };
const root = tempDir('incremental');
const rows = (...ids: number[]) => ({ kind: 'rows' as const, schema: SCHEMA, rows: ids.map((id) => ({ id })) });

/** What a full load in a fresh process sees: version, the checkpoint it started from, the active files. */
function freshLoad(dir: string): { version: number; checkpointVersion: number | null; files: string[] } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', LOAD_WORKER, dir, '-'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const { version, checkpointVersion, files } = JSON.parse(r.stdout);
  return { version, checkpointVersion, files };
}

const seen = (t: DeltaTable) => ({
  version: t.version,
  checkpointVersion: t.state.checkpointVersion,
  files: t
    .activeFiles()
    .map((f) => f.path)
    .sort(),
});

describe('an incremental open', () => {
  it('sees what a full load sees after its own commits and another writer’s', async () => {
    const dir = join(root, 'same');
    await writeDeltaTable(dir, rows(1));
    await DeltaTable.open(dir);
    for (const id of [2, 3]) await writeDeltaTable(dir, rows(id), { mode: 'append' });
    // Another writer: a store of its own (the remembered state is this process's, by location).
    const other = new LocalObjectStore(`${dir}/`);
    await writeDeltaTable(other, rows(4), { mode: 'append' });
    await writeDeltaTable(dir, rows(5), { mode: 'overwrite' });
    await writeDeltaTable(other, rows(6), { mode: 'append' });
    const table = await DeltaTable.open(dir);
    expect(seen(table)).toEqual(freshLoad(dir));
    expect(table.version).toBe(5);
    expect((await table.rows()).map((r) => Number(r.id)).sort()).toEqual([5, 6]);
  });

  it('gives each caller its own state: changing one changes no later load', async () => {
    const dir = join(root, 'own');
    await writeDeltaTable(dir, rows(1, 2));
    const first = await DeltaTable.open(dir);
    first.state.files.clear();
    first.appTransactions().set('x', { appId: 'x', version: 1 });
    const again = await DeltaTable.open(dir);
    expect(again.activeFiles()).toHaveLength(1);
    expect(again.appTransactions().size).toBe(0);
    await writeDeltaTable(first, rows(3), { mode: 'append' });
    expect(seen(await DeltaTable.open(dir))).toEqual(freshLoad(dir));
  });

  it('reads a new checkpoint from the checkpoint, and a table replaced at the same place in full', async () => {
    const dir = join(root, 'replaced');
    await writeDeltaTable(dir, rows(1));
    await writeDeltaTable(dir, rows(2), { mode: 'append' });
    const table = await DeltaTable.open(dir);
    expect(table.state.checkpointVersion).toBeNull();
    await writeCheckpoint(table.store, table.state);
    expect((await DeltaTable.open(dir)).state.checkpointVersion).toBe(1);
    // Same place, same number of versions, other files.
    rmSync(dir, { recursive: true });
    await writeDeltaTable(dir, rows(7));
    await writeDeltaTable(dir, rows(8), { mode: 'append' });
    const replaced = await DeltaTable.open(dir);
    expect(seen(replaced)).toEqual(freshLoad(dir));
    expect((await replaced.rows()).map((r) => Number(r.id)).sort()).toEqual([7, 8]);
  });
});
