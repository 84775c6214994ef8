/**
 * Reads a deletion vector into the row positions it deletes, checking it the way delta-kernel-rs's
 * `DeletionVectorDescriptor::read` does, plus its cardinality. A file holds a version byte (1), then per vector,
 * at the descriptor's offset: its size (4 bytes, big-endian), the bitmap (magic number, little-endian, then the
 * 64-bit portable RoaringBitmap), a CRC-32 of the bitmap (big-endian). Inline vectors are the bitmap alone.
 */
import { crc32 } from 'node:zlib';
import { type DvSource, dvSource } from '../../../kernel/delta/dv/descriptor';
import { DeletionVectorError } from '../../../kernel/delta/dv/errors';
import { decodeRoaringTreemap } from '../../../kernel/delta/dv/roaring';
import { z85Decode } from '../../../kernel/delta/dv/z85';
import type { DeletionVectorDescriptor } from '../../../kernel/delta/protocol/actions';

/** The Delta protocol's magic number for a portable RoaringBitmap array; 1681511376 would be the native one. */
const PORTABLE_MAGIC = 1681511377;
const NATIVE_MAGIC = 1681511376;
const FILE_FORMAT_VERSION = 1;

/** The bytes of the file an on-disk vector lives in (callers share one read per file among its vectors). */
export type ReadDvFile = (source: Exclude<DvSource, { kind: 'inline' }>) => Promise<Uint8Array>;

/** The row positions `dv` deletes, ascending; throws DeletionVectorError when it is not what it says. */
export async function readDeletionVector(dv: DeletionVectorDescriptor, readFile: ReadDvFile): Promise<Float64Array> {
  const source = dvSource(dv);
  const bitmap =
    source.kind === 'inline'
      ? inlineBitmap(source.encoded, dv.sizeInBytes)
      : framed(await readFile(source), source, dv);
  const positions = decodeBitmapArray(bitmap);
  if (positions.length !== dv.cardinality) {
    throw new DeletionVectorError(
      `the deletion vector deletes ${positions.length} rows but its descriptor says cardinality ${dv.cardinality}`,
    );
  }
  return positions;
}

function inlineBitmap(encoded: string, size: number): Uint8Array {
  const bytes = z85Decode(encoded);
  // Z85 pads to whole 4-byte groups; sizeInBytes is the bitmap's own length.
  if (bytes.length < size) {
    throw new DeletionVectorError(`the inline deletion vector has ${bytes.length} bytes, its descriptor says ${size}`);
  }
  return bytes.subarray(0, size);
}

/** One vector's bitmap out of the file that holds it, its size and checksum checked. */
function framed(file: Uint8Array, source: Exclude<DvSource, { kind: 'inline' }>, dv: DeletionVectorDescriptor) {
  const where = source.kind === 'relative' ? source.key : source.uri;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.length === 0 || view.getUint8(0) !== FILE_FORMAT_VERSION) {
    throw new DeletionVectorError(`${where}: not a deletion vector file of format version ${FILE_FORMAT_VERSION}`);
  }
  const start = source.offset;
  if (start < 1 || start + 4 > file.length) {
    throw new DeletionVectorError(`${where}: offset ${start} is outside the file (${file.length} bytes)`);
  }
  const size = view.getUint32(start, false);
  if (size !== dv.sizeInBytes) {
    throw new DeletionVectorError(`${where}@${start}: the file says ${size} bytes, the descriptor ${dv.sizeInBytes}`);
  }
  const end = start + 4 + size;
  if (end + 4 > file.length) {
    throw new DeletionVectorError(`${where}@${start}: the file ends before the vector's ${size} bytes and checksum`);
  }
  const bitmap = file.subarray(start + 4, end);
  const stored = view.getUint32(end, false);
  const actual = crc32(bitmap);
  if (stored !== actual) {
    throw new DeletionVectorError(`${where}@${start}: CRC-32 checksum mismatch (stored ${stored}, computed ${actual})`);
  }
  return bitmap;
}

/** The magic number, then the 64-bit portable bitmap. */
function decodeBitmapArray(bytes: Uint8Array): Float64Array {
  if (bytes.length < 4) throw new DeletionVectorError(`a deletion vector of ${bytes.length} bytes has no magic number`);
  const magic = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (magic === NATIVE_MAGIC) {
    throw new DeletionVectorError('deletion vectors in the native RoaringBitmap serialization are not supported');
  }
  if (magic !== PORTABLE_MAGIC) throw new DeletionVectorError(`invalid deletion vector magic number ${magic}`);
  return decodeRoaringTreemap(bytes.subarray(4));
}
