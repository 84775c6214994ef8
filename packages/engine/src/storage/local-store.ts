import { randomUUID } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  checkKey,
  type ListedObject,
  type ListOptions,
  NotFoundError,
  type ObjectMeta,
  type ObjectStore,
} from './object-store';

const isCode = (e: unknown, code: string) => (e as NodeJS.ErrnoException)?.code === code;

/**
 * A table on the local file system. A log entry is claimed the way object_store's LocalFileSystem
 * does it for delta-rs: write a staging file, then link() it to the target name. link() fails with
 * EEXIST when the version is taken, so an existing entry is never overwritten, even by a writer
 * that crashes half way (the staging file is the only thing it can leave behind).
 */
export class LocalObjectStore implements ObjectStore {
  constructor(readonly root: string) {}

  get location(): string {
    return this.root;
  }

  private path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return await readFile(this.path(key));
    } catch (e) {
      if (isCode(e, 'ENOENT')) throw new NotFoundError(this.root, key);
      throw e;
    }
  }

  async head(key: string): Promise<ObjectMeta | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, lastModified: Math.floor(s.mtimeMs) } : null;
    } catch (e) {
      if (isCode(e, 'ENOENT')) return null;
      throw e;
    }
  }

  async putIfAbsent(key: string, body: Uint8Array): Promise<boolean> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const staging = `${target}#${randomUUID()}`;
    const fh = await open(staging, fsc.O_CREAT | fsc.O_EXCL | fsc.O_WRONLY);
    try {
      await fh.writeFile(body);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await link(staging, target);
      return true;
    } catch (e) {
      if (isCode(e, 'EEXIST')) return false;
      throw e;
    } finally {
      await unlink(staging).catch(() => {});
    }
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // Write aside and rename so a reader never sees half a file (e.g. _last_checkpoint).
    const tmp = `${target}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, target);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(localPath, target);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    const out: ListedObject[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR')) return;
        throw e;
      }
      for (const ent of entries) {
        const key = keyPrefix + ent.name;
        if (ent.isDirectory()) {
          if (options.recursive) await walk(join(dir, ent.name), `${key}/`);
        } else if (ent.isFile() && (options.startAfter === undefined || key > options.startAfter)) {
          out.push({ key });
        }
      }
    };
    const folder = prefix.replace(/\/$/, '');
    await walk(folder === '' ? this.root : this.path(folder), folder === '' ? '' : `${folder}/`);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async localPath(key: string): Promise<string> {
    return this.path(key);
  }

  async copyIn(source: ObjectStore, key: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    if (source instanceof LocalObjectStore) await link(source.path(key), target);
    else await copyFile(await source.localPath(key), target);
  }

  async stagingDir(): Promise<string> {
    // Inside the table root so putFile() is a same-file-system rename; vacuum never looks here.
    const dir = join(this.root, '_staging', randomUUID());
    await mkdir(dir, { recursive: true });
    return dir;
  }
}
