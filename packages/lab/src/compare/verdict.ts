/**
 * The differential's verdict on one case: its emulated runs and its real runs, each read as a canonical
 * observation (observation.ts), compared as the sets of outcomes seen, since timing picks the winner in some
 * cases. Every observation one side saw and the other never did is a difference, said in words with the fields
 * where it parts from the other side's nearest observation, unless it is timing, listed apart: the other side saw
 * its very shape with other symmetric writers winning, or never saw these writers win but saw the same outcome
 * (as many committing, failing and with nothing to commit) with others winning. The same winners with other
 * details, or another outcome, is always a difference. Attempts of retry loops racing each other are timing too, and
 * are compared as distributions (attempts.ts), and so are the order their commits land in and what each of those
 * read and rewrote, which follows from the order: another order with all else equal is listed as timing.
 */
import type { WriterSpec } from '../cases/catalog';
import type { CaseResult, RunResult } from '../results/types';
import { attemptDifferences, timingAttemptWriters } from './attempts';
import { canonicalObservation, canonicalShape, type RunObservation } from './observation';
import { type Renaming, renamings } from './symmetry';

export interface CaseVerdict {
  id: string;
  agree: boolean;
  differences: string[];
  /**
   * Outcomes one side saw with other symmetric writers winning than the other side saw (the same shape, with
   * the figures the winners' data leaves): timing, said but not a difference.
   */
  timing: string[];
}

/** The most fields named per difference. */
const MAX_FIELDS = 12;

/** An observation's fields by path (`writers[0].outcome`, `commits[1].readVersion`), leaves as JSON. */
function flatten(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !(Array.isArray(value) && value.length === 0)) {
    for (const [k, v] of Object.entries(value))
      flatten(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

/** Where `a` and `b` differ, field by field. */
export function fieldDifferences(a: RunObservation, b: RunObservation): { path: string; a?: string; b?: string }[] {
  const fa = flatten(a);
  const fb = flatten(b);
  const paths = [...new Set([...fa.keys(), ...fb.keys()])].sort();
  return paths
    .filter((p) => fa.get(p) !== fb.get(p))
    .map((p) => ({ path: p, ...(fa.has(p) && { a: fa.get(p) }), ...(fb.has(p) && { b: fb.get(p) }) }));
}

/** "vendor1 committed; vendor2 failed (CommitFailedError), 2 attempts" */
function outcomeWords(o: RunObservation): string {
  return o.writers
    .map(
      (w) =>
        `${w.name} ${w.outcome}${w.errorClass ? ` (${w.errorClass})` : ''}${(w.attempts ?? 1) > 1 ? `, ${w.attempts} attempts` : ''}`,
    )
    .join('; ');
}

/** An observation without the landings of retrying writers' commits (observation.ts). */
const withoutLandings = (o: RunObservation): RunObservation => ({ ...o, landings: [] });

interface Seen {
  obs: RunObservation;
  /** Its canonical shape, as JSON. */
  shape: string;
  /** The writers that committed, by their own names. */
  winners: string;
  /** How many writers committed, failed, had nothing to commit: the outcome whoever won. */
  pattern: string;
  runs: number;
}

function distinct(
  runs: readonly RunResult[],
  r: readonly Renaming[],
  timingAttempts: ReadonlySet<string>,
): Map<string, Seen> {
  const out = new Map<string, Seen>();
  for (const run of runs) {
    const obs = canonicalObservation(run, r, timingAttempts);
    const key = JSON.stringify(obs);
    const seen = out.get(key);
    const winners = run.writers
      .filter((w) => w.committed)
      .map((w) => w.name)
      .sort()
      .join(',');
    const pattern = obs.writers
      .map((w) => w.outcome)
      .sort()
      .join(',');
    out.set(key, {
      obs,
      shape: JSON.stringify(canonicalShape(run, r, timingAttempts)),
      winners,
      pattern,
      runs: (seen?.runs ?? 0) + 1,
    });
  }
  return out;
}

function onlyOn(
  side: 'emulated' | 'real',
  mine: Map<string, Seen>,
  theirs: Map<string, Seen>,
): { differences: string[]; timing: string[] } {
  const other = side === 'emulated' ? 'real' : 'emulated';
  const out: string[] = [];
  const timing: string[] = [];
  // Winners up to renaming: a symmetric writer's win is the other's too, and no excuse for other details.
  const renamedWinners = (o: RunObservation) =>
    o.writers
      .filter((w) => w.outcome === 'committed')
      .map((w) => w.name)
      .join(',');
  const seenWinners = new Set([...theirs.values()].map((t) => renamedWinners(t.obs)));
  for (const [key, { obs, runs, shape, winners, pattern }] of mine) {
    if (theirs.has(key)) continue;
    // Retry loops racing each other land in the order timing picks; what each commit read and rewrote follows it.
    const landed = (o: RunObservation) => o.landings.map((l) => `v${l.readVersion}+${l.files.length}`).join(' ');
    const otherLandings = [...theirs.values()].find(
      (t) => JSON.stringify(withoutLandings(t.obs)) === JSON.stringify(withoutLandings(obs)),
    );
    if (otherLandings) {
      timing.push(
        `${side} saw the retrying writers' commits land as [${landed(obs)}] (read version+files, ${runs} run${runs === 1 ? '' : 's'}); ${other} saw the same outcome, commits and table with them landing as [${landed(otherLandings.obs)}]: timing picks the order`,
      );
      continue;
    }
    const sameShape = [...theirs.values()].find((t) => t.shape === shape && t.winners !== winners);
    if (sameShape) {
      timing.push(
        `${side} saw ${winners || 'no writer'} commit where ${other} saw ${sameShape.winners || 'no writer'} (same outcome up to renaming; the figures follow the winners' data)`,
      );
      continue;
    }
    // The same outcome with another winner (C1: the compaction or the update), never seen with this one on the
    // other side: which one wins is timing. With as many committing, failing and idle, it is no difference.
    const samePattern = [...theirs.values()].find((t) => t.pattern === pattern);
    if (!seenWinners.has(renamedWinners(obs)) && samePattern) {
      timing.push(
        `${side} saw ${outcomeWords(obs)} (${runs} run${runs === 1 ? '' : 's'}); ${other} never saw ${winners || 'no writer'} win, only ${samePattern.winners || 'no writer'} in the same outcome: timing picks the winner`,
      );
      continue;
    }
    const nearest = [...theirs.values()]
      .map((t) => fieldDifferences(obs, t.obs))
      .sort((x, y) => x.length - y.length)[0];
    const head = `${side} only (${runs} run${runs === 1 ? '' : 's'}): ${outcomeWords(obs)}`;
    if (nearest === undefined) {
      out.push(`${head}; ${other} has no run`);
      continue;
    }
    const fields = nearest
      .slice(0, MAX_FIELDS)
      .map((f) => `${f.path}: ${side} ${f.a ?? '(absent)'}, ${other} ${f.b ?? '(absent)'}`);
    const more = nearest.length > MAX_FIELDS ? [`… and ${nearest.length - MAX_FIELDS} more fields`] : [];
    out.push([`${head}; against ${other}'s nearest run:`, ...fields.map((f) => `  ${f}`), ...more].join('\n'));
  }
  return { differences: out, timing };
}

/** The verdict on a case: `emulated` and `real` are its results from the two runs, `writers` its writer specs. */
export function compareCase(writers: readonly WriterSpec[], emulated: CaseResult, real: CaseResult): CaseVerdict {
  const r = renamings(writers);
  const timingAttempts = new Set(timingAttemptWriters(writers).keys());
  const e = distinct(emulated.runs, r, timingAttempts);
  const x = distinct(real.runs, r, timingAttempts);
  const [a, b] = [onlyOn('emulated', e, x), onlyOn('real', x, e)];
  const attempts = attemptDifferences(writers, emulated.runs, real.runs);
  const differences = [...a.differences, ...b.differences, ...attempts.differences];
  const timing = [...a.timing, ...b.timing, ...attempts.timing];
  return { id: emulated.id, agree: differences.length === 0, differences, timing };
}
