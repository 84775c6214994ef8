/**
 * Attempts under an application retry loop, compared as distributions. When writers with a retry loop race one
 * another, how many tries each needs depends on when each lands, on either side alike (D1's four updates: {1,1,2,3}
 * in one run, {1,1,3,4} in the next, emulated and real), so their exact attempts leave the runs' observations
 * (observation.ts) and are checked here instead, run by run and side against side:
 * - each such writer's attempts lie within 1 … its retry loop;
 * - the run's first commit, when it is such a writer's, took one attempt;
 * - each try a writer lost, it lost to another commit: its attempts − 1 are at most the commits that landed before
 *   its own (for a writer that committed), or all the run's commits (for one that did not);
 * - the run's commits are as many as the writers that committed, where the run lists its commits;
 * - one side retrying in some run while the other never retries in any is a difference.
 * Which writers these are comes from the case's specs, never its id: a retry loop of two tries or more, racing at
 * least one other writer from the barrier (neither sequenced by startAfter), and no injected fault (lostAnswer),
 * whose tries are not timing.
 */
import type { WriterSpec } from '../cases/catalog';
import type { RunResult } from '../results/types';

/** The writers whose attempts are timing, each with its retry loop's bound. */
export function timingAttemptWriters(writers: readonly WriterSpec[]): Map<string, number> {
  const sequenced = new Set(writers.flatMap((w) => (w.startAfter ? [w.name, w.startAfter] : [])));
  const racing = writers.filter((w) => !sequenced.has(w.name));
  if (racing.length < 2) return new Map();
  return new Map(
    racing
      .filter((w) => (w.retryLoop ?? 1) >= 2 && w.lostAnswer === undefined)
      .map((w) => [w.name, w.retryLoop as number] as const),
  );
}

/** The broken rules of one run: what the attempts of its retrying writers cannot be, whoever won. */
function runViolations(run: RunResult, bounds: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  const committed = run.writers.filter((w) => w.committed && w.version !== null);
  const versions = committed.map((w) => w.version as number);
  const first = committed.find((w) => w.version === Math.min(...versions));
  for (const w of run.writers) {
    const bound = bounds.get(w.name);
    if (bound === undefined) continue;
    if (w.attempts < 1 || w.attempts > bound) {
      out.push(`${w.name} made ${w.attempts} attempts, outside its retry loop's 1…${bound}`);
      continue;
    }
    if (w === first && w.attempts !== 1)
      out.push(`${w.name} landed the run's first commit but took ${w.attempts} attempts`);
    const before = w.committed && w.version !== null ? versions.filter((v) => v < (w.version as number)) : versions;
    if (w.attempts - 1 > before.length) {
      out.push(
        `${w.name} lost ${w.attempts - 1} tries with only ${before.length} other commit(s) ${w.committed ? 'before its own' : 'in the run'}`,
      );
    }
  }
  if (run.commits !== undefined && run.commits.length !== committed.length) {
    out.push(`${run.commits.length} commit(s) in the log for ${committed.length} writer(s) that committed`);
  }
  return out;
}

/** One run's attempts of the retrying writers, sorted: `{1,1,2,3}`. */
const attemptsOf = (run: RunResult, bounds: ReadonlyMap<string, number>): string =>
  `{${run.writers
    .filter((w) => bounds.has(w.name))
    .map((w) => w.attempts)
    .sort((a, b) => a - b)
    .join(',')}}`;

/** The differences in the attempts of a case's retrying writers, and the attempts each side saw, said as timing. */
export function attemptDifferences(
  writers: readonly WriterSpec[],
  emulated: readonly RunResult[],
  real: readonly RunResult[],
): { differences: string[]; timing: string[] } {
  const bounds = timingAttemptWriters(writers);
  if (bounds.size === 0) return { differences: [], timing: [] };
  const differences: string[] = [];
  const sides = [
    ['emulated', emulated],
    ['real', real],
  ] as const;
  for (const [side, runs] of sides) {
    for (const run of runs)
      for (const v of runViolations(run, bounds)) differences.push(`${side} run ${run.index}: ${v}`);
  }
  const retried = (runs: readonly RunResult[]) =>
    runs.filter((run) => run.writers.some((w) => bounds.has(w.name) && w.attempts > 1)).length;
  const [e, r] = [retried(emulated), retried(real)];
  if (emulated.length > 0 && real.length > 0 && (e === 0) !== (r === 0)) {
    differences.push(
      `retries under the retry loop: emulated retried in ${e} of ${emulated.length} runs, real in ${r} of ${real.length}`,
    );
  }
  const seen = sides.map(
    ([side, runs]) => `${side} ${runs.map((run) => attemptsOf(run, bounds)).join(' ') || '(no run)'}`,
  );
  return {
    differences,
    timing: [`attempts under the retry loop, per run (compared as distributions): ${seen.join('; ')}`],
  };
}
