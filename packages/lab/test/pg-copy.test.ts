/**
 * `copyFromFile` against a real embedded Postgres: the rows arrive and are counted, a file that cannot
 * be read fails the COPY on the server (CopyFail) and says which file, a row the server refuses fails
 * with the server's own error, and the connection is usable after each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromFile } from '../src/formats/postgres/copy';

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgcopy-test-'));
fs.chmodSync(root, 0o755);
const COPY = 'COPY trips (trip_id, tip_amount) FROM STDIN WITH (FORMAT csv)';

let server: PostgresServer | undefined;
let client: pg.Client;

beforeAll(async () => {
  server = await startPostgresServer({ dataDir: path.join(root, 'pg') });
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query('CREATE TABLE trips (trip_id bigint PRIMARY KEY, tip_amount double precision)');
});

afterAll(async () => {
  await client?.end();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

async function tripsTable(): Promise<{ n: number; idSum: number }> {
  const r = await client.query<{ n: string; ids: string | null }>(
    'SELECT count(*)::text AS n, sum(trip_id)::text AS ids FROM trips',
  );
  return { n: Number(r.rows[0]?.n), idSum: Number(r.rows[0]?.ids ?? 0) };
}

/** The SQLSTATE `sql` fails with, or 'ok'. */
const outcome = (sql: string) =>
  client.query(sql).then(
    () => 'ok',
    (e: { code?: string }) => String(e.code),
  );

describe('copyFromFile', () => {
  it('copies every row of a file many chunks long and resolves to the count', async () => {
    // 300,000 rows, about 5 MB: several 1 MiB reads, more than the socket takes at once.
    const n = 300_000;
    const file = path.join(root, 'many.csv');
    fs.writeFileSync(file, Array.from({ length: n }, (_, i) => `${i + 1},${(i % 1000) / 100}\n`).join(''));
    expect(fs.statSync(file).size).toBeGreaterThan(3 << 20);
    expect(await copyFromFile(client, COPY, file)).toBe(n);
    expect(await tripsTable()).toEqual({ n, idSum: (n * (n + 1)) / 2 });
    await client.query('TRUNCATE trips');
  });

  it('fails the COPY on the server when the file cannot be read, naming the file', async () => {
    const missing = path.join(root, 'missing.csv');
    await expect(copyFromFile(client, COPY, missing)).rejects.toThrow(
      `reading ${missing} for COPY failed: ENOENT: no such file or directory`,
    );
    // A directory opens but fails on the first read: the server has the COPY going by then.
    await client.query('BEGIN');
    await expect(copyFromFile(client, COPY, root)).rejects.toThrow(`reading ${root} for COPY failed: EISDIR`);
    // The COPY failed inside the transaction (a COPY ended as if the file were empty would have succeeded).
    expect(await outcome('SELECT 1')).toBe('25P02'); // in_failed_sql_transaction
    await client.query('ROLLBACK');
    expect(await outcome('SELECT 1')).toBe('ok');
    expect(await tripsTable()).toEqual({ n: 0, idSum: 0 });
  });

  it("rejects with the server's error when it refuses a row or the statement, and copies none of the file", async () => {
    const file = path.join(root, 'bad.csv');
    fs.writeFileSync(file, '1,0.5\nnot-a-trip,1.5\n3,2.5\n');
    const error = await copyFromFile(client, COPY, file).then(
      () => null,
      (e: unknown) => e as pg.DatabaseError,
    );
    expect(error).toBeInstanceOf(pg.DatabaseError);
    expect(error?.code).toBe('22P02'); // invalid_text_representation
    expect(error?.message).toBe('invalid input syntax for type bigint: "not-a-trip"');
    expect(error?.where).toMatch(/^COPY trips, line 2/);
    expect(await tripsTable()).toEqual({ n: 0, idSum: 0 });
    // Refused before any data is asked for: the file is never sent, and the connection carries on.
    await expect(copyFromFile(client, 'COPY nowhere FROM STDIN', file)).rejects.toMatchObject({ code: '42P01' });
    expect(await outcome('SELECT 1')).toBe('ok');
  });
});
