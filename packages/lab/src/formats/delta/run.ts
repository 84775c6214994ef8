/**
 * One run of a Delta case: a fresh copy at version 0 of the lab's base table or of the user's table, the
 * writers' race, then the table checks and the commit order the log records. A case with command writers gets a
 * full copy (bytes, not links), and the table it is copied from is checksummed before and after its jobs ran.
 */
import { DeltaTable } from '@racelab/engine';
import type { DeltaCase } from '../../cases/catalog';
import { hasJobCommands } from '../../cases/job-roots';
import { rowsFileOf } from '../../cases/operations';
import type { RunResult } from '../../results/types';
import { raceAcrossHosts } from '../../runner/across-hosts';
import { race } from '../../runner/race';
import { type RunContext, runDir } from '../../runner/run-context';
import type { BaseTables } from '../../tables/base-tables';
import { CopyRefusedError, raceRefusals } from '../../tables/copy-refusals';
import { freshCopy } from '../../tables/fresh-copy';
import { removeTable } from '../../tables/table-store';
import { treeChanges, treeSums } from '../../tables/tree-checksum';
import { commitOrder } from './commit-order';
import { commitSummaries } from './commit-summary';
import { withJobOutcomes } from './job-outcome';
import { checkTable } from './table-check';
import { deltaVerdict } from './verdict';

export interface DeltaRunContext extends RunContext {
  /** The lab's base tables; absent when no case of the race needs them. */
  bases?: BaseTables | null;
}

/** The table a case's runs copy: a base table's folder, or the user's table (its location and display). */
export function sourceOf(c: DeltaCase, bases: BaseTables | null | undefined): { location: string; display: string } {
  if (typeof c.table !== 'string') return c.table;
  if (!bases) throw new Error(`case ${c.id} races the lab's ${c.table} table, but no base tables were built`);
  return { location: bases[c.table], display: `lab:${c.table}` };
}

/** A command writer's job changed something outside its copy: the run is void, and the table it was copied from too. */
export class JobFaultError extends Error {
  override name = 'JobFaultError';
}

/** The base table's checksum before the jobs ran, checked again after: a job must change its copy only. */
async function baseGuard(c: DeltaCase, source: { location: string; display: string }) {
  if (!hasJobCommands(c)) return async () => {};
  const before = await treeSums(source.location);
  const jobs = c.writers.filter((w) => w.operation.kind === 'command').map((w) => w.name);
  return async (when: string) => {
    const changes = treeChanges(before, await treeSums(source.location));
    if (changes === '') return;
    throw new JobFaultError(
      `the table the copies are made from (${source.display}) changed ${when}: ${changes}. A job of ${jobs.join(', ')} wrote outside its copy (RACELAB_TABLE); the run is void`,
    );
  };
}

export async function runDeltaCase(c: DeltaCase, index: number, ctx: DeltaRunContext): Promise<RunResult> {
  const dir = runDir(ctx, c.id, index);
  const started = Date.now();
  const source = sourceOf(c, ctx.bases);
  const lab = typeof c.table === 'string';
  const roots = ctx.roots ?? [];
  // A job may rewrite files in place: its copy gets their bytes, and the base is checked after the jobs ran.
  const fullCopy = hasJobCommands(c);
  const checkBase = await baseGuard(c, source);
  try {
    if (!lab) {
      // The user's table may have changed since the race was accepted: what delta-rs or a copy refuses is
      // refused again, before any writer starts.
      const problems = await raceRefusals(await DeltaTable.open(source.location, { roots }), {
        runsDir: dir,
        roots,
        display: source.display,
      });
      if (problems.length > 0) throw new CopyRefusedError(problems);
    }
    await freshCopy(source.location, dir, {
      ...(c.properties && { properties: c.properties }),
      roots,
      display: source.display,
      ...(fullCopy && { fullCopy }),
    });
    // The lab's data set only when a writer appends one of its days.
    const days = c.writers.some((w) => 'day' in w.operation) ? await ctx.dataset.get() : null;
    const rowsFile = (op: DeltaCase['writers'][number]['operation']) =>
      rowsFileOf(op, days ? (day) => days.february(day) : undefined);
    const jobs = c.writers.map((writer) => {
      const file = rowsFile(writer.operation);
      return { kind: 'race' as const, format: c.format, table: dir, writer, ...(file && { rowsFile: file }) };
    });
    const raced = ctx.acrossHosts
      ? await raceAcrossHosts(jobs, started, ctx.dataset.scale, ctx.acrossHosts, ctx)
      : await race(jobs, started, ctx);
    await checkBase('while the jobs raced');
    const order = await commitOrder(dir);
    const writers = withJobOutcomes(raced, c.writers, order);
    const table = await checkTable(dir, lab ? { januaryFile: (await ctx.dataset.get()).january } : undefined);
    const commits = await commitSummaries(dir);
    // The run's own time ends here: the oracle's is its verdict's oracleMs.
    const durationMs = Date.now() - started;
    // The next race's writer processes load now, beside the verdict: loading beside the check slowed it.
    ctx.pool?.fill();
    const verdict = await deltaVerdict({
      raced: dir,
      results: writers,
      logOrder: order,
      base: source.location,
      ...(c.properties && { properties: c.properties }),
      roots,
      writers: c.writers,
      rowsFile,
      copyDir: (i) => `${dir}-oracle-${i}`,
      ...(ctx.memo && { memo: ctx.memo }),
      ...(fullCopy && { fullCopy }),
      ...(ctx.timeoutMs !== undefined && { jobTimeoutMs: ctx.timeoutMs }),
    });
    await checkBase('while the jobs were replayed');
    return { index, writers, table, verdict, commitOrder: order, durationMs, commits };
  } finally {
    if (!ctx.keep) await removeTable(dir);
  }
}
