/**
 * The version claim: put-if-absent on the local file system (staging file + link()), raced by real
 * OS processes, and the commit loop that moves a loser to the next version.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../src/index';
import { expectEveryAppendOnce, expectNoRetryFailure } from './helpers/commit-races';
import { raceProcesses } from './helpers/processes';
import { tempDir } from './helpers/tmp';

const root = tempDir('storage');
const helper = (name: string) => fileURLToPath(new URL(`./helpers/${name}`, import.meta.url));

describe('LocalObjectStore', () => {
  it('never overwrites: a second put-if-absent returns false and leaves the first bytes', async () => {
    const store = new LocalObjectStore(join(root, 'once'));
    expect(await store.putIfAbsent('_delta_log/00000000000000000000.json', new TextEncoder().encode('first'))).toBe(
      true,
    );
    expect(await store.putIfAbsent('_delta_log/00000000000000000000.json', new TextEncoder().encode('second'))).toBe(
      false,
    );
    expect(new TextDecoder().decode(await store.get('_delta_log/00000000000000000000.json'))).toBe('first');
    // No staging file is left behind by either call.
    expect(readdirSync(join(root, 'once', '_delta_log'))).toEqual(['00000000000000000000.json']);
  });

  it("replacing a file removes its Hadoop checksum, which Delta Spark would find stale; others' stay", async () => {
    const dir = join(root, 'hadoop-crc');
    const log = join(dir, '_delta_log');
    mkdirSync(log, { recursive: true });
    // What Delta Spark leaves beside its log files on a local disk.
    for (const name of ['_last_checkpoint', '00000000000000000000.json']) {
      writeFileSync(join(log, name), 'spark');
      writeFileSync(join(log, `.${name}.crc`), 'crc of spark');
    }
    const store = new LocalObjectStore(dir);
    await store.put('_delta_log/_last_checkpoint', new TextEncoder().encode('{"version":3}'));
    expect(readFileSync(join(log, '_last_checkpoint'), 'utf8')).toBe('{"version":3}');
    expect(readdirSync(log).sort()).toEqual([
      '.00000000000000000000.json.crc',
      '00000000000000000000.json',
      '_last_checkpoint',
    ]);
  });

  it('refuses keys that would leave the table', async () => {
    const store = new LocalObjectStore(join(root, 'confined'));
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a/./b', '']) {
      await expect(store.put(key, new Uint8Array())).rejects.toThrow(/refusing object key/);
    }
  });

  it('lets exactly one of 16 processes claim a version', async () => {
    const dir = join(root, 'race16');
    const results = await raceProcesses(
      helper('put-worker.ts'),
      (i) => [dir, '_delta_log/00000000000000000001.json', `writer-${i}`],
      16,
    );
    expect(results.every((r) => r.code === 0)).toBe(true);
    const outcomes = results.map((r) => r.out[0]);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'lost')).toHaveLength(15);
    const winner = outcomes.indexOf('won');
    expect(readFileSync(join(dir, '_delta_log/00000000000000000001.json'), 'utf8')).toBe(`writer-${winner}`);
  });
});

describe('the commit loop', () => {
  it('moves each of 8 racing appenders to a free version: contiguous versions, every append once', () =>
    expectEveryAppendOnce(join(root, 'append8'), 8));

  it('fails at once with "Failed to commit transaction: 0" when retries are off and the table moved', () =>
    expectNoRetryFailure(join(root, 'noretry')));
});
