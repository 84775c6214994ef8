/**
 * The bytes of the files on-disk deletion vectors live in. A `u` vector's file is in the table's folder; a `p`
 * vector's file is at an absolute URI (`file:` or `s3:`), read through the table's own store when the URI is
 * inside the table and through a store for its folder when not. Each file is read once per reader: a file often
 * holds the vectors of many data files. A file that is not there is a DeletionVectorError like any other fault of
 * a vector.
 */
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DvSource, dvSource } from '../../../kernel/delta/dv/descriptor';
import { DeletionVectorError } from '../../../kernel/delta/dv/errors';
import type { DeletionVectorDescriptor } from '../../../kernel/delta/protocol/actions';
import { LocalObjectStore } from '../../../storage/local-store';
import { NotFoundError, type ObjectStore } from '../../../storage/object-store';
import { isS3Url, parseS3Url, S3ObjectStore } from '../../../storage/s3-store';
import type { ReadDvFile } from './read';

/** Which store holds an absolute URI, and under which key. */
function absoluteFile(table: ObjectStore, uri: string): { store: ObjectStore; key: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new DeletionVectorError(`'${uri}' is not an absolute URI`);
  }
  if (url.protocol === 'file:') {
    const path = fileURLToPath(url);
    const root = isS3Url(table.location) ? null : resolve(table.location);
    if (root !== null && path.startsWith(root + sep))
      return { store: table, key: relative(root, path).split(sep).join('/') };
    return { store: new LocalObjectStore(dirname(path)), key: basename(path) };
  }
  if (url.protocol === 's3:' || url.protocol === 's3a:') {
    const key = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (isS3Url(table.location)) {
      const { bucket, prefix } = parseS3Url(table.location);
      if (bucket === url.host && (prefix === '' || key.startsWith(`${prefix}/`))) {
        return { store: table, key: prefix === '' ? key : key.slice(prefix.length + 1) };
      }
    }
    const folder = key.includes('/') ? key.slice(0, key.lastIndexOf('/')) : '';
    return { store: new S3ObjectStore(`s3://${url.host}/${folder}`), key: key.slice(folder.length).replace(/^\//, '') };
  }
  throw new DeletionVectorError(`deletion vectors stored at ${url.protocol} URIs are not supported: ${uri}`);
}

/**
 * The key in the table's own store of the file `dv` lives in; null for an inline vector or a file outside the
 * table. Vacuum keeps these files while a file it keeps names them.
 */
export function dvFileKey(store: ObjectStore, dv: DeletionVectorDescriptor): string | null {
  const source = dvSource(dv);
  if (source.kind === 'inline') return null;
  if (source.kind === 'relative') return source.key;
  const file = absoluteFile(store, source.uri);
  return file.store === store ? file.key : null;
}

/** A reader for the deletion vector files of the table in `store`, each file fetched once. */
export function dvFileReader(store: ObjectStore): ReadDvFile {
  const files = new Map<string, Promise<Uint8Array>>();
  return (source: Exclude<DvSource, { kind: 'inline' }>) => {
    const where = source.kind === 'relative' ? source.key : source.uri;
    let bytes = files.get(where);
    if (!bytes) {
      const file = source.kind === 'relative' ? { store, key: source.key } : absoluteFile(store, source.uri);
      // Named as the log names it (a key relative to the table, or the URI), never by where it is on disk.
      bytes = file.store.get(file.key).catch((e: unknown) => {
        throw e instanceof NotFoundError ? new DeletionVectorError(`${where}: the file is missing`) : e;
      });
      files.set(where, bytes);
    }
    return bytes;
  };
}
