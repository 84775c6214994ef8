/**
 * A command writer's outcome as the Delta log tells it: the job committed when a commit tagged with its name is in
 * the log (commitInfo.writer, which racelab_barrier.commit_properties() puts there), at that commit's version, its
 * commit retries the versions between what it read and what it wrote. A job that ended well without one had
 * nothing to commit; when the log holds commits nobody tagged, the outcome says how to tag them.
 */
import { NOTHING_TO_COMMIT } from '@racelab/contracts';
import type { WriterSpec } from '../../cases/catalog';
import type { WriterResult } from '../../results/types';

/** A log entry commitOrder names `v<N>`: nobody tagged it. */
const UNTAGGED = /^v\d+$/;

export const UNTAGGED_WARNING =
  "the table holds commits no writer tagged: tag the job's commits with racelab_barrier.commit_properties()";

/** The version of the writer's last tagged commit in `logOrder` (writer names, version 1 first); 0 when none. */
export const taggedVersion = (name: string, logOrder: readonly string[]) => logOrder.lastIndexOf(name) + 1;

/** The results with each command writer's commit read from the log. */
export function withJobOutcomes(results: WriterResult[], specs: WriterSpec[], logOrder: string[]): WriterResult[] {
  const jobs = new Set(specs.filter((s) => s.operation.kind === 'command').map((s) => s.name));
  return results.map((w) => {
    if (!jobs.has(w.name)) return w;
    const version = taggedVersion(w.name, logOrder);
    if (version > 0) {
      const read = w.readVersion ?? null;
      return { ...w, committed: true, version, commitRetries: read === null ? null : version - read - 1 };
    }
    if (w.errorClass !== null) return { ...w, committed: false, version: null };
    const untagged = logOrder.some((n) => UNTAGGED.test(n)) ? [UNTAGGED_WARNING] : [];
    return { ...w, committed: false, version: null, warnings: [...w.warnings, ...untagged, NOTHING_TO_COMMIT] };
  });
}
