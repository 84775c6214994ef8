/**
 * The storage a Delta table lives on, reduced to the operations S3 can also satisfy: put-if-absent
 * (the only way a log entry may be created), plain put (data files, checkpoints), get, head, list
 * after a key, delete. Keys are '/'-separated and relative to the table root.
 */

export interface ObjectMeta {
  key: string;
  size: number;
  lastModified: number;
  /**
   * Changes whenever the object's bytes may have: S3's ETag; locally the inode, size and modification and change
   * times in nanoseconds. What a cache of the object's parsed content is keyed by.
   */
  etag?: string;
}

/** A listed key; the size comes along where the store gives it for free (S3), not locally. */
export interface ListedObject {
  key: string;
  size?: number;
}

export interface ListOptions {
  /** Only keys that sort after this one (S3's start-after). */
  startAfter?: string;
  /** Descend into sub-folders (vacuum, orphan checks); the log listing does not. */
  recursive?: boolean;
}

export interface ObjectStore {
  /** Where the table lives, for messages: a path or an s3:// URL. */
  readonly location: string;
  /**
   * How the newest log version is cheapest to find here (ops/delta/log/latest.ts): 'probe', a lookup of each
   * version after a known one (a stat on a local disk, where listing reads the whole folder), or 'list' (the
   * default: one LIST after a key, as on S3).
   */
  readonly latestBy?: 'probe' | 'list';
  get(key: string): Promise<Uint8Array>;
  head(key: string): Promise<ObjectMeta | null>;
  /** Creates `key` only if nothing is there. Returns false, writing nothing, when it exists. */
  putIfAbsent(key: string, body: Uint8Array): Promise<boolean>;
  /**
   * Optional: `body` written once, ready for put-if-absent claims of several keys in its folder, each one
   * cheap (locally: the file is written and fsynced once, and each claim is a link()). The commit loop stages
   * its entry before it looks for the latest version, so that between looking and claiming there is only the
   * claim. `nearKey` names the staged file (a key in the folder the claims go to).
   */
  stagePutIfAbsent?(nearKey: string, body: Uint8Array): Promise<StagedPut>;
  /** Creates or replaces `key`. Never used for `_delta_log/NNN.json`. */
  put(key: string, body: Uint8Array): Promise<void>;
  /** Moves a local file that DuckDB wrote into the store under `key`. */
  putFile(key: string, localPath: string): Promise<void>;
  /** `putFile` from bytes in memory (a data file the engine encoded itself): a new key, never changed after. */
  putBytes(key: string, body: Uint8Array): Promise<void>;
  /** Keys under `prefix` (a folder ending in '/'), sorted. */
  list(prefix: string, options?: ListOptions): Promise<ListedObject[]>;
  delete(key: string): Promise<void>;
  /**
   * Optional, for stores with real folders: removes `folder` (a key prefix, no trailing '/') if it holds nothing,
   * and says whether it did. An object store has no folders to leave behind.
   */
  removeEmptyFolder?(folder: string): Promise<boolean>;
  /**
   * Optional, with `removeEmptyFolder`: the folders that hold nothing at all (no file, no folder), none hidden
   * (`_` or `.`, the log's included) but inside a dead writer's staging folder; a writer killed between making a
   * folder and moving (or writing) its file in leaves one.
   */
  emptyFolders?(): Promise<string[]>;
  /** A local path DuckDB can read `key` from (the file itself, or a cached download). */
  localPath(key: string): Promise<string>;
  /** A local folder where DuckDB may stage files before `putFile`; dead writers' staging goes first. */
  stagingDir(): Promise<string>;
  /**
   * Removes this host's dead writers' staging folders (staging.ts), as `stagingDir()` does first: for a write that
   * stages nothing, so that every write still sweeps them.
   */
  sweepStaging(): Promise<void>;
  /**
   * Copies `key` of `source` to the same key here: cheaply where both live on one storage (a hard
   * link on a local disk, a server-side copy on S3), else through its bytes. For data files,
   * which never change once written.
   */
  copyIn(source: ObjectStore, key: string): Promise<void>;
}

/** A body staged by `stagePutIfAbsent`. */
export interface StagedPut {
  /** `putIfAbsent(key, body)`: true when this claim created `key`; the staged body is then used up. */
  putIfAbsent(key: string): Promise<boolean>;
  /** Removes what is left of the staged body; always called, whatever the claims did. */
  dispose(): Promise<void>;
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(
    readonly location: string,
    readonly key: string,
  ) {
    super(`not found: ${location.replace(/\/$/, '')}/${key}`);
  }
}

export class StorageError extends Error {
  override name = 'StorageError';
}

/**
 * A path a table's log names that lies, or leads, outside the table (or the folders it may read): refused
 * before anything there is opened. The message names the path as the table knows it (a key relative to the
 * table), never where anything is on disk.
 */
export class PathRefusedError extends StorageError {
  override name = 'PathRefusedError';
}

/** Refuses keys that could leave the table root. */
export function checkKey(key: string): string {
  if (
    key === '' ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\u0000') ||
    key.split('/').some((seg) => seg === '..' || seg === '.')
  ) {
    throw new PathRefusedError(`refusing object key '${key}': keys are relative and stay inside the table`);
  }
  return key;
}
