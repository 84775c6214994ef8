/**
 * The queue's schema version. pg-boss migrates an older schema forward but reads a newer one as its
 * own, and then fails on every send. The queue holds nothing a race or sweep row does not: a newer
 * schema is dropped, and the races and sweeps still waiting in it are sent again on the new one.
 */
import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);
/** The schema version the installed pg-boss writes (its package's `version.json`). */
export const QUEUE_SCHEMA_VERSION: number = require('pg-boss/version.json').schema;

export interface Requeue {
  races: string[];
  sweeps: string[];
}

export async function retireNewerQueueSchema(url: string): Promise<Requeue> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const present = await client.query<{ present: boolean }>(
      `SELECT to_regclass('pgboss.version') IS NOT NULL AS present`,
    );
    if (!present.rows[0]?.present) return { races: [], sweeps: [] };
    const found = await client.query<{ version: number }>('SELECT version FROM pgboss.version');
    const version = found.rows[0] ? Number(found.rows[0].version) : null;
    if (version === null || version <= QUEUE_SCHEMA_VERSION) return { races: [], sweeps: [] };
    await client.query('DROP SCHEMA pgboss CASCADE');
    console.log(`queue: schema version ${version} (a newer build's) replaced by version ${QUEUE_SCHEMA_VERSION}`);
    const races = await client.query<{ id: string }>(
      `SELECT id FROM "Race" WHERE status = 'QUEUED' ORDER BY "createdAt"`,
    );
    const sweeps = await client.query<{ id: string }>(
      `SELECT id FROM "Sweep" WHERE status = 'QUEUED' ORDER BY "createdAt"`,
    );
    return { races: races.rows.map((r) => r.id), sweeps: sweeps.rows.map((r) => r.id) };
  } finally {
    await client.end();
  }
}
