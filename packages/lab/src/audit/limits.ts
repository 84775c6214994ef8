/**
 * Bounds on an audit's pairwise work. Every check that compares jobs two by two grows with the square
 * of the jobs on a table (500 jobs on one table are 249,500 ordered pairs, each a DuckDB forecast), so
 * each gets a budget fixed before it starts and stops at it; what it left out is reported with the
 * audit (JobAudit.skipped), never silently dropped.
 */

/** Ordered pairs forecast per audit: each is a simulated commit counted with DuckDB (~20 ms at scale 0.01). */
export const MAX_PAIR_FORECASTS = 200;
/** Pairs of predicated jobs whose files are compared per audit (and, for those sharing files, a partition column sought). */
export const MAX_SHARED_FILE_PAIRS = 200;
/**
 * Runs walked per audit to find overlapping schedules. A job's runs are bounded by MAX_DURATION_MINUTES (the
 * manifest's check): a pair of `* * * * *` jobs lasting 7 days, the worst a manifest may hold, walks 40,320.
 */
export const MAX_SCHEDULE_RUNS = 2_000_000;
/**
 * Writer instances simulated per audit by the contention forecast (contention.ts). A table's forecast grows with
 * its rated jobs' instances (concurrency up to 1,000 each) and is repeated for every fix tried: 20 jobs of 1,000
 * instances took 198 s unbounded. At 512 instances an audit's forecasts stay around a second or two.
 */
export const MAX_SIMULATED_WRITERS = 512;

/** A check that stopped at its limit: how many pairs it looked at and how many it left out. */
export interface SkippedWork {
  /** 'pair-forecasts', 'shared-files', 'schedule-overlaps' or 'contention-forecasts'. */
  check: string;
  checked: number;
  skipped: number;
  /** What was left out and why, for people. */
  note: string;
}

/** The budget of one check; `take` is asked before each pair's work, never after. */
export class PairBudget {
  checked = 0;
  skipped = 0;
  private spent = 0;

  constructor(
    readonly check: string,
    private readonly limit: number,
    /** How the note reads: '<did> 200 of 1,000 <pairs> (at most 200 <limit> per audit)…'. */
    private readonly wording: { did: string; pairs: string; limit: string },
  ) {}

  /**
   * Whether a pair costing `cost` may be checked. Once one is refused so is every later one, so the
   * note's "the first N" stays true (pairs come in the order of `pairsInOrder`).
   */
  take(cost = 1): boolean {
    if (this.skipped > 0 || this.spent + cost > this.limit) {
      this.skipped++;
      return false;
    }
    this.spent += cost;
    this.checked++;
    return true;
  }

  /** Work spent so far, in the budget's unit (pairs, or runs walked): what a test of the bound asserts on. */
  get used(): number {
    return this.spent;
  }

  /** The note for the audit, or null when nothing was left out. */
  skippedWork(): SkippedWork | null {
    if (this.skipped === 0) return null;
    const n = (x: number) => x.toLocaleString('en-US');
    const { did, pairs, limit } = this.wording;
    return {
      check: this.check,
      checked: this.checked,
      skipped: this.skipped,
      note: `${did} ${n(this.checked)} of ${n(this.checked + this.skipped)} ${pairs} (at most ${n(this.limit)} ${limit} per audit); the ${n(this.skipped)} after them were left out (tables with fewer jobs first, then jobs in manifest order)`,
    };
  }
}

/** The audit's budgets, fresh for each audit. */
export function auditBudgets() {
  return {
    forecasts: new PairBudget('pair-forecasts', MAX_PAIR_FORECASTS, {
      did: 'forecast',
      pairs: 'ordered pairs of jobs on one table',
      limit: 'forecasts',
    }),
    sharedFiles: new PairBudget('shared-files', MAX_SHARED_FILE_PAIRS, {
      did: 'compared the files of',
      pairs: 'pairs of jobs with predicates on one table',
      limit: 'pairs',
    }),
    schedules: new PairBudget('schedule-overlaps', MAX_SCHEDULE_RUNS, {
      did: 'compared the schedules of',
      pairs: 'pairs of scheduled jobs on one table whose forecast fails',
      limit: 'runs walked',
    }),
    contention: new PairBudget('contention-forecasts', MAX_SIMULATED_WRITERS, {
      did: 'forecast the contention of',
      pairs: 'tables with rated jobs',
      limit: 'simulated writer instances',
    }),
  };
}

export type AuditBudgets = ReturnType<typeof auditBudgets>;

/**
 * Pairs (i < k) of `n` items, every pair among the first items before any pair with a later one:
 * (0,1), (0,2), (1,2), (0,3)… A budget that stops part-way has then covered the first jobs completely.
 */
export function* pairsInOrder(n: number): Generator<[number, number]> {
  for (let k = 1; k < n; k++) for (let i = 0; i < k; i++) yield [i, k];
}
