/**
 * Connections to the lab's own database (`racelab_lab`) on a Postgres server: each named in
 * pg_stat_activity for what it does, bounded in how long it waits to connect, and failing with a
 * message that says where it tried (never the credentials).
 */
import { withDatabase } from '@racelab/pg-server';
import pg from 'pg';

/** The lab's own database on the server. */
export const LAB_DATABASE = 'racelab_lab';

/** The lab database's URL on the server that `serverUrl` points to (the same URL when it names it). */
export function labDatabaseUrl(serverUrl: string): string {
  return withDatabase(serverUrl, LAB_DATABASE);
}

/** host:port/database of a URL, without credentials, for messages. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

function errorText(e: unknown): string {
  if (e instanceof AggregateError && e.message === '') return e.errors.map(errorText).join('; ');
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== undefined && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}

/** A connected client, `racelab-<label>` in pg_stat_activity. */
export async function openClient(url: string, label: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 15_000,
    application_name: `racelab-${label}`,
  });
  // A dropped connection surfaces as the next query's error; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new Error(`cannot connect to Postgres at ${where(url)} (${label}): ${errorText(e)}`, { cause: e });
  }
  return client;
}

/** `fn` on a new client (see openClient), closed afterwards. */
export async function withLabClient<T>(url: string, label: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await openClient(url, label);
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** `SHOW server_version` of the server at `url`, for the results' versions. */
export function postgresServerVersion(url: string): Promise<string> {
  return withLabClient(url, 'version', async (c) =>
    String((await c.query('SHOW server_version')).rows[0]?.server_version),
  );
}
