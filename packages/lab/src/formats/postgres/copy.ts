/**
 * `COPY … FROM STDIN` fed from a file through pg-copy-streams: the data travels over the connection, so
 * it works against any server, local or remote, and the stream's backpressure paces the reading.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Runs `copySql` (a `COPY … FROM STDIN …`) and feeds it `file`; resolves to the rows copied. A failed
 * read ends the COPY with CopyFail (the server rolls the statement back, the connection stays usable)
 * and rejects naming the file; a statement the server refuses rejects with the server's error.
 */
export async function copyFromFile(client: pg.Client, copySql: string, file: string): Promise<number> {
  const sink = client.query(copyFrom(copySql));
  await pipeline(fileChunks(file), sink);
  return sink.rowCount;
}

/**
 * The file's bytes. Its read errors are named here, where they cannot be mistaken for the server's:
 * the message is also what CopyFail hands the server for its log.
 */
async function* fileChunks(file: string): AsyncGenerator<Buffer> {
  try {
    yield* fs.createReadStream(file, { highWaterMark: 1 << 20 });
  } catch (e) {
    throw new Error(`reading ${file} for COPY failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
