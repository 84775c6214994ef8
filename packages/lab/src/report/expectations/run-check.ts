/** One stored run under check: its mismatches, and the small comparisons every case group uses. */
import type { RunResult, WriterResult } from '../../results/types';
import type { Figures } from './types';

/** Tip sums are sums of floats: a vendor's delta is n within 1e-6·n. */
const RELATIVE_TOLERANCE = 1e-6;

export function fmt(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return 'nothing';
  return JSON.stringify(v);
}

export class RunCheck {
  readonly mismatches: string[] = [];
  readonly notes: string[] = [];

  constructor(
    readonly caseId: string,
    readonly run: RunResult,
    readonly fig: Figures,
  ) {}

  get table() {
    return this.run.table;
  }

  fail(what: string): void {
    this.mismatches.push(`${this.caseId} run ${this.run.index}: ${what}`);
  }

  /** A remark, not a mismatch; the printout counts equal remarks over a case's runs ("commit order 6, 7, 1, 2"). */
  note(what: string): void {
    this.notes.push(what);
  }

  writer(name: string): WriterResult | undefined {
    return this.run.writers.find((w) => w.name === name);
  }

  /** Exact comparison; `what` names the quantity, `how` (optional) says where the expected value comes from. */
  equal(what: string, expected: unknown, got: unknown, how?: string): boolean {
    if (Object.is(expected, got)) return true;
    this.fail(`${what} differs: expected ${fmt(expected)}${how ? ` (${how})` : ''}, got ${fmt(got)}`);
    return false;
  }

  /** A float sum that should be `expected`, within 1e-6 of `size` (the number of trips it sums over). */
  approx(what: string, expected: number, got: number | undefined, size: number, how?: string): boolean {
    const tolerance = RELATIVE_TOLERANCE * Math.max(1, Math.abs(size), Math.abs(expected));
    if (got !== undefined && Math.abs(got - expected) <= tolerance) return true;
    this.fail(
      `${what} differs: expected ${fmt(expected)}${how ? ` (${how})` : ''} ±${tolerance.toPrecision(2)}, got ${fmt(got)}`,
    );
    return false;
  }

  /** Counts of January trips of one vendor (0 when the data has none). */
  vendor(v: string): number {
    return this.fig.byVendor[v] ?? 0;
  }
}
