/**
 * Iceberg's files (metadata JSON, manifest lists, manifests, data files) read and written through the engine's
 * ObjectStore, as Delta's are, so an Iceberg table lives wherever a store can reach. An Iceberg file is named by
 * a location anywhere (a URI or a path), not by a key under one table root, so each is reached through the store
 * of its folder: the catalog's resolver maps the location to a local path (paths.ts), whose folder is a local
 * store and whose name is the key. The SQLite catalog itself stays a local file.
 */
import { basename, dirname } from 'node:path';
import { LocalObjectStore } from '../../storage/local-store';
import { NotFoundError, type ObjectStore } from '../../storage/object-store';
import type { PathResolver } from './paths';

export interface IcebergFile {
  store: ObjectStore;
  key: string;
  /** The local path the location resolved to: what messages and written metadata name. */
  path: string;
}

/** The store and key of the file at `location`. */
export function fileAt(location: string, resolvePath: PathResolver): IcebergFile {
  const path = resolvePath(location);
  return { store: new LocalObjectStore(dirname(path)), key: basename(path), path };
}

/** The bytes of `file`; a missing file is `missing`'s error, any other failure `unreadable`'s. */
export async function readBytes(
  file: IcebergFile,
  missing: () => Error,
  unreadable: (e: Error) => Error,
): Promise<Uint8Array> {
  try {
    return await file.store.get(file.key);
  } catch (e) {
    throw e instanceof NotFoundError ? missing() : unreadable(e as Error);
  }
}

/** Creates `file` with `bytes`, durably; it must not exist yet (each name is new: a uuid or a version). */
export async function writeNewFile(file: IcebergFile, bytes: Uint8Array): Promise<void> {
  if (!(await file.store.putIfAbsent(file.key, bytes))) {
    throw new Error(`EEXIST: file already exists, ${file.path}`);
  }
}
