/**
 * Z85 (ZeroMQ RFC 32), the Base85 variant the Delta protocol uses for inline deletion vectors and for the UUIDs
 * of on-disk ones: every 5 characters are 4 bytes, big-endian. Pure: no I/O.
 */
import { DeletionVectorError } from './errors';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

export function z85Decode(text: string): Uint8Array {
  if (text.length % 5 !== 0) {
    throw new DeletionVectorError(`Z85 text must be a multiple of 5 characters long, got ${text.length}`);
  }
  const out = new Uint8Array((text.length / 5) * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < text.length; i += 5) {
    let word = 0;
    for (let j = i; j < i + 5; j++) {
      const code = text.charCodeAt(j);
      const v = code < 128 ? (VALUE[code] ?? -1) : -1;
      if (v < 0) throw new DeletionVectorError(`'${text[j]}' at ${j} is not a Z85 character`);
      word = word * 85 + v;
    }
    if (word > 0xffffffff) throw new DeletionVectorError(`Z85 group at ${i} is larger than 4 bytes`);
    view.setUint32((i / 5) * 4, word);
  }
  return out;
}
