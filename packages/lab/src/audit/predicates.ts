/**
 * Stage 2 of the manifest's check, once the tables are open: each job's predicate bound to its
 * table's columns and run by DuckDB on a row of its schema. A predicate that fails is a problem of
 * the manifest, like any field the contract refuses (the manifest cannot be audited as written),
 * named with its job and field; every such problem is collected before the audit stops. A job whose
 * table cannot be read keeps the contract's check of its predicate's grammar only (stage 1), and its
 * table-unreadable finding says so.
 */
import { type DeltaTable, ExpressionError, withConnection } from '@racelab/engine';
import { runnablePredicate } from '../data/expressions';
import type { Job } from './types';

/** Every predicate that cannot run on its open table, as the manifest's problems: "job 'x': predicate: …". */
export async function predicateProblems(jobs: Job[], tableOf: (job: Job) => DeltaTable | null): Promise<string[]> {
  const checked = jobs.flatMap((job) => {
    const table = tableOf(job);
    return job.predicate !== undefined && table !== null ? [{ job, predicate: job.predicate, table }] : [];
  });
  if (checked.length === 0) return [];
  return withConnection(async (conn) => {
    const problems: string[] = [];
    for (const { job, predicate, table } of checked) {
      try {
        await runnablePredicate(conn, predicate, table.schema);
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        problems.push(`job '${job.name}': predicate: ${e.message}`);
      }
    }
    return problems;
  });
}
