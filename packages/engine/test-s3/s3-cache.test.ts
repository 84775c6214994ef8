/**
 * The S3 store keeps downloaded objects in a folder of the temp folder whose name anyone can guess.
 * Another local user who made that folder first could plant files there and have them read as the
 * table's data: the store uses it only when it is this user's own, private folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError, storeFor } from '../src/index';
import { s3Root } from './env';

const root = s3Root('engine-cache');
let temp: string;
const previousTmp = process.env.TMPDIR;
const cacheDir = () => join(temp, `racelab-s3-cache-${process.getuid?.() ?? 'user'}`);

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'racelab-cache-test-'));
  process.env.TMPDIR = temp; // os.tmpdir() reads it at each call
});
afterAll(() => {
  process.env.TMPDIR = previousTmp;
  if (previousTmp === undefined) delete process.env.TMPDIR;
  rmSync(temp, { recursive: true, force: true });
});

const store = () => storeFor(root);

describe('the S3 download cache', () => {
  it('refuses a cache folder that others can write, and one that is a symlink', async () => {
    const s = store();
    await s.put('part-0.parquet', new TextEncoder().encode('the real bytes'));
    mkdirSync(cacheDir(), { mode: 0o777 });
    chmodSync(cacheDir(), 0o777); // as another user's planted folder would be
    await expect(s.localPath('part-0.parquet')).rejects.toThrow(StorageError);
    await expect(s.localPath('part-0.parquet')).rejects.toThrow(/not a private folder of this user/);
    rmSync(cacheDir(), { recursive: true });
    const elsewhere = mkdtempSync(join(temp, 'elsewhere-'));
    symlinkSync(elsewhere, cacheDir());
    await expect(s.localPath('part-0.parquet')).rejects.toThrow(/not a private folder of this user/);
    rmSync(cacheDir());
  });

  it('makes its own folder private (0700) and reads the object through it', async () => {
    const s = store();
    await s.put('part-1.parquet', new TextEncoder().encode('more real bytes'));
    const path = await s.localPath('part-1.parquet');
    expect(path.startsWith(`${cacheDir()}/`)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('more real bytes');
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
  });
});
