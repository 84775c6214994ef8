/**
 * What the lab measured for a pair of writers: every stored run of a race on the same base table
 * (with no table properties set) whose two writers do exactly these two changes. A pair raced together matches in either order;
 * a pair where one starts after the other matches only in that order.
 */
import type { WriterOperation, WriterSpec } from '@racelab/lab';
import type { Db } from '../db/prisma';
import type { RaceSpec } from './spec';

export interface Measured {
  races: number;
  runs: number;
  /** Runs in which the writer given first / second committed. */
  firstCommitted: number;
  secondCommitted: number;
  /** The losers' distinct error messages. */
  messages: string[];
  caseIds: string[];
}

/** JSON with every object's keys sorted, nested ones too: equal operations print equal. */
const canonical = (v: unknown): string =>
  v !== null && typeof v === 'object'
    ? Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
    : JSON.stringify(v);

/** An operation's identity: what it does (its set included), not what the writer is called. */
const sameOperation = (a: WriterOperation, b: WriterOperation) => canonical(a) === canonical(b);

export async function measuredOutcomes(
  db: Db,
  table: string,
  first: WriterSpec,
  second: WriterSpec,
): Promise<Measured> {
  const races = await db.race.findMany({
    where: { status: { in: ['DONE', 'CANCELLED', 'FAILED'] } },
    select: { caseId: true, spec: true, runs: { where: { status: 'DONE' }, select: { writers: true } } },
  });
  const out: Measured = { races: 0, runs: 0, firstCommitted: 0, secondCommitted: 0, messages: [], caseIds: [] };
  for (const race of races) {
    const c = (race.spec as unknown as RaceSpec).case;
    // Only races on the plain base table: a table property such as the isolation level changes outcomes.
    const plain = Object.keys(c.engine === 'delta' ? (c.properties ?? {}) : {}).length === 0;
    if (c.engine !== 'delta' || !plain || c.table !== table || c.writers.length !== 2 || race.runs.length === 0)
      continue;
    const a = c.writers.find((w) => sameOperation(w.operation, first.operation));
    const b = c.writers.find((w) => w !== a && sameOperation(w.operation, second.operation));
    if (!a || !b) continue;
    // Ordered races count only in their order; a race of two at the barrier counts either way.
    if (a.startAfter === b.name || (b.startAfter !== undefined && b.startAfter !== a.name)) continue;
    out.races++;
    if (race.caseId && !out.caseIds.includes(race.caseId)) out.caseIds.push(race.caseId);
    for (const run of race.runs) {
      out.runs++;
      const wa = run.writers.find((w) => w.name === a.name);
      const wb = run.writers.find((w) => w.name === b.name);
      if (wa?.committed) out.firstCommitted++;
      if (wb?.committed) out.secondCommitted++;
      for (const w of [wa, wb]) {
        if (w && !w.committed && w.errorMessage && !out.messages.includes(w.errorMessage))
          out.messages.push(w.errorMessage);
      }
    }
  }
  return out;
}
