/**
 * A race's verdicts in one line a person reads at a glance ("data OK in 5 of 5", "7,929 rows written twice
 * in 1 of 1"): the runs grouped by their verdict's own words (the lab's, so that a run reads the same in the
 * CLI, the report and here), each group counted against the runs the race asked for (as the dashboard's
 * outcome wording counts them), the good before the bad. A failed writer's untouched rows are named too: a
 * lost delete leaves the table's data OK and is still news for a team. */
import type { RunVerdict } from '@racelab/lab';

type Status = RunVerdict['status'];
/** What the line is made of: any verdict, as the lab gives it or as it is stored. */
type Words = Pick<RunVerdict, 'status' | 'summary' | 'failedWriters' | 'nothingToCommit'>;
const RANK: Record<Status, number> = { serializable: 0, reordered: 1, 'not-serializable': 2 };
const FAILED_WRITERS = 3;

/** The worst status among the runs' verdicts (for styling), or null when no run has one. */
export function worstVerdict(verdicts: (Words | null)[]): Status | null {
  let worst: Status | null = null;
  for (const v of verdicts) if (v && (worst === null || RANK[v.status] > RANK[worst])) worst = v.status;
  return worst;
}

/** The race's verdicts in words, or null when no run has a verdict (runs stored before the oracle, or none yet). */
export function verdictSummary(verdicts: (Words | null)[], runsRequested: number): string | null {
  const groups = new Map<string, { rank: number; aside: boolean; runs: number }>();
  const add = (text: string, rank: number, aside: boolean) => {
    const g = groups.get(text) ?? { rank, aside, runs: 0 };
    g.runs++;
    groups.set(text, g);
  };
  for (const v of verdicts) {
    if (!v) continue;
    // A reordered run's words end in a clause of their own ("…, as WriteSerializable allows"): counted aside.
    add(v.summary, RANK[v.status], v.status === 'reordered');
    // After every verdict on the table itself: a failed writer's check says what it left, not what the table is.
    for (const f of v.failedWriters) add(f.summary, FAILED_WRITERS, true);
    // A writer with nothing to commit is no failure, said last all the same: the team meant it to change rows.
    for (const n of v.nothingToCommit ?? []) add(n.summary, FAILED_WRITERS, true);
  }
  if (groups.size === 0) return null;
  return [...groups.entries()]
    .sort((a, b) => a[1].rank - b[1].rank)
    .map(([text, g]) =>
      g.aside ? `${text} (${g.runs} of ${runsRequested})` : `${text} in ${g.runs} of ${runsRequested}`,
    )
    .join('; ');
}
