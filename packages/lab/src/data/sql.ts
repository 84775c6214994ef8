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

/** How far a long step has got: `done` of `total` units, and what it is doing now. For display only. */
export interface StepProgress {
  done: number;
  total: number;
  detail: string;
}

/** How often a watched statement's progress is read: a person watching needs no more. */
const WATCH_MS = 250;

/**
 * Runs `sql`, reporting DuckDB's own count of the rows it has processed so far (display only; the
 * statement runs the same either way). DuckDB counts progress only with its progress bar on; its
 * printing stays off.
 */
export async function runWatched(c: Conn, sql: string, onRows?: (done: number, total: number) => void): Promise<void> {
  if (!onRows) {
    await c.run(sql);
    return;
  }
  await c.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false');
  const timer = setInterval(() => {
    const p = c.progress;
    if (p.total_rows_to_process > 0n) onRows(Number(p.rows_processed), Number(p.total_rows_to_process));
  }, WATCH_MS);
  try {
    await c.run(sql);
  } finally {
    clearInterval(timer);
  }
}
