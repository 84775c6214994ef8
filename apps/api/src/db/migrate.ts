/**
 * Applies the committed SQL migrations (prisma/migrations/<name>/migration.sql) in name order, each
 * in its own transaction, and records them in Prisma's own `_prisma_migrations` table with the
 * sha256 of the file as checksum, so Prisma's tooling would see the same history. No schema engine
 * and no download: Prisma 7's CLI cannot run migrations offline. An advisory lock makes concurrent
 * starters (API, workers, the supervisor) take turns; a changed migration file is refused.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../process/config';

export const MIGRATIONS_DIR = join(REPO_ROOT, 'prisma/migrations');
const LOCK_KEY = 72_616_365; // any constant shared by every starter of this product

export class MigrationError extends Error {
  override name = 'MigrationError';
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function migrationsIn(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Applies what is missing; returns the names applied by this call. */
export async function applyMigrations(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await migrationsIn(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(HISTORY_TABLE);
    const done = new Map<string, string>(
      (
        await client.query<{ migration_name: string; checksum: string }>(
          'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
        )
      ).rows.map((r) => [r.migration_name, r.checksum]),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      const had = done.get(m.name);
      if (had !== undefined) {
        if (had !== m.checksum) {
          throw new MigrationError(`migration ${m.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new MigrationError(`migration ${m.name} failed: ${(e as Error).message}`);
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
