/**
 * `COPY … FROM STDIN` with the plain `pg` client (no pg-copy-streams): a Submittable that answers
 * the server's CopyInResponse by streaming a file's bytes as CopyData messages, with backpressure.
 * Works against any server, local or remote, since the data travels over the connection.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import type pg from 'pg';

/** The parts of pg's (untyped) Connection that the copy protocol uses. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
}

class CopyFromFile {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (e: Error) => void;
  private rows = 0;
  private failed = false;
  private readonly abort = new AbortController();

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.done = new Promise((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }

  submit(connection: pg.Connection): void {
    (connection as unknown as CopyConnection).query(this.text);
  }

  handleCopyInResponse(connection: pg.Connection): void {
    void this.pump(connection as unknown as CopyConnection);
  }

  private async pump(con: CopyConnection): Promise<void> {
    try {
      for await (const chunk of fs.createReadStream(this.file, { highWaterMark: 1 << 20, signal: this.abort.signal })) {
        con.sendCopyFromChunk(chunk as Buffer);
        if (con.stream.writableNeedDrain) await once(con.stream, 'drain', { signal: this.abort.signal });
      }
      con.endCopyFrom();
    } catch (e) {
      if (!this.failed) con.sendCopyFail(`reading ${this.file} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  handleCommandComplete(msg: { text?: string }): void {
    const m = /^COPY (\d+)/.exec(msg.text ?? '');
    this.rows = m?.[1] !== undefined ? Number(m[1]) : 0;
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve(this.rows);
  }

  handleError(err: Error): void {
    this.failed = true;
    this.abort.abort();
    this.reject(err);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
  handleCopyData(): void {}
}

/** Runs `copySql` (a `COPY … FROM STDIN …`) and feeds it `file`; resolves to the rows copied. */
export function copyFromFile(client: pg.Client, copySql: string, file: string): Promise<number> {
  const q = new CopyFromFile(copySql, file);
  client.query(q);
  return q.done;
}
