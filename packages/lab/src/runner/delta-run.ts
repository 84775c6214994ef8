/**
 * One run of a Delta case: a fresh copy of the base table at version 0, the writers' race, then
 * the table checks and the commit order the log records.
 */
import { DeltaTable, readCommit } from '@racelab/engine';
import type { DeltaCase } from '../cases/catalog';
import type { RunResult } from '../results/types';
import type { BaseTables } from '../tables/base-tables';
import { freshCopy } from '../tables/fresh-copy';
import { removeTable } from '../tables/table-store';
import { deltaVerdict } from '../verdict/index';
import { raceAcrossHosts } from './across-hosts';
import { race } from './race';
import { type RunContext, runDir } from './run-context';
import { checkTable } from './table-check';

export interface DeltaRunContext extends RunContext {
  bases: BaseTables;
}

/** Writer names in the order their commits landed, read from the table's own log. */
async function commitOrder(dir: string): Promise<string[]> {
  const t = await DeltaTable.open(dir);
  const names: string[] = [];
  for (let v = 1; v <= t.version; v++) {
    const info = (await readCommit(t.store, v)).find((a) => 'commitInfo' in a);
    const writer = info && 'commitInfo' in info ? info.commitInfo.writer : undefined;
    names.push(typeof writer === 'string' ? writer : `v${v}`);
  }
  return names;
}

export async function runDeltaCase(c: DeltaCase, index: number, ctx: DeltaRunContext): Promise<RunResult> {
  const dir = runDir(ctx, c.id, index);
  const started = Date.now();
  try {
    await freshCopy(ctx.bases[c.table], dir, c.properties);
    const jobs = c.writers.map((writer) => {
      const day = 'day' in writer.operation ? writer.operation.day : undefined;
      return { engine: 'delta' as const, table: dir, writer, ...(day && { dayFile: ctx.dataset.february(day) }) };
    });
    const writers = ctx.acrossHosts
      ? await raceAcrossHosts(jobs, started, ctx.dataset.scale, ctx.acrossHosts, ctx)
      : await race(jobs, started, ctx);
    const table = await checkTable(dir, ctx.dataset.january);
    const order = await commitOrder(dir);
    // The run's own time ends here: the oracle's is its verdict's oracleMs.
    const durationMs = Date.now() - started;
    const verdict = await deltaVerdict({
      raced: dir,
      results: writers,
      logOrder: order,
      base: ctx.bases[c.table],
      ...(c.properties && { properties: c.properties }),
      writers: c.writers,
      dayFile: (day) => ctx.dataset.february(day),
      copyDir: (i) => `${dir}-oracle-${i}`,
    });
    return { index, writers, table, verdict, commitOrder: order, durationMs };
  } finally {
    if (!ctx.keep) await removeTable(dir);
  }
}
