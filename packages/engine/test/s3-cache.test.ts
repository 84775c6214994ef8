/**
 * The S3 store keeps downloaded objects in a folder of the temp folder whose name anyone can guess.
 * Another local user who made that folder first could plant files there and have them read as the
 * table's data: the store uses it only when it is this user's own, private folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStore, StorageError } from '../src/index';
import { type S3Double, startS3Double } from './helpers/s3-double';

let double: S3Double;
let temp: string;
const previousTmp = process.env.TMPDIR;
const cacheDir = () => join(temp, `racelab-s3-cache-${process.getuid?.() ?? 'user'}`);

beforeAll(async () => {
  double = await startS3Double();
  temp = mkdtempSync(join(tmpdir(), 'racelab-cache-test-'));
  process.env.TMPDIR = temp; // os.tmpdir() reads it at each call
});
afterAll(async () => {
  process.env.TMPDIR = previousTmp;
  if (previousTmp === undefined) delete process.env.TMPDIR;
  rmSync(temp, { recursive: true, force: true });
  await double.stop();
});

function store(): S3ObjectStore {
  const client = new S3Client({ ...double.clientConfig(), requestChecksumCalculation: 'WHEN_REQUIRED' });
  return new S3ObjectStore(`s3://${double.bucket}/cache`, { client, endpoint: double.endpoint });
}

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
