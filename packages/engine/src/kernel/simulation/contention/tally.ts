/**
 * Each group's commits as they end (acknowledged or failed, with their attempts and the application's tries), and
 * the outcome they add up to.
 */
import type { GroupOutcome } from './model';

interface GroupTally {
  intended: number;
  acknowledged: number;
  failed: number;
  attempts: number;
  histogram: Map<number, number>;
  failures: Map<string, number>;
  /** Commits by `attempts,tries`, landed or failed. */
  paths: Map<string, number>;
}

export class Tally {
  private readonly groups: GroupTally[];

  constructor(groups: number) {
    this.groups = Array.from({ length: groups }, () => ({
      intended: 0,
      acknowledged: 0,
      failed: 0,
      attempts: 0,
      histogram: new Map<number, number>(),
      failures: new Map<string, number>(),
      paths: new Map<string, number>(),
    }));
  }

  /**
   * One commit of `group` ended after `attempts` attempts in `tries` tries of the application loop: landed (failure
   * null) or failed with that message.
   */
  record(group: number, attempts: number, tries: number, failure: string | null): void {
    const out = this.groups[group] as GroupTally;
    out.intended++;
    out.attempts += attempts;
    const path = `${attempts},${tries}`;
    out.paths.set(path, (out.paths.get(path) ?? 0) + 1);
    if (failure === null) {
      out.acknowledged++;
      out.histogram.set(attempts, (out.histogram.get(attempts) ?? 0) + 1);
    } else {
      out.failed++;
      out.failures.set(failure, (out.failures.get(failure) ?? 0) + 1);
    }
  }

  /** The groups' outcomes: attempts histogram by attempts, failures most frequent first. */
  outcomes(): GroupOutcome[] {
    return this.groups.map((o) => ({
      intended: o.intended,
      acknowledged: o.acknowledged,
      failed: o.failed,
      attempts: o.attempts,
      histogram: [...o.histogram].sort((a, b) => a[0] - b[0]).map(([attempts, commits]) => ({ attempts, commits })),
      failures: [...o.failures].sort((a, b) => b[1] - a[1]).map(([message, count]) => ({ message, count })),
      paths: [...o.paths]
        .map(([path, commits]) => {
          const [attempts, tries] = path.split(',').map(Number) as [number, number];
          return { attempts, tries, commits };
        })
        .sort((a, b) => a.attempts - b.attempts || a.tries - b.tries),
    }));
  }
}
