/**
 * Jobs whose predicate cannot run on their table: checked before the audit reads any data, so a
 * predicate the engine refuses, or one DuckDB cannot run, becomes an error finding about that job
 * (and the job sits out the file overlaps and forecasts) instead of failing the whole audit.
 */
import { type DeltaTable, ExpressionError, withConnection } from '@racelab/engine';
import { runnablePredicate } from '../expressions';
import type { Finding, Job } from './types';

export interface PredicateCheck {
  findings: Finding[];
  /** The jobs whose predicate cannot run. */
  refused: Set<Job>;
}

export async function unrunnablePredicates(jobs: Job[], open: (table: string) => DeltaTable): Promise<PredicateCheck> {
  const out: PredicateCheck = { findings: [], refused: new Set() };
  const withPredicate = jobs.filter((j) => j.predicate !== undefined);
  if (withPredicate.length === 0) return out;
  await withConnection(async (conn) => {
    for (const job of withPredicate) {
      try {
        await runnablePredicate(conn, job.predicate as string, open(job.table).schema);
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        out.refused.add(job);
        out.findings.push({
          rule: 'predicate-unusable',
          severity: 'error',
          jobs: [job.name],
          table: job.table,
          evidence: e.message,
          fix: "write the predicate in the engine's subset, over the table's columns, so that it runs on every row",
        });
      }
    }
  });
  return out;
}
