/**
 * What the lab measured for a pair of writers: every stored run of a race on the same base table, with
 * exactly the given table properties, whose two writers do exactly these two changes, in either order.
 * A prediction says what SECOND does once FIRST has committed, so each run is counted under the order
 * its commits took (`inOrder`: FIRST's commit landed first), and only those runs compare with it.
 */
import { writerOutcomeOf } from '@racelab/contracts';
import { onBaseTable, type WriterOperation, type WriterSpec } from '@racelab/lab';
import type { Db } from '../db/prisma';
import { specOf } from './spec';

/** The runs of one commit order. */
export interface OrderTally {
  runs: number;
  /** Runs in which the writer given first / second committed. */
  firstCommitted: number;
  secondCommitted: number;
  /** Runs in which it ended with nothing to commit (no failure: e.g. its predicate matched no rows). */
  firstNothingToCommit: number;
  secondNothingToCommit: number;
  /** The losers' distinct error messages. */
  messages: string[];
}

export interface Measured {
  races: number;
  /** Every run of the pair, whatever its order, and the tallies over all of them. */
  runs: number;
  firstCommitted: number;
  secondCommitted: number;
  firstNothingToCommit: number;
  secondNothingToCommit: number;
  messages: string[];
  caseIds: string[];
  /** Runs in which FIRST went first: its commit is in the log before SECOND's, or SECOND started after it. */
  inOrder: OrderTally;
  /** Runs in which SECOND went first. */
  otherOrder: OrderTally;
  /** Runs of two writers released together in which neither committed: they have no order. */
  neitherCommitted: number;
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

interface StoredWriter {
  name: string;
  committed: boolean;
  version: number | null;
  errorMessage: string | null;
  warnings: string[];
}

type Side = 'first' | 'second';

/**
 * Which writer went first in one run. Two commits are ordered by their log versions. Otherwise a race
 * that started one writer after the other ran in that order, whatever came of the leader; in a race
 * of two released together, the one that committed went first, and with no commit there is no order.
 */
function runOrder(first: StoredWriter | undefined, second: StoredWriter | undefined, leader: Side | null): Side | null {
  if (first?.committed && second?.committed && first.version !== null && second.version !== null)
    return first.version < second.version ? 'first' : 'second';
  if (leader) return leader;
  if (first?.committed) return 'first';
  if (second?.committed) return 'second';
  return null;
}

const emptyTally = (): OrderTally => ({
  runs: 0,
  firstCommitted: 0,
  secondCommitted: 0,
  firstNothingToCommit: 0,
  secondNothingToCommit: 0,
  messages: [],
});
const nothingToCommit = (w: StoredWriter | undefined) => w !== undefined && writerOutcomeOf(w) === 'nothing-to-commit';

function count(tally: OrderTally, first: StoredWriter | undefined, second: StoredWriter | undefined) {
  tally.runs++;
  if (first?.committed) tally.firstCommitted++;
  if (second?.committed) tally.secondCommitted++;
  if (nothingToCommit(first)) tally.firstNothingToCommit++;
  if (nothingToCommit(second)) tally.secondNothingToCommit++;
  for (const w of [first, second]) {
    if (w && !w.committed && w.errorMessage && !tally.messages.includes(w.errorMessage))
      tally.messages.push(w.errorMessage);
  }
}

/** `properties`: the table properties the race set on its copy (none: the plain base table). */
export async function measuredOutcomes(
  db: Db,
  table: string,
  first: WriterSpec,
  second: WriterSpec,
  properties: Record<string, string> = {},
): Promise<Measured> {
  const races = await db.race.findMany({
    where: { status: { in: ['DONE', 'CANCELLED', 'FAILED'] } },
    select: {
      caseId: true,
      spec: true,
      runs: {
        where: { status: 'DONE' },
        select: {
          writers: { select: { name: true, committed: true, version: true, errorMessage: true, warnings: true } },
        },
      },
    },
  });
  const all = emptyTally();
  const inOrder = emptyTally();
  const otherOrder = emptyTally();
  const caseIds: string[] = [];
  let matched = 0;
  let neitherCommitted = 0;
  const wanted = canonical(properties);
  for (const race of races) {
    // A race on a table of one's own is never a lab table's: its data is not the lab's.
    const c = onBaseTable(specOf(race.spec).case);
    // A table property such as the isolation level changes outcomes: only races on the same table count.
    if (c === null || canonical(c.properties ?? {}) !== wanted) continue;
    if (c.table !== table || c.writers.length !== 2 || race.runs.length === 0) continue;
    const a = c.writers.find((w) => sameOperation(w.operation, first.operation));
    const b = c.writers.find((w) => w !== a && sameOperation(w.operation, second.operation));
    if (!a || !b) continue;
    const leader = b.startAfter === a.name ? 'first' : a.startAfter === b.name ? 'second' : null;
    matched++;
    if (race.caseId && !caseIds.includes(race.caseId)) caseIds.push(race.caseId);
    for (const run of race.runs) {
      const wa = run.writers.find((w) => w.name === a.name);
      const wb = run.writers.find((w) => w.name === b.name);
      count(all, wa, wb);
      const order = runOrder(wa, wb, leader);
      if (order === null) neitherCommitted++;
      else count(order === 'first' ? inOrder : otherOrder, wa, wb);
    }
  }
  return { races: matched, ...all, caseIds, inOrder, otherOrder, neitherCommitted };
}
