/**
 * The contention simulation's loop (the model: model.ts): every writer's first commit queued at its arrival,
 * then the earliest event taken and its writer's step done (writer-step.ts), until every writer that is not in
 * the background has made all its commits.
 */
import { seededRandom } from '../../retry/policy';
import { EventQueue } from './event-queue';
import { type ContentionModel, type ContentionOutcome, MAX_SIMULATED_ATTEMPTS_PER_COMMIT } from './model';
import { SharedCpus } from './shared-cpus';
import { Tally } from './tally';
import { arrivalAfter, writersOf } from './writer';
import { type Run, writerStep } from './writer-step';

/** Runs the model to the end: every non-background writer has made all its commits. */
export function simulateContention(model: ContentionModel): ContentionOutcome {
  const random = seededRandom(model.seed);
  const writers = writersOf(model, random);
  const queue = new EventQueue();
  const run: Run = {
    random,
    cap: model.maxAttemptsPerCommit ?? MAX_SIMULATED_ATTEMPTS_PER_COMMIT,
    conflicts: model.conflicts ?? (() => false),
    share: Math.min(1, Math.max(0, model.claimShare ?? 1)),
    owners: [-1],
    tally: new Tally(model.groups.length),
    cpus: new SharedCpus(model.cpus, queue),
    foreground: writers.filter((w) => !w.background && w.commitsLeft > 0).length,
    durationMs: 0,
  };
  writers.forEach((w, id) => {
    w.nextArrival = arrivalAfter(w, 0, random);
    if (w.commitsLeft > 0) queue.push(w.nextArrival, id);
    else w.step = 'done';
  });
  while (run.cpus.pending && run.foreground > 0) {
    const [now, id] = run.cpus.nextEvent();
    const next = writerStep(run, writers[id] as (typeof writers)[number], id, now);
    if (next !== null) queue.push(next, id);
  }
  return { durationMs: run.durationMs, groups: run.tally.outcomes() };
}
