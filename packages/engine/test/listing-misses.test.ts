/**
 * A folder listing taken while writers claim versions can miss an entry and still show a newer one (readdir reads
 * a large folder in several calls, in hash order on ext4): a 32-writer sweep saw "commit 1041 is missing" beside
 * 1042. A load looks such commits up before it calls the log gapped. The miss itself is a fault the real file
 * system makes only by chance, so a store that drops one commit from its listings stands in for it; every other
 * test of the engine loads through real listings. Loads here name their version: a latest load in this process would
 * start from the state its own writes left, without listing.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DeltaTable,
  field,
  LocalObjectStore,
  type ObjectStore,
  type StructType,
  VersionNotFoundError,
  writeCheckpoint,
  writeDeltaTable,
} from '../src/index';
import { tempDir } from './helpers/tmp';

const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long')] };
const root = tempDir('listing-misses');
const rows = (...ids: number[]) => ({ kind: 'rows' as const, schema: SCHEMA, rows: ids.map((id) => ({ id })) });

/** The local store, but its listings leave out `dropped` (the entry stays there for every other call). */
function listingWithout(dir: string, dropped: string): ObjectStore {
  const store = new LocalObjectStore(`${dir}/`);
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'list') {
        return async (prefix: string, options?: Parameters<ObjectStore['list']>[1]) =>
          (await target.list(prefix, options)).filter((o) => !o.key.endsWith(dropped));
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function tableOf(name: string, appends: number): Promise<string> {
  const dir = join(root, name);
  await writeDeltaTable(dir, rows(0));
  for (let id = 1; id <= appends; id++) await writeDeltaTable(dir, rows(id), { mode: 'append' });
  return dir;
}

describe('a load whose listing missed a commit', () => {
  it('looks the commit up and loads every version', async () => {
    const dir = await tableOf('missed', 4);
    const t = await DeltaTable.open(listingWithout(dir, '00000000000000000002.json'), { version: 4 });
    expect(t.version).toBe(4);
    expect((await t.rows()).map((r) => Number(r.id)).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('after a checkpoint, and when the missed one is the newest', async () => {
    const dir = await tableOf('after-checkpoint', 3);
    await writeCheckpoint(new LocalObjectStore(`${dir}/`), (await DeltaTable.open(dir)).state);
    for (const id of [4, 5]) await writeDeltaTable(dir, rows(id), { mode: 'append' });
    const t = await DeltaTable.open(listingWithout(dir, '00000000000000000004.json'), { version: 5 });
    expect([t.version, t.state.checkpointVersion]).toEqual([5, 3]);
    expect((await t.rows()).map((r) => Number(r.id)).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const newest = await DeltaTable.open(listingWithout(dir, '00000000000000000005.json'), { version: 5 });
    expect(newest.version).toBe(5);
  });

  it('still reports a commit that is really gone', async () => {
    const dir = await tableOf('gone', 4);
    rmSync(join(dir, '_delta_log', '00000000000000000002.json'));
    await expect(DeltaTable.open(dir, { version: 3 })).rejects.toThrow(VersionNotFoundError);
    await expect(DeltaTable.open(dir, { version: 3 })).rejects.toThrow('commit 00000000000000000002.json is missing');
  });
});
