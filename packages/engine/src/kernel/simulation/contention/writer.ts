/**
 * A simulated writer: where it is in its two loops (the application's tries, the library's attempts), what it
 * read, and when its commits arrive. Made from the model's groups in group order, so writer ids number them.
 */
import { quantileSampler } from '../../statistics/quantiles';
import type { ContentionModel, ContentionPolicy } from './model';

/** Where a writer is in its loops; its next event continues from here. */
export type Step = 'commit' | 'try' | 'list' | 'claim' | 'done';

export interface Writer {
  group: number;
  policy: ContentionPolicy;
  attempt: (u: number) => number;
  prepare: (u: number) => number;
  /** Mean gap between arrivals (ms); 0 for a closed loop. */
  gapMs: number;
  poisson: boolean;
  /** The arrival times of a spread writer's commits, in order; null otherwise. */
  arrivals: number[] | null;
  made: number;
  background: boolean;
  commitsLeft: number;
  nextArrival: number;
  step: Step;
  appTry: number;
  libraryAttempt: number;
  readVersion: number;
  /** Attempts made by the current commit, over all its tries. */
  attempts: number;
  /** Set at the listing: why the attempt ends in a refusal instead of a claim. */
  refusal: string | null;
  /** The window of the current attempt, from its listing to its claim (ms), when it was drawn before the listing. */
  claimMs: number;
}

/** Every writer of the model, in group order; a spread group draws its arrival times here. */
export function writersOf(model: ContentionModel, random: () => number): Writer[] {
  const writers: Writer[] = [];
  model.groups.forEach((g, group) => {
    for (let i = 0; i < g.count; i++) {
      const background = g.commits === 'background';
      const gapMs = g.arrivalPerSec && g.arrivalPerSec > 0 ? 1000 / g.arrivalPerSec : 0;
      const spread = typeof g.arrival === 'object' && !background ? g.arrival.spreadOverMs : null;
      const arrivals =
        spread === null
          ? null
          : Array.from({ length: g.commits as number }, () => random() * spread).sort((a, b) => a - b);
      writers.push({
        group,
        policy: g.policy,
        attempt: quantileSampler(g.attemptMs),
        prepare: quantileSampler(g.prepareMs),
        gapMs,
        poisson: g.arrival === 'poisson',
        arrivals,
        made: 0,
        background,
        commitsLeft: background ? Number.POSITIVE_INFINITY : (g.commits as number),
        nextArrival: 0,
        step: 'commit',
        appTry: 0,
        libraryAttempt: 0,
        readVersion: -1,
        attempts: 0,
        refusal: null,
        claimMs: 0,
      });
    }
  });
  return writers;
}

/** When the writer's next commit arrives, counted from the release. */
export function arrivalAfter(w: Writer, previous: number, random: () => number): number {
  if (w.arrivals) return w.arrivals[w.made] ?? previous;
  if (w.gapMs === 0) return previous;
  if (w.poisson) return previous - Math.log(1 - random()) * w.gapMs;
  return w.made === 0 ? 0 : previous + w.gapMs;
}
