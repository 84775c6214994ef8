/**
 * The queue on a database whose `pgboss` schema a newer pg-boss wrote (an install that ran a newer build): the API's
 * queue drops it, installs its own version, and sends again the races still waiting, so none is stranded. Also the
 * transactional send: a race's job is stored only when the race is.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/db/migrate';
import { createPrisma, type Db } from '../src/db/prisma';
import { inTransaction, RACE_QUEUE, startQueue } from '../src/queue/boss';
import { QUEUE_SCHEMA_VERSION } from '../src/queue/queue-schema';

let server: PostgresServer;
let dir: string;
let url: string;
let db: Db;
let client: pg.Client;

beforeAll(async () => {
  const varTmp = resolve(import.meta.dirname, '../../../var/tmp');
  mkdirSync(varTmp, { recursive: true });
  dir = mkdtempSync(join(varTmp, 'queue-schema-'));
  // Postgres runs as its own user when the tests run as root: it must reach its folder.
  chmodSync(dir, 0o755);
  server = await startPostgresServer({ dataDir: join(dir, 'pg') });
  url = await server.ownerUrl('queue_schema_test');
  await applyMigrations(url);
  db = createPrisma(url, 2);
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.$disconnect();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const queued = async () =>
  (
    await client.query<{ raceId: string }>(`SELECT data->>'raceId' AS "raceId" FROM pgboss.job WHERE name = $1`, [
      RACE_QUEUE,
    ])
  ).rows.map((r) => r.raceId);

const newRace = (title: string) =>
  db.race.create({ data: { title, spec: {}, runsRequested: 1, scale: 1, startedBy: { kind: 'test' } } });

describe('the queue schema', () => {
  it('a send in a transaction that rolls back leaves no job', async () => {
    const boss = await startQueue(url, 'producer');
    try {
      await expect(
        db.$transaction(async (tx) => {
          const race = await tx.race.create({
            data: { title: 'rolled back', spec: {}, runsRequested: 1, scale: 1, startedBy: { kind: 'test' } },
          });
          await boss.send(RACE_QUEUE, { raceId: race.id }, { db: inTransaction(tx) });
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      expect(await queued()).toEqual([]);
    } finally {
      await boss.stop({ graceful: false });
    }
  });

  it("a newer pg-boss's schema is replaced, and the races waiting in it are queued again", async () => {
    const waiting = await newRace('waiting');
    const done = await newRace('done');
    await db.race.update({ where: { id: done.id }, data: { status: 'DONE' } });
    await client.query('UPDATE pgboss.version SET version = $1', [QUEUE_SCHEMA_VERSION + 3]);
    const boss = await startQueue(url, 'producer');
    try {
      const [row] = (await client.query<{ version: number }>('SELECT version FROM pgboss.version')).rows;
      expect(Number(row?.version)).toBe(QUEUE_SCHEMA_VERSION);
      expect(await queued()).toEqual([waiting.id]);
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
