/** Checks shared by the case groups: outcomes, error texts, the table afterwards. */
import type { TableFormatId } from '../../cases/catalog';
import type { WriterResult } from '../../results/types';
import { fmt, type RunCheck } from './run-check';

export interface CaseSpec {
  id: string;
  format: TableFormatId;
  /** The writer names the runner uses for this case. */
  writers: readonly string[];
  check(c: RunCheck): void;
  /** The run's serial-replay verdict, from the checker's own arithmetic; absent: serializable in commit order. */
  verdict?(c: RunCheck): ExpectedVerdict;
  /**
   * A case outside the lesson, recorded in its own results file (e.g. 'ambiguous-commits': G1–G3, in
   * docs/lab-results-ambiguous.json): checked when present, not listed as skipped when absent.
   */
  suite?: string;
  /**
   * A writer's commit may be in the log more than once (a lost answer, resent or redone): versions need not be
   * one per writer, and the commit order may name a writer twice.
   */
  commitsMayRepeat?: boolean;
}

export type ExpectedVerdict =
  | { status: 'serializable' }
  | { status: 'reordered'; order: readonly string[]; how: string }
  | { status: 'not-serializable'; rowsDuplicated: number; how: string };

function describe(w: WriterResult): string {
  if (w.committed) return `committed${w.version !== null ? ` at version ${w.version}` : ''}`;
  return `failed (${w.errorClass ?? 'no class'}: ${fmt((w.errorMessage ?? '').split('\n')[0])})`;
}

/** The writer must have committed (and, for Delta, at `version` when given). */
export function expectCommitted(c: RunCheck, name: string, version?: number): boolean {
  const w = c.writer(name);
  if (!w) return false;
  if (!w.committed) {
    c.fail(`${name} should have committed${version !== undefined ? ` at version ${version}` : ''}, but ${describe(w)}`);
    return false;
  }
  if (version !== undefined) return c.equal(`${name}'s version`, version, w.version);
  return true;
}

/** The writer must have failed with exactly this class and message (`prefix` / `contains`: a part of it). */
export function expectFailed(
  c: RunCheck,
  name: string,
  errorClass: string | null,
  message: string,
  match: 'exact' | 'prefix' | 'contains' = 'exact',
  role = 'loser',
): boolean {
  const w = c.writer(name);
  if (!w) return false;
  if (w.committed) {
    c.fail(`${name} should have failed, but ${describe(w)}`);
    return false;
  }
  let ok = true;
  if (errorClass !== null && w.errorClass !== errorClass) {
    c.fail(`${role} error class differs (${name}): expected ${fmt(errorClass)}, got ${fmt(w.errorClass)}`);
    ok = false;
  }
  const got = w.errorMessage ?? '';
  const matches =
    match === 'exact' ? got === message : match === 'prefix' ? got.startsWith(message) : got.includes(message);
  if (!matches || w.errorMessage === null) {
    const how = match === 'exact' ? '' : match === 'prefix' ? ' starting with' : ' containing';
    c.fail(`${role} message differs (${name}): expected${how} ${fmt(message)}, got ${fmt(w.errorMessage)}`);
    ok = false;
  }
  return ok;
}

/** Exactly one of the writers committed: returns it and the other (undefined, with a mismatch, otherwise). */
export function oneWinner(c: RunCheck, a: string, b: string): { winner: string; loser: string } | undefined {
  const wa = c.writer(a);
  const wb = c.writer(b);
  if (!wa || !wb) return undefined;
  if (wa.committed === wb.committed) {
    c.fail(`expected exactly one of ${a} and ${b} to commit, ${wa.committed ? 'both' : 'neither'} did`);
    return undefined;
  }
  return wa.committed ? { winner: a, loser: b } : { winner: b, loser: a };
}

export function expectRows(c: RunCheck, expected: number, how: string): void {
  c.equal('row count', expected, c.table.rows, how);
}

/** distinctTripIds must equal `expected` (each trip once unless the case duplicates); `required`: it must be there. */
export function expectDistinct(c: RunCheck, expected: number, required: boolean, how = 'each trip once'): void {
  const got = c.table.distinctTripIds;
  if (got === null) {
    if (required) c.fail(`distinctTripIds missing (needed to check ${how})`);
    return;
  }
  c.equal('distinctTripIds', expected, got, how);
}

/** tripsOnDay for the days given; `required` days must be present, others are checked when present. */
export function expectDays(c: RunCheck, expected: Record<string, number>, required: readonly string[] = []): void {
  for (const [day, n] of Object.entries(expected)) {
    const got = c.table.tripsOnDay?.[day];
    if (got === undefined) {
      if (required.includes(day)) c.fail(`tripsOnDay['${day}'] missing`);
      continue;
    }
    c.equal(`tripsOnDay['${day}']`, n, got);
  }
}

/**
 * Tips afterwards: `deltas` gives each changed vendor's expected sum of (tip now − original tip); every other
 * vendor's must be 0. Vendors in `required` must be reported. `step` is the one non-zero change per trip (1 for a
 * "+1" update, 2 for P2), or null when no tip changed; tipDeltaValues and tipChangedByVendor are checked when present.
 */
export function expectTips(
  c: RunCheck,
  deltas: Record<string, number>,
  required: readonly string[],
  step: number | null,
): void {
  const vendors = Object.keys(c.fig.byVendor);
  for (const v of vendors) {
    const expected = deltas[v] ?? 0;
    const got = c.table.tipDeltaByVendor?.[v];
    if (got === undefined) {
      if (required.includes(v)) c.fail(`tipDeltaByVendor['${v}'] missing`);
      continue;
    }
    c.approx(`tipDeltaByVendor['${v}']`, expected, got, c.vendor(v));
  }
  const changed = c.table.tipChangedByVendor;
  if (changed) {
    for (const v of vendors) {
      const got = changed[v];
      if (got === undefined) continue;
      const expected = (deltas[v] ?? 0) !== 0 ? c.vendor(v) : 0;
      c.equal(`tipChangedByVendor['${v}']`, expected, got, expected ? 'every trip of the vendor' : 'no trip');
    }
  }
  const values = c.table.tipDeltaValues;
  if (values) {
    const expected = step === null ? [] : [step];
    const ok =
      values.length === expected.length && values.every((x, i) => Math.abs(x - (expected[i] ?? Number.NaN)) < 1e-9);
    if (!ok) c.fail(`tipDeltaValues differ: expected ${fmt(expected)}, got ${fmt(values)}`);
  }
}

/** January trips per vendor still in the table, when reported: `expected` per vendor (default: all of them). */
export function expectVendorsKept(c: RunCheck, expected: Record<string, number> = c.fig.byVendor): void {
  const got = c.table.tripsByVendor;
  if (!got) return;
  for (const [v, n] of Object.entries(expected)) {
    const g = got[v];
    if (g === undefined) c.fail(`tripsByVendor['${v}'] missing`);
    else c.equal(`tripsByVendor['${v}']`, n, g);
  }
}

/** A Delta table that should hold January plus `added` trips, each once, with unchanged tips unless told. */
export function expectJanuaryPlus(c: RunCheck, added: number, how: string, distinctRequired = false): void {
  expectRows(c, c.fig.january + added, how);
  expectDistinct(c, c.fig.january + added, distinctRequired);
  expectVendorsKept(c);
}

export function expectTableVersion(c: RunCheck, version: number): void {
  if (c.table.version !== null) c.equal('table version', version, c.table.version);
}

/** The days the lab counts, on a table of January only. */
export function januaryDays(c: RunCheck): Record<string, number> {
  return { '2025-01-15': c.fig.jan15, '2025-02-01': 0, '2025-02-02': 0, '2025-02-14': 0 };
}

/** "vendor2" → "2". */
export function vendorOf(writer: string): string {
  return writer.replace(/^vendor/, '');
}

/** All the writers committed, at versions 1..n in some order. */
export function expectAllCommitted(c: RunCheck, names: readonly string[]): void {
  const ok = names.map((n) => expectCommitted(c, n)).every(Boolean);
  if (!ok) return;
  const versions = names.map((n) => c.writer(n)?.version ?? null).sort((a, b) => (a ?? 0) - (b ?? 0));
  const want = names.map((_, i) => i + 1);
  if (versions.some((v, i) => v !== want[i])) {
    c.fail(`versions differ: expected ${want.join(', ')}, got ${versions.join(', ')}`);
  }
}
