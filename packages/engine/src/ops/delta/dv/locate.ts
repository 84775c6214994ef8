/**
 * The bytes of the files on-disk deletion vectors live in, and the one judge of where a table may read them. A
 * `u` vector's file is a key of the table's own store, confined like every other key. A `p` vector's file is at
 * an absolute URI, read only where `dvFileLocation` finds it: inside the table's folder or one of the roots its
 * opener allowed (a local table), inside the table's bucket (a table on S3). Anywhere else is refused with a
 * PathRefusedError before anything there is opened. Each file is read once per reader: a file often holds the
 * vectors of many data files. A file that is not there is a DeletionVectorError like any other fault of a vector.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DvSource, dvSource } from '../../../kernel/delta/dv/descriptor';
import { DeletionVectorError } from '../../../kernel/delta/dv/errors';
import type { Add, DeletionVectorDescriptor } from '../../../kernel/delta/protocol/actions';
import { LocalObjectStore } from '../../../storage/local-store';
import { NotFoundError, type ObjectStore, PathRefusedError } from '../../../storage/object-store';
import { isS3Url, parseS3Url, S3ObjectStore } from '../../../storage/s3-store';
import type { ReadDvFile } from './read';

/** `path`'s key below `root` (both absolute) when it lies inside it, else null. */
function below(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/** Where a `p` vector's file lies: in the table (a key of its store) or in a root it may read; or null: neither. */
export type DvFileLocation = { in: 'table'; key: string } | { in: 'root'; root: string; key: string } | null;

/**
 * Where the file at absolute `uri` lies for the table at `location` (a folder or an s3:// URL), given the
 * folders besides its own it may read deletion vectors from. A local table reads `file:` URIs inside its folder
 * or `roots` only; a table on S3 reads `s3:`/`s3a:` URIs in its own bucket only.
 */
export function dvFileLocation(location: string, uri: string, roots: readonly string[] = []): DvFileLocation {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new DeletionVectorError(`'${uri}' is not an absolute URI`);
  }
  if (url.protocol === 'file:') {
    if (isS3Url(location)) return null;
    const path = fileURLToPath(url);
    const own = below(resolve(location), path);
    if (own !== null) return { in: 'table', key: own };
    for (const r of roots) {
      const key = below(resolve(r), path);
      if (key !== null) return { in: 'root', root: resolve(r), key };
    }
    return null;
  }
  if (url.protocol === 's3:' || url.protocol === 's3a:') {
    if (!isS3Url(location)) return null;
    const { bucket, prefix } = parseS3Url(location);
    if (url.host !== bucket) return null;
    const key = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (prefix === '') return { in: 'table', key };
    if (key.startsWith(`${prefix}/`)) return { in: 'table', key: key.slice(prefix.length + 1) };
    return { in: 'root', root: `s3://${bucket}`, key };
  }
  throw new DeletionVectorError(`deletion vectors stored at ${url.protocol} URIs are not supported`);
}

const OUTSIDE =
  'its file is at an absolute path outside the table and the folders it may read (LAB_ROOTS), so it is not read';

/**
 * Refuses, before anything is read, a table whose live files have `p` vectors where it may not read them, naming
 * the first such data file by its path in the table (never the URI: it is a place on the server).
 */
export function assertVectorsReadable(location: string, files: Iterable<Add>, roots: readonly string[]): void {
  const refused: string[] = [];
  for (const f of files) {
    const dv = f.deletionVector;
    if (dv?.storageType !== 'p') continue;
    let at: DvFileLocation;
    try {
      at = dvFileLocation(location, dv.pathOrInlineDv, roots);
    } catch {
      continue; // not a URI the engine reads at all: the read says so, as a fault of the vector
    }
    if (at === null) refused.push(f.path);
  }
  if (refused.length === 0) return;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : '';
  throw new PathRefusedError(`refusing the deletion vector of '${refused.sort()[0]}'${more}: ${OUTSIDE}`);
}

/** The store and key the file at `uri` is read through; a PathRefusedError where the table may not read. */
function absoluteFile(table: ObjectStore, uri: string, roots: readonly string[]): { store: ObjectStore; key: string } {
  const at = dvFileLocation(table.location, uri, roots);
  if (at === null) throw new PathRefusedError(OUTSIDE);
  if (at.in === 'table') return { store: table, key: at.key };
  // A root's store refuses a key that is or passes through a symlink below the root, as the table's does.
  return { store: isS3Url(at.root) ? new S3ObjectStore(at.root) : new LocalObjectStore(at.root), key: at.key };
}

/**
 * The key in the table's own store of the file `dv` lives in; null for an inline vector or a file outside the
 * table. Vacuum keeps these files while a file it keeps names them.
 */
export function dvFileKey(store: ObjectStore, dv: DeletionVectorDescriptor): string | null {
  const source = dvSource(dv);
  if (source.kind === 'inline') return null;
  if (source.kind === 'relative') return source.key;
  const at = dvFileLocation(store.location, source.uri);
  return at?.in === 'table' ? at.key : null;
}

/**
 * A reader for the deletion vector files of the table in `store`, each file fetched once; `roots` are the
 * folders besides the table's own where its `p` vectors may lie.
 */
export function dvFileReader(store: ObjectStore, roots: readonly string[] = []): ReadDvFile {
  const files = new Map<string, Promise<Uint8Array>>();
  return (source: Exclude<DvSource, { kind: 'inline' }>) => {
    const where = source.kind === 'relative' ? source.key : source.uri;
    let bytes = files.get(where);
    if (!bytes) {
      // Judged before anything is opened; a refusal is the read's failure, like a missing file.
      bytes = Promise.resolve()
        .then(() => (source.kind === 'relative' ? { store, key: source.key } : absoluteFile(store, source.uri, roots)))
        .then((file) => file.store.get(file.key))
        // Named as the log names it (a key relative to the table, or the URI), never by where it is on disk.
        .catch((e: unknown) => {
          throw e instanceof NotFoundError ? new DeletionVectorError(`${where}: the file is missing`) : e;
        });
      files.set(where, bytes);
    }
    return bytes;
  };
}
