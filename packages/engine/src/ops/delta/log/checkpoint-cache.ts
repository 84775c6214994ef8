/**
 * A cache of parsed checkpoints on the local disk, so that a fresh process opening a big table skips DuckDB and
 * the Parquet decoding: one file per checkpoint, holding its actions as JSON (in V8, `JSON.parse` of these actions
 * costs about what `v8.deserialize` does, and JSON stays readable; bench/RESULTS.md).
 *
 * It can never serve a wrong state: an entry is named by a hash of the table's location, the checkpoint's version,
 * every checkpoint file's key, size and etag (inode, size and nanosecond times locally; the ETag on S3) and the
 * format below, and it repeats that key and carries a SHA-1 of its body, both checked before it is used; sidecars
 * are checked the same way. An entry that is missing, unreadable, corrupt or for other bytes is ignored and the
 * checkpoint is read as before. Entries are written atomically (a private temporary file, then rename), 0600 in a
 * 0700 folder (they hold table metadata), never inside a table, and one per table.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Action } from '../../../kernel/delta/protocol/actions';
import type { ObjectMeta } from '../../../storage/object-store';
import { LOG_DIR } from './listing';

/** Bumped whenever what an entry holds, or how actions are parsed, changes: old entries are then never read. */
export const CACHE_FORMAT = 'racelab-checkpoint-cache/1';
const MAGIC = `${CACHE_FORMAT}\n`;
export const CHECKPOINT_CACHE_ENV = 'RACELAB_CACHE_DIR';

/**
 * The cache folder to use when a caller names none: `RACELAB_CACHE_DIR`, read at each load so a process can turn
 * it on after importing the engine. Unset or empty: no disk cache (the engine as a library writes nothing
 * outside its tables unless asked).
 */
export function defaultCheckpointCacheDir(): string | null {
  const dir = process.env[CHECKPOINT_CACHE_ENV];
  return dir ? dir : null;
}

/** A file's identity as the cache keys it; null when the store gives no etag (such files are never cached on disk). */
export const fileIdentity = (m: ObjectMeta): string | null =>
  m.etag === undefined ? null : `${m.key}:${m.size}:${m.etag}`;

/** A sidecar file a checkpoint entry depends on, with the identity it had when the entry was written. */
export interface SidecarIdentity {
  key: string;
  identity: string;
}

/** A checkpoint's parsed actions and the sidecars they depend on. */
export interface ParsedCheckpoint {
  sidecars: SidecarIdentity[];
  actions: Action[];
}

interface Entry extends ParsedCheckpoint {
  key: string;
}

/** Folders already checked to lie outside every table (a walk up the tree for `_delta_log`). */
const outsideTables = new Map<string, boolean>();

/**
 * Whether `dir` may hold the cache: neither it nor any folder above it is a table (holds `_delta_log`), so the
 * cache can never add files to a table or show up in one's listing.
 */
function usableDir(dir: string): boolean {
  let ok = outsideTables.get(dir);
  if (ok === undefined) {
    ok = true;
    for (let d = dir; ; d = dirname(d)) {
      if (existsSync(join(d, LOG_DIR))) ok = false;
      if (!ok || dirname(d) === d) break;
    }
    outsideTables.set(dir, ok);
  }
  return ok;
}

/** The entry's key: everything that decides which actions it holds. */
export function entryKey(location: string, version: number, identities: readonly string[]): string {
  return JSON.stringify([CACHE_FORMAT, location, version, identities]);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `<hash of the location>.<hash of the key>.json`: the first half finds a table's other entries. */
function entryPath(cacheDir: string, location: string, key: string): string | null {
  const dir = resolve(cacheDir);
  if (!usableDir(dir)) return null;
  return join(dir, 'checkpoints', `${sha256(location)}.${sha256(key)}.json`);
}

const sha1 = (b: Uint8Array) => createHash('sha1').update(b).digest('hex');

/**
 * The entry under `key`, or null for any reason not to use it: none, unreadable, corrupt or another key. Its
 * sidecars are the caller's to check.
 */
export async function readCachedCheckpoint(
  cacheDir: string,
  location: string,
  key: string,
): Promise<ParsedCheckpoint | null> {
  const path = entryPath(cacheDir, location, key);
  if (!path) return null;
  try {
    const bytes = await readFile(path);
    // The layout: MAGIC, a SHA-1 of the body in hex, a newline, the body (JSON).
    const head = MAGIC.length;
    const body = bytes.subarray(head + 41);
    if (bytes.toString('latin1', 0, head) !== MAGIC || bytes[head + 40] !== 0x0a) return null;
    if (bytes.toString('latin1', head, head + 40) !== sha1(body)) return null;
    const entry = JSON.parse(body.toString('utf8')) as Entry;
    if (entry.key !== key || !Array.isArray(entry.actions) || !Array.isArray(entry.sidecars)) return null;
    return { sidecars: entry.sidecars, actions: entry.actions };
  } catch {
    // Missing, unreadable or not JSON: the checkpoint itself is read instead.
    return null;
  }
}

/**
 * Stores a parsed checkpoint under `key`, and removes the table's other entries: one entry per table (its newest
 * checkpoint, as a fresh process opens it) keeps the cache as small as the tables it serves. Best effort: a cache
 * that cannot be written only costs the next process time.
 */
export async function writeCachedCheckpoint(
  cacheDir: string,
  location: string,
  key: string,
  { sidecars, actions }: ParsedCheckpoint,
): Promise<void> {
  const path = entryPath(cacheDir, location, key);
  if (!path) return;
  const dir = dirname(path);
  const tmp = join(dir, `.${randomUUID()}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    const body = Buffer.from(JSON.stringify({ key, sidecars, actions } satisfies Entry));
    await writeFile(tmp, Buffer.concat([Buffer.from(`${MAGIC}${sha1(body)}\n`, 'latin1'), body]), {
      mode: 0o600,
      flag: 'wx',
    });
    await rename(tmp, path);
    const table = `${basename(path).split('.')[0]}.`;
    for (const name of await readdir(dir)) {
      if (name.startsWith(table) && name !== basename(path)) await rm(join(dir, name), { force: true });
    }
  } catch {
    await rm(tmp, { force: true }).catch(() => {});
  }
}
