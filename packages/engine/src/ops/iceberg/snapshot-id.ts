/**
 * pyiceberg's snapshot id (`metadata.py` `_generate_snapshot_id`): XOR of the two halves of a uuid4,
 * read as a signed little-endian 64-bit integer, made positive. It is usually above 2^53, hence BigInt.
 */
import { randomUUID } from 'node:crypto';

export function snapshotIdFromUuid(uuid: string): bigint {
  const b = Buffer.from(uuid.replaceAll('-', ''), 'hex');
  if (b.length !== 16) throw new Error(`not a uuid: ${uuid}`);
  const x = Buffer.alloc(8);
  for (let i = 0; i < 8; i++) x[i] = (b[i] as number) ^ (b[i + 8] as number);
  const id = x.readBigInt64LE(0);
  return id < 0n ? -id : id;
}

export function newSnapshotId(): bigint {
  // -2^63 negated does not fit 63 bits; pyiceberg would produce it too, but it cannot be stored, so draw again.
  for (;;) {
    const id = snapshotIdFromUuid(randomUUID());
    if (id > 0n && id < 2n ** 63n) return id;
  }
}
