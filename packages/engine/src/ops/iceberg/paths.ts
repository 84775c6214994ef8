/**
 * Paths inside Iceberg metadata. We write fully qualified `file:///…` URIs (the spec requires a scheme
 * before v4); readers also meet bare absolute paths and relative ones (pyiceberg with a relative
 * warehouse, and the golden fixtures), so reading goes through a resolver the caller can replace.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Maps a path found in metadata to a local file path. */
export type PathResolver = (p: string) => string;

export const defaultResolvePath: PathResolver = (p) => {
  if (p.startsWith('file:')) return fileURLToPath(p.startsWith('file:///') ? p : p.replace(/^file:\/*/, 'file:///'));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) throw new Error(`Unsupported scheme in ${p}: only local files are supported`);
  return isAbsolute(p) ? p : resolve(p);
};

/** A local path (or an existing URI) as the `file:///…` URI we write into metadata. */
export function toFileUri(p: string): string {
  if (p.startsWith('file:')) return p;
  return pathToFileURL(resolve(p)).href;
}

/** `base/child` on a URI or path without normalising the scheme away. */
export function joinLocation(base: string, child: string): string {
  return `${base.replace(/\/+$/, '')}/${child}`;
}
