/**
 * The shared S3 client keeps connections open on radosgw: a commit's LIST and put-if-absent, and
 * every request after them, go over the connection the first request opened. Counted from Node's
 * own `net.client.socket` channel, which fires for every TCP connection this process opens.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCommitInfo, commit, field, newTableMetadata, protocolForSchema, storeFor } from '../src/index';
import { s3Root } from './env';

const root = s3Root('keep-alive');
const SCHEMA = { type: 'struct' as const, fields: [field('id', 'long')] };

let opened: Socket[] = [];
const onSocket = (message: unknown) => {
  opened.push((message as { socket: Socket }).socket);
};
beforeEach(() => subscribe('net.client.socket', onSocket));
afterEach(() => unsubscribe('net.client.socket', onSocket));

/** TCP connections this process opens while `f` runs: only S3 requests run in it. */
async function connectionsDuring(f: () => Promise<unknown>): Promise<number> {
  opened = [];
  await f();
  return opened.length;
}

describe('keep-alive to radosgw', () => {
  it('after a first request, twenty-one commits one after another open no new connection', async () => {
    const store = storeFor(`${root}/seq`);
    // The first request opens the shared client's connection (or finds one an earlier test left open).
    await store.list('_delta_log/');
    const n = await connectionsDuring(async () => {
      await commit({
        store,
        readVersion: -1,
        actions: [
          { commitInfo: buildCommitInfo({ operation: 'CREATE TABLE', operationParameters: {} }) },
          { protocol: protocolForSchema(SCHEMA) },
          { metaData: newTableMetadata(SCHEMA) },
        ],
      });
      for (let v = 0; v < 20; v++) {
        await commit({
          store,
          readVersion: v,
          actions: [
            { commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: { mode: 'Append' } }) },
            { add: { path: `f${v}.parquet`, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true } },
          ],
        });
      }
    });
    expect(n).toBe(0);
  });

  it('eight reads at once open eight connections, and the next eight reuse them', async () => {
    const store = storeFor(`${root}/par`);
    await store.put('x.json', new TextEncoder().encode('{}'));
    const reads = () => Promise.all(Array.from({ length: 8 }, () => store.get('x.json')));
    const first = await connectionsDuring(reads);
    expect(first).toBeLessThanOrEqual(8);
    expect(await connectionsDuring(reads)).toBe(0);
  });
});
