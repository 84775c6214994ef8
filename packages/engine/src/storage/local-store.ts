import {
  closeSync,
  type Dirent,
  constants as fsc,
  linkSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { copyFile, link, mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fsyncFd, mkdirDurable, syncFileAndName, syncPath } from './durable';
import {
  checkKey,
  type ListedObject,
  type ListOptions,
  NotFoundError,
  type ObjectMeta,
  type ObjectStore,
  PathRefusedError,
  type StagedPut,
  StorageError,
} from './object-store';
import { leftoverKind, leftoverUnit, ownerDead, ownerTag, STAGING_DIR, sweepDeadStaging } from './staging';

const isCode = (e: unknown, code: string) => (e as NodeJS.ErrnoException)?.code === code;

/** The relative key only: an absolute path would tell a client where the tables live. */
const symlinkRefused = (key: string) =>
  new PathRefusedError(
    `refusing '${key}': it is or passes through a symlink inside the table, and a table is read only through its own files`,
  );

/**
 * A table on the local file system. A log entry is claimed the way object_store's LocalFileSystem
 * does it for delta-rs: write a staging file, then link() it to the target name. link() fails with
 * EEXIST when the version is taken, so an existing entry is never overwritten, even by a writer
 * that crashes half way (the staging file is the only thing it can leave behind).
 *
 * Two rules delta-rs's local store does not have. Nothing below the root is followed through a
 * symlink (a log entry or data file linking outside would otherwise be read, audited and shown), so
 * every key is checked before use; symlinks in the root's own path are the location resolver's
 * business. And every file a commit names, and the log entry itself, is fsynced with its folder
 * before the commit is acknowledged (docs/durability.md).
 *
 * The calls a commit makes many of (realpath, stat, reading a log entry, link, rename) are synchronous: each
 * takes microseconds on a local disk, while a round trip through libuv's thread pool costs ~50 µs of CPU, about
 * half of a one-row append's CPU before (bench/RESULTS.md). Only fsyncs, which
 * wait for the disk, and bulk copies go through the pool.
 */
export class LocalObjectStore implements ObjectStore {
  private readonly base: string;
  /** The root's real path, once it exists. */
  private realRoot: string | undefined;
  /** A stat per version beats reading a `_delta_log` of thousands of entries (ops/delta/log/latest.ts). */
  readonly latestBy = 'probe';

  constructor(readonly root: string) {
    this.base = resolve(root);
  }

  get location(): string {
    return this.root;
  }

  private path(key: string): string {
    return join(this.base, ...checkKey(key).split('/'));
  }

  /**
   * `key`'s path, refused when any part of it below the root is a symlink. The real path of the deepest
   * part that exists must be where that part lies under the root's real path: one realpath() call, whatever
   * the depth, and it covers the folders as well as the file. What does not exist yet cannot be a symlink.
   * (A symlink swapped in after this check and before the path is used is not caught: DuckDB opens files by
   * path, so no check made beforehand can close that window; it takes someone with write access to the table's
   * folder racing the reader.)
   */
  private confined(key: string): string {
    const path = this.path(key);
    for (let probe = path; probe !== this.base; probe = dirname(probe)) {
      let real: string;
      try {
        real = realpathSync.native(probe);
      } catch (e) {
        if (isCode(e, 'ELOOP')) throw symlinkRefused(key);
        if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR')) continue;
        throw e;
      }
      this.realRoot ??= realpathSync.native(this.base);
      if (real !== join(this.realRoot, relative(this.base, probe))) throw symlinkRefused(key);
      return path;
    }
    return path;
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return readFileSync(this.confined(key));
    } catch (e) {
      if (isCode(e, 'ENOENT')) throw new NotFoundError(this.root, key);
      throw e;
    }
  }

  async head(key: string): Promise<ObjectMeta | null> {
    try {
      const s = statSync(this.confined(key), { bigint: true });
      if (!s.isFile()) return null;
      const etag = `${s.ino}-${s.size}-${s.mtimeNs}-${s.ctimeNs}`;
      return { key, size: Number(s.size), lastModified: Number(s.mtimeMs), etag };
    } catch (e) {
      if (isCode(e, 'ENOENT')) return null;
      throw e;
    }
  }

  /**
   * Writes `body` durably under a temporary name beside `key`'s file, `<name>#<owner>`: the name vacuum
   * knows as a leftover, should the writer die before the name is given.
   */
  private async writeAside(key: string, body: Uint8Array): Promise<{ target: string; temp: string }> {
    const target = this.confined(key);
    const temp = `${target}#${ownerTag()}`;
    const fd = await inFolder(dirname(target), () => openSync(temp, fsc.O_CREAT | fsc.O_EXCL | fsc.O_WRONLY));
    try {
      for (let done = 0; done < body.length; ) done += writeSync(fd, body, done);
      await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
    return { target, temp };
  }

  async putIfAbsent(key: string, body: Uint8Array): Promise<boolean> {
    const staged = await this.stagePutIfAbsent(key, body);
    try {
      return await staged.putIfAbsent(key);
    } finally {
      await staged.dispose();
    }
  }

  /**
   * The staging file is written and fsynced once; each claim links it to a name in the same folder. link() fails
   * with EEXIST when the name is taken; once one succeeds, the staging file goes and the folder is fsynced, so the
   * entry's name reaches the disk (the staging file's removal with it) before the commit is acknowledged.
   */
  async stagePutIfAbsent(nearKey: string, body: Uint8Array): Promise<StagedPut> {
    const { target, temp } = await this.writeAside(nearKey, body);
    const folder = dirname(target);
    let left = true;
    return {
      putIfAbsent: async (key: string) => {
        const path = this.confined(key);
        if (!left || dirname(path) !== folder)
          throw new StorageError(`'${key}' cannot be claimed with this staged body`);
        try {
          linkSync(temp, path);
        } catch (e) {
          if (isCode(e, 'EEXIST')) return false;
          throw e;
        }
        left = false;
        removeQuietly(temp);
        await syncPath(folder);
        return true;
      },
      dispose: async () => {
        if (left) removeQuietly(temp);
        left = false;
      },
    };
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    // Written aside and renamed, so a reader never sees half a file (e.g. _last_checkpoint).
    const { target, temp } = await this.writeAside(key, body);
    removeQuietly(hadoopChecksumOf(target));
    renameSync(temp, target);
    await syncPath(dirname(target));
  }

  async putBytes(key: string, body: Uint8Array): Promise<void> {
    // The name is new and no reader looks for it before a commit names it: put()'s durable write is all it needs.
    await this.put(key, body);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.confined(key);
    // DuckDB wrote it without an fsync; the commit that names it must not outlive its bytes. The name is new, so
    // it can be given first: the file's fsync then takes the rename along, and the folder's costs next to nothing.
    await inFolder(dirname(target), () => renameSync(localPath, target));
    await syncFileAndName(target);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    const out: ListedObject[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries: Dirent[];
      try {
        // Through the pool, unlike the calls above: a loop that only lists (waiting for a version to appear) must
        // still let the event loop run, and a listing is rare on a commit's path (a full load; latest.ts probes).
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR')) return;
        throw e;
      }
      for (const ent of entries) {
        const key = keyPrefix + ent.name;
        // Refused, not skipped: a log entry that silently vanished would make an older version look like the latest.
        if (ent.isSymbolicLink()) throw symlinkRefused(key);
        if (ent.isDirectory()) {
          if (options.recursive) await walk(join(dir, ent.name), `${key}/`);
        } else if (ent.isFile() && (options.startAfter === undefined || key > options.startAfter)) {
          out.push({ key });
        }
      }
    };
    const folder = prefix.replace(/\/$/, '');
    await walk(folder === '' ? this.base : this.confined(folder), folder === '' ? '' : `${folder}/`);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    const path = this.confined(key);
    await rm(path, { force: true });
    // A staging folder is one writer's, so once emptied it goes whole (empty sub-folders DuckDB made too); other
    // folders are vacuum's to remove (removeEmptyFolder), which writers outlast (inFolder).
    if (leftoverKind(key) === 'staging') await removeIfNoFiles(join(this.base, ...leftoverUnit(key).unit.split('/')));
  }

  async removeEmptyFolder(folder: string): Promise<boolean> {
    try {
      rmdirSync(this.confined(folder));
      return true;
    } catch (e) {
      if (['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].some((code) => isCode(e, code))) return false;
      throw e;
    }
  }

  async emptyFolders(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      if (entries.length === 0 && keyPrefix !== '') out.push(keyPrefix.slice(0, -1));
      for (const ent of entries) {
        const key = keyPrefix + ent.name;
        // Hidden folders (the log's, `_staging/`, anything `_` or `.`) are not the table's, as for vacuum's files.
        if (ent.isDirectory() && !/^[_.]/.test(ent.name)) await walk(join(dir, ent.name), `${key}/`);
      }
    };
    await walk(this.base, '');
    // A live writer's staging folder is empty until DuckDB writes in it: only a dead owner's is looked in (it
    // may hold empty folders DuckDB made, and nothing else), as the next write's sweep would take it whole.
    const staging = await readdir(this.confined(STAGING_DIR), { withFileTypes: true }).catch(() => []);
    for (const ent of staging) {
      if (ent.isDirectory() && ownerDead(ent.name)) {
        await walk(join(this.confined(STAGING_DIR), ent.name), `${STAGING_DIR}${ent.name}/`);
      }
    }
    return out.sort();
  }

  async localPath(key: string): Promise<string> {
    // DuckDB opens files by path and follows symlinks: the check is here, before it gets the path.
    return this.confined(key);
  }

  async copyIn(source: ObjectStore, key: string): Promise<void> {
    const target = this.confined(key);
    if (source instanceof LocalObjectStore) {
      const from = source.confined(key);
      await inFolder(dirname(target), () => link(from, target));
    } else {
      const from = await source.localPath(key);
      await inFolder(dirname(target), () => copyFile(from, target));
      await syncPath(target);
    }
    await syncPath(dirname(target));
  }

  async sweepStaging(): Promise<void> {
    await sweepDeadStaging(this.confined(STAGING_DIR));
  }

  async stagingDir(): Promise<string> {
    // Inside the table root so putFile() is a same-file-system rename; vacuum reclaims what dead writers leave.
    const parent = this.confined(STAGING_DIR);
    await sweepDeadStaging(parent);
    const dir = join(parent, ownerTag());
    await mkdir(dir, { recursive: true });
    return dir;
  }
}

/**
 * Makes `dir` (durably) and runs `make` in it; again when the folder went in between (ENOENT): vacuum removes the
 * folders it leaves empty, and a folder a writer has just made stays empty until the writer's file lands in it.
 */
async function inFolder<T>(dir: string, make: () => T | Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      await mkdirDurable(dir);
      return await make();
    } catch (e) {
      if (!isCode(e, 'ENOENT') || attempt === FOLDER_ATTEMPTS) throw e;
    }
  }
}

/** A folder vacuum removes at the wrong moment every time is not a race but a fault: then the error shows. */
const FOLDER_ATTEMPTS = 3;

/**
 * Hadoop's checksum of a file, `.<name>.crc` beside it: Delta Spark writes one for every file of the log through
 * Hadoop's local file system, and checks it on read. A file the engine replaces (`_last_checkpoint`) loses its
 * checksum with it: Hadoop reads a file without one, while a stale one fails the read (ChecksumException).
 */
const hadoopChecksumOf = (path: string): string => join(dirname(path), `.${basename(path)}.crc`);

/** A staging file's removal, whose failure leaves only a leftover the next write or vacuum removes. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** Removes a dead writer's staging folder once vacuum took its last file (empty folders DuckDB made hold nothing). */
async function removeIfNoFiles(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => null);
  if (entries?.every((e) => e.isDirectory())) await rm(dir, { recursive: true, force: true });
}
