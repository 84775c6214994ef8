/**
 * A one-row append to an S3 table takes the small-write path (ops/parquet/small-rows.ts): its file is encoded in
 * TypeScript and sent from memory (putBytes), and kept as the cached download of its key, as putFile keeps what
 * DuckDB wrote, so a reader on this host does not fetch it again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DeltaTable,
  field,
  readCommit,
  type StructType,
  storeFor,
  withConnection,
  writeDeltaTable,
} from '../src/index';
import { s3Root } from './env';

const root = s3Root('engine-small-append');
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('name', 'string')] };

describe('a one-row append on S3', () => {
  it('writes its file without DuckDB, keeps it cached, and reads back', async () => {
    const location = `${root}/t`;
    await writeDeltaTable(location, { kind: 'rows', schema: SCHEMA, rows: [{ id: 1, name: 'a' }] });
    await writeDeltaTable(
      location,
      { kind: 'rows', schema: SCHEMA, rows: [{ id: 2, name: null }] },
      { mode: 'append' },
    );
    const t = await DeltaTable.open(location);
    expect(t.version).toBe(1);
    const [add] = (await readCommit(t.store, 1)).flatMap((a) => ('add' in a ? [a.add] : []));
    expect(JSON.parse(add?.stats ?? '')).toEqual({
      numRecords: 1,
      minValues: { id: 2 },
      maxValues: { id: 2 },
      nullCount: { id: 0, name: 1 },
    });
    const key = add?.path as string;
    const bytes = await t.store.get(key);
    // Gone from S3 before anything read it, still cached here: the cache holds what the append sent.
    await t.store.delete(key);
    const cached = await storeFor(location).localPath(key);
    expect(Buffer.compare(readFileSync(cached), Buffer.from(bytes))).toBe(0);
    const createdBy = await withConnection(async (c) =>
      String((await c.runAndReadAll(`SELECT created_by FROM parquet_file_metadata('${cached}')`)).getRows()[0]?.[0]),
    );
    expect(createdBy).toBe('racelab small-rows writer');
    // Back on S3, for the scan, which checks that every file the log names is there.
    await t.store.put(key, bytes);
    expect((await t.rows()).map((r) => [Number(r.id), r.name]).sort()).toEqual([
      [1, 'a'],
      [2, null],
    ]);
  });
});
