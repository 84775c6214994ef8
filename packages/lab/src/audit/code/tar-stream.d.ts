/**
 * The part of tar-stream 3 (which ships no types) that the archive unpacker and its tests use: reading a tar
 * stream entry by entry, and writing one.
 */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    type?:
      | 'file'
      | 'link'
      | 'symlink'
      | 'character-device'
      | 'block-device'
      | 'directory'
      | 'fifo'
      | 'contiguous-file'
      | 'pax-header'
      | 'pax-global-header'
      | 'gnu-long-link-path'
      | 'gnu-long-path'
      | null;
    linkname?: string | null;
  }

  export interface Entry extends Readable {
    header: Headers;
  }

  export interface Extract extends Writable, AsyncIterable<Entry> {}

  export interface Pack extends Readable {
    entry(header: Headers, content?: string | Uint8Array, callback?: (err?: Error | null) => void): Writable;
    finalize(): void;
  }

  export function extract(): Extract;
  export function pack(): Pack;
}
