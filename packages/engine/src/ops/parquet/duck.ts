import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/**
 * One DuckDB instance per process, set up the way this machine needs it: no extension downloads
 * (none can succeed offline, and a failed attempt costs half a second) and UTC, so naive
 * timestamps are never shifted by the host's zone.
 */
let instance: Promise<DuckDBInstance> | null = null;

export interface DuckOptions {
  threads?: number;
  memoryLimit?: string;
}

let options: DuckOptions = {};

/** Settings for the instance; only effective before the first query of the process. */
export function configureDuck(opts: DuckOptions): void {
  options = { ...opts };
}

async function create(): Promise<DuckDBInstance> {
  const config: Record<string, string> = {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  };
  if (options.threads) config.threads = String(options.threads);
  if (options.memoryLimit) config.memory_limit = options.memoryLimit;
  const db = await DuckDBInstance.create(':memory:', config);
  // Once for the instance, so every connection starts in UTC without a query of its own (a connection is made per
  // operation). TimeZone comes with the ICU extension, which the config given to create() does not know yet.
  const first = await db.connect();
  try {
    await first.run("SET GLOBAL TimeZone='UTC'");
  } finally {
    first.disconnectSync();
  }
  return db;
}

/** A fresh connection (each has its own temp tables), in UTC; close it with `disconnectSync()`. */
export async function connect(): Promise<DuckDBConnection> {
  instance ??= create();
  return (await instance).connect();
}

/** Runs `fn` on its own connection and always releases it. */
export async function withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const c = await connect();
  try {
    return await fn(c);
  } finally {
    c.disconnectSync();
  }
}

/** A SQL string literal for text the engine itself produced (paths, rendered values). */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

export function sqlIdent(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

export function sqlList(items: readonly string[]): string {
  return `[${items.map(sqlString).join(', ')}]`;
}
