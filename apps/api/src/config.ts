/**
 * The control plane's settings, from the environment, in one place. Every process of the stack
 * (API, worker, the `npm start` supervisor) reads them the same way.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ApiConfig {
  /** Postgres URL of the product's database; null means "start the embedded server". */
  databaseUrl: string | null;
  /** Where the embedded server keeps its cluster (survives restarts). */
  embeddedDir: string;
  apiHost: string;
  apiPort: number;
  webPort: number;
  /** The lab's work folder: data sets, base tables, run copies. */
  labWorkDir: string;
  /** Where the real TLC files may be. */
  labDataDir: string | undefined;
  /** How often the API and workers look for races whose worker died, ms. */
  reaperIntervalMs: number;
}

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return n;
}

export function loadConfig(): ApiConfig {
  const url = process.env.DATABASE_URL?.trim();
  return {
    databaseUrl: url ? url : null,
    embeddedDir: resolve(REPO_ROOT, process.env.LAB_DB_DIR ?? 'var/db'),
    apiHost: process.env.API_HOST ?? '127.0.0.1',
    apiPort: intFromEnv('API_PORT', 4000, 0, 65535),
    webPort: intFromEnv('WEB_PORT', 3000, 0, 65535),
    labWorkDir: resolve(REPO_ROOT, process.env.LAB_WORK_DIR ?? 'var/lab'),
    labDataDir: process.env.LAB_DATA_DIR,
    reaperIntervalMs: intFromEnv('LAB_REAPER_MS', 2000, 50, 600_000),
  };
}
