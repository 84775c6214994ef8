/**
 * Where a deletion vector's bytes are, from its descriptor, as the Delta protocol's "Deletion Vector Descriptor
 * Schema" derives it (and delta-kernel-rs's `DeletionVectorDescriptor::absolute_path` reads it): `i` is inline
 * (Z85 in the log), `u` a file in the table's folder named from a Z85-encoded UUID after an optional random
 * prefix, `p` a file at an absolute URI. Pure: no I/O.
 */
import type { DeletionVectorDescriptor } from '../protocol/actions';
import { DeletionVectorError } from './errors';
import { z85Decode } from './z85';

/** The encoded UUID of a `u` descriptor: 16 bytes are 20 Z85 characters. */
const UUID_CHARS = 20;

export type DvSource =
  | { kind: 'inline'; encoded: string }
  /** `key` is relative to the table's folder; `offset` is where this vector starts in the file. */
  | { kind: 'relative'; key: string; offset: number }
  | { kind: 'absolute'; uri: string; offset: number };

/** The canonical text of a UUID (8-4-4-4-12 lowercase hex digits). */
function uuidText(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `<prefix>/deletion_vector_<uuid>.bin` (no folder without a prefix) for the `pathOrInlineDv` of a `u` vector. */
export function relativeDvPath(pathOrInlineDv: string): string {
  if (pathOrInlineDv.length < UUID_CHARS) {
    throw new DeletionVectorError(
      `'${pathOrInlineDv}' is too short for a relative deletion vector path (at least ${UUID_CHARS} characters)`,
    );
  }
  const prefix = pathOrInlineDv.slice(0, -UUID_CHARS);
  const name = `deletion_vector_${uuidText(z85Decode(pathOrInlineDv.slice(-UUID_CHARS)))}.bin`;
  return prefix === '' ? name : `${prefix}/${name}`;
}

export function dvSource(dv: DeletionVectorDescriptor): DvSource {
  // Absent, the offset is 1, just past the file's version byte, as delta-kernel-rs reads it.
  const offset = dv.offset ?? 1;
  switch (dv.storageType) {
    case 'i':
      return { kind: 'inline', encoded: dv.pathOrInlineDv };
    case 'u':
      return { kind: 'relative', key: relativeDvPath(dv.pathOrInlineDv), offset };
    case 'p':
      return { kind: 'absolute', uri: dv.pathOrInlineDv, offset };
    default:
      throw new DeletionVectorError(`unknown deletion vector storage type '${dv.storageType}' (known: u, i, p)`);
  }
}

/** The protocol's `uniqueId`: one deletion vector, whichever data file it belongs to. */
export function dvUniqueId(dv: DeletionVectorDescriptor): string {
  return dv.offset === undefined || dv.offset === null
    ? `${dv.storageType}${dv.pathOrInlineDv}`
    : `${dv.storageType}${dv.pathOrInlineDv}@${dv.offset}`;
}
