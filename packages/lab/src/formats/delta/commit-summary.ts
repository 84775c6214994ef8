/**
 * Each commit a run's race wrote, as parsed values, read while the run's table still exists: files added and
 * removed by role with their partition values, record counts (from `stats`) and `dataChange`, and commitInfo's
 * operation, parsed operationParameters, readVersion, isolationLevel and isBlindAppend. What differs between
 * libraries by nature (file names, sizes, times, engineInfo, key order) is left out, so that two libraries' commits
 * of the same change read the same (compare/ sets them side by side).
 */
import { DeltaTable, readCommit } from '@racelab/engine';
import type { CommitFile, CommitSummary } from '../../results/types';
import { writerTag } from './commit-order';

const ROLES = ['add', 'remove', 'cdc'] as const;

const recordsOf = (stats: unknown): number | null => {
  if (typeof stats !== 'string') return null;
  try {
    const n = (JSON.parse(stats) as { numRecords?: unknown }).numRecords;
    return typeof n === 'number' ? n : null;
  } catch {
    return null;
  }
};

/** A commitInfo's operationParameters with each value parsed where it is JSON text (`"[]"`, `"true"`, `"3"`). */
export function parsedParameters(params: unknown): Record<string, unknown> {
  if (params === null || typeof params !== 'object') return {};
  return Object.fromEntries(
    Object.entries(params as Record<string, unknown>).map(([k, v]) => {
      if (typeof v !== 'string') return [k, v];
      try {
        return [k, JSON.parse(v)];
      } catch {
        return [k, v];
      }
    }),
  );
}

/** One commit's actions as the comparison reads them. */
export function summarizeCommit(version: number, actions: readonly Record<string, unknown>[]): CommitSummary {
  const files: CommitFile[] = [];
  const other: string[] = [];
  let info: Record<string, unknown> = {};
  for (const action of actions) {
    const [kind, body] = Object.entries(action)[0] ?? [];
    if (kind === undefined) continue;
    const b = (body ?? {}) as Record<string, unknown>;
    if (kind === 'commitInfo') info = b;
    else if ((ROLES as readonly string[]).includes(kind)) {
      files.push({
        role: kind as CommitFile['role'],
        partitionValues: (b.partitionValues as Record<string, string | null> | undefined) ?? {},
        numRecords: recordsOf(b.stats),
        dataChange: typeof b.dataChange === 'boolean' ? b.dataChange : null,
        deletionVector: b.deletionVector !== undefined && b.deletionVector !== null,
      });
    } else if (kind === 'txn') other.push(`txn ${String(b.appId)} ${String(b.version)}`);
    else other.push(kind);
  }
  return {
    version,
    writer: writerTag(info) ?? null,
    operation: typeof info.operation === 'string' ? info.operation : null,
    operationParameters: parsedParameters(info.operationParameters),
    readVersion: typeof info.readVersion === 'number' ? info.readVersion : null,
    isolationLevel: typeof info.isolationLevel === 'string' ? info.isolationLevel : null,
    isBlindAppend: typeof info.isBlindAppend === 'boolean' ? info.isBlindAppend : null,
    files,
    otherActions: other,
  };
}

/** The commits after version 0 (the run's starting copy), in version order. */
export async function commitSummaries(dir: string): Promise<CommitSummary[]> {
  const t = await DeltaTable.open(dir);
  const out: CommitSummary[] = [];
  for (let v = 1; v <= t.version; v++) {
    out.push(summarizeCommit(v, (await readCommit(t.store, v)) as unknown as Record<string, unknown>[]));
  }
  return out;
}
