/**
 * The control plane's settings, from the environment, in one place. Every process of the stack
 * (API, worker, the `npm start` supervisor) reads them the same way.
 */
// Found by looking for the workspace's package.json: this module also runs from a bundle under var/build.
import { resolve } from 'node:path';
import { workLimitOf } from '@racelab/contracts';
import { REPO_ROOT } from '@racelab/lab';

export { findRepoRoot } from '@racelab/lab';
export { REPO_ROOT };

/** Dashboard sessions last this long unless DASHBOARD_SESSION_HOURS says otherwise. */
export const DEFAULT_SESSION_HOURS = 24;

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
  /** Browser origins that may call the API directly (CORS, never with credentials). */
  corsOrigins: string[];
  /** Host header values the API answers besides its loopback names and API_HOST, at its port. */
  allowedHosts: string[];
  /** Whether /graphql serves GraphiQL to browsers. */
  graphiql: boolean;
  /** How long a dashboard session lasts, hours (DASHBOARD_SESSION_HOURS). */
  sessionHours: number;
  /** Where `npm start` keeps the dashboard's sign-in link, mode 0600 (LAB_DASHBOARD_LOGIN). */
  dashboardLoginFile: string;
  /**
   * The longest a sweep or race may take, in minutes (fractions allowed): startSweep and startRace refuse work
   * estimated above it, and a worker stops what runs past it.
   */
  maxWorkMinutes: number;
}

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return n;
}

/** A comma-separated list; unset means `fallback`, set but empty means none. */
function listFromEnv(name: string, fallback: string[]): string[] {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Origins exactly as browsers send them (`http://host:port`, no path): a typo would never match. */
function originsFromEnv(name: string, fallback: string[]): string[] {
  const origins = listFromEnv(name, fallback);
  for (const o of origins) {
    if (URL.canParse(o) && new URL(o).origin === o) continue;
    throw new Error(`${name} must list origins such as http://127.0.0.1:3000 (no path or trailing slash), got '${o}'`);
  }
  return origins;
}

function flagFromEnv(name: string, fallback: boolean): boolean {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw !== '0' && raw !== '1') throw new Error(`${name} must be 1 or 0, got '${raw}'`);
  return raw === '1';
}

export function loadConfig(): ApiConfig {
  const url = process.env.DATABASE_URL?.trim();
  const webPort = intFromEnv('WEB_PORT', 3000, 0, 65535);
  return {
    databaseUrl: url ? url : null,
    embeddedDir: resolve(REPO_ROOT, process.env.LAB_DB_DIR ?? 'var/db'),
    apiHost: process.env.API_HOST ?? '127.0.0.1',
    apiPort: intFromEnv('API_PORT', 4000, 0, 65535),
    webPort,
    labWorkDir: resolve(REPO_ROOT, process.env.LAB_WORK_DIR ?? 'var/lab'),
    labDataDir: process.env.LAB_DATA_DIR,
    reaperIntervalMs: intFromEnv('LAB_REAPER_MS', 2000, 50, 600_000),
    // The dashboard talks to the API through its own server; these let its pages call the API directly.
    corsOrigins: originsFromEnv('API_CORS_ORIGINS', [`http://127.0.0.1:${webPort}`, `http://localhost:${webPort}`]),
    allowedHosts: listFromEnv('API_ALLOWED_HOSTS', []).map((h) => h.toLowerCase()),
    graphiql: flagFromEnv('API_GRAPHIQL', process.env.NODE_ENV !== 'production'),
    sessionHours: intFromEnv('DASHBOARD_SESSION_HOURS', DEFAULT_SESSION_HOURS, 1, 720),
    dashboardLoginFile: resolve(REPO_ROOT, process.env.LAB_DASHBOARD_LOGIN ?? 'var/dashboard-login'),
    maxWorkMinutes: workLimitOf(process.env.LAB_MAX_WORK_MINUTES, 'LAB_MAX_WORK_MINUTES'),
  };
}
