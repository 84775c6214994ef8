/**
 * The audit's tables, each opened once, and why one cannot be read. A table that does not resolve
 * (outside the roots, an unknown bucket, an alias that is not served), does not exist, is not a
 * Delta table (tables/not-a-table.ts says which), or holds what the engine cannot read (a malformed log, a reader feature it lacks, a
 * data file the log names but the store lacks) is not an error of the audit: it becomes the
 * `table-unreadable` finding of the jobs that name it, and every other table is still audited.
 * The reason is said in words, naming the table as the manifest does: never a server folder, never
 * a stack. A table the engine read only by skipping an unreadable checkpoint is audited as usual, and
 * its `checkpoint-skipped` finding carries the engine's warning (which names the checkpoint by its key).
 */
import { stat } from 'node:fs/promises';
import { DeltaTable, LOG_DIR, NotATableError, withConnection } from '@racelab/engine';
import { clientSafeMessage, namedRoots } from '../results/safe-message';
import { type LocationConfig, LocationError, type ResolvedLocation, resolveTableLocation } from '../tables/locations';
import { notATableReason } from '../tables/not-a-table';
import type { Finding, Job } from './types';

/** Why a table cannot be read, for a finding: what was seen, and what to change. */
export interface Unreadable {
  evidence: string;
  fix: string;
}

export type OpenedTable = { table: DeltaTable; resolved: ResolvedLocation } | { unreadable: Unreadable };

const LOCATION_FIX =
  'name a Delta table under the configured roots (LAB_ROOTS) or buckets (LAB_S3_BUCKETS), or a lab alias';

/**
 * The table at `location`, opened and asked whether its data can be read; or why not. Everything
 * that goes wrong here is about this one table, so nothing is thrown: the audit goes on without it.
 */
export async function openForAudit(location: string, cfg: LocationConfig): Promise<OpenedTable> {
  let resolved: ResolvedLocation;
  try {
    resolved = await resolveTableLocation(location, cfg);
  } catch (e) {
    return { unreadable: unreadableReason(e, location, cfg) };
  }
  try {
    const table = await DeltaTable.open(resolved.path, { roots: cfg.roots });
    // Building a relation over no files asks only whether the engine reads the table's protocol (its reader
    // version and features): a table one job names is refused here, not only once a pair reads its data.
    await withConnection((conn) => table.filesRelation(conn, []));
    return { table, resolved };
  } catch (e) {
    return { unreadable: await unreadableAt(e, resolved, cfg) };
  }
}

/** Why a resolved table cannot be read: the engine's error in words, the table named as the manifest names it. */
export async function unreadableAt(e: unknown, resolved: ResolvedLocation, cfg: LocationConfig): Promise<Unreadable> {
  if (e instanceof NotATableError) return notATable(resolved);
  return unreadableReason(e, resolved.display, cfg, resolved.path);
}

/** Stands for the table's path while a message is cleaned: no path pattern matches it. */
const TABLE_MARK = '\u0000table\u0000';

function unreadableReason(e: unknown, display: string, cfg: LocationConfig, path?: string): Unreadable {
  if (e instanceof LocationError) return { evidence: e.message, fix: LOCATION_FIX };
  const text = e instanceof Error ? e.message : String(e);
  // The engine names the table by its resolved path; the person knows it by what the manifest says, which
  // goes in after the server's paths are taken out (a manifest may name a table by its absolute path).
  const marked = path === undefined ? text : text.replaceAll(path, TABLE_MARK);
  const reason = clientSafeMessage(marked, { roots: namedRoots(cfg) })
    .replaceAll(TABLE_MARK, display)
    .replaceAll('\u0000', '');
  return {
    evidence: `${display} cannot be read: ${reason.startsWith(`${display}: `) ? reason.slice(display.length + 2) : reason}`,
    fix: 'repair the table, or audit it with an engine that reads it; the other tables were audited',
  };
}

/** No commits at the location: say what is there instead, and where the table's log should be. */
async function notATable(resolved: ResolvedLocation): Promise<Unreadable> {
  const evidence = await notATableReason(resolved);
  const missing = resolved.kind === 'local' && (await stat(resolved.path).catch(() => null)) === null;
  return {
    evidence,
    fix: missing
      ? 'create the table first, or correct its location'
      : `point the job at the folder that holds the table's ${LOG_DIR}`,
  };
}

/**
 * The finding on every job that names an unreadable table. Its jobs' predicates were checked only as
 * far as the manifest's own check goes (their grammar), since the columns they name are the table's.
 */
export function unreadableFinding(table: string, jobs: Job[], why: Unreadable): Finding {
  const predicated = jobs.filter((j) => j.predicate !== undefined).map((j) => j.name);
  const unchecked =
    predicated.length === 0
      ? ''
      : `; the predicate${predicated.length > 1 ? 's' : ''} of ${predicated.join(', ')} could be checked for syntax only, not against its columns`;
  return {
    rule: 'table-unreadable',
    severity: 'error',
    jobs: jobs.map((j) => j.name),
    table,
    evidence: `${why.evidence}${unchecked}`,
    fix: why.fix,
  };
}

/**
 * The warning on every job of a table the engine opened only by skipping an unreadable checkpoint: its
 * findings stand (the same version was loaded from an earlier checkpoint or the JSON commits), but the
 * checkpoint needs rewriting before the commits it stands for are cleaned up.
 */
export function checkpointSkippedFinding(table: string, jobs: Job[], warnings: readonly string[]): Finding {
  return {
    rule: 'checkpoint-skipped',
    severity: 'warning',
    jobs: jobs.map((j) => j.name),
    table,
    evidence: `${table} was read without its checkpoint: ${warnings.join('; ')}`,
    fix: 'write a new checkpoint of the table (or remove the unreadable one) before any log cleanup removes the commits it was read from',
  };
}
