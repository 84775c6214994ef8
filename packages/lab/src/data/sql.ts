import type { withConnection } from '@racelab/engine';

/** A DuckDB connection as `withConnection` hands it out. */
export type Conn = Parameters<Parameters<typeof withConnection>[0]>[0];

/** A SQL string literal for text the lab itself produced (paths, dates). */
export const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** A quoted SQL identifier. */
export const sqlIdent = (s: string): string => `"${s.replaceAll('"', '""')}"`;

/** A DuckDB list of string literals. */
export const sqlList = (items: readonly string[]): string => `[${items.map(sqlString).join(', ')}]`;

/** The first column of the first row of a query, as a number. */
export async function scalar(c: Conn, sql: string): Promise<number> {
  const r = await c.runAndReadAll(sql);
  const v = r.getColumns()[0]?.[0];
  return Number(v ?? 0);
}
