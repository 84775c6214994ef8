/**
 * The case list's two groups, one list everywhere (the CLI, its errors, the API's `cases`, the dashboard): the
 * lesson's cases, and the store cases, which show what a store's answers do to a race. A store case declares its
 * store by its `suite`; this says, for each, what that store is and where the case can run. A case that needs a
 * store the lab cannot make itself (one that ignores put-if-absent) runs only with its tables on S3, where such a
 * store can be put in front of the writers; elsewhere it is refused, since every put-if-absent would hold and the
 * race would show nothing of what it exists for.
 */
import type { LabCase } from './catalog';

export type CaseGroup = 'lesson' | 'store';

export interface StoreNeed {
  /** The store the case is about and where it runs, in words. */
  says: string;
  /** True: it runs only with run tables on S3 (a table root s3://…); false: the lab makes its store on any. */
  needsS3TableRoot: boolean;
}

type Suite = NonNullable<Extract<LabCase, { suite?: unknown }>['suite']>;

const STORES: Record<Suite, StoreNeed> = {
  's3-lying-store': {
    says: 'needs a store that ignores put-if-absent (a lying S3 store, as the fault proxy of npm run test:s3 makes): it runs only with its tables on S3 (a table root s3://…); a local disk always honours put-if-absent',
    needsS3TableRoot: true,
  },
  'ambiguous-commits': {
    says: "its writers' store loses the answer to a commit (an ambiguous commit): the lab wraps any store with that fault itself",
    needsS3TableRoot: false,
  },
};

const suiteOf = (c: LabCase): Suite | undefined => ('suite' in c ? c.suite : undefined);

export const caseGroup = (c: LabCase): CaseGroup => (suiteOf(c) === undefined ? 'lesson' : 'store');

/** What store a store case needs; null for a lesson case. */
export function storeNeed(c: LabCase): StoreNeed | null {
  const suite = suiteOf(c);
  return suite === undefined ? null : STORES[suite];
}

/** A case refused because the store it needs is not there: the message says which and how to give it. */
export class StoreNeededError extends Error {
  override name = 'StoreNeededError';
}

/** Refuses `c` when it needs a store this race does not have (`tableRoot`: where the run tables go, if not on disk). */
export function refuseWithoutStore(c: LabCase, tableRoot: string | undefined): void {
  const need = storeNeed(c);
  if (need?.needsS3TableRoot && !tableRoot?.toLowerCase().startsWith('s3://')) {
    throw new StoreNeededError(`${c.id} ${need.says}; start it with a table root on S3`);
  }
}

/** The one list in words: "the lesson's cases are A1, …; the store cases are H1, …". */
export function caseListText(cases: readonly LabCase[]): string {
  const ids = (g: CaseGroup) =>
    cases
      .filter((c) => caseGroup(c) === g)
      .map((c) => c.id)
      .join(', ');
  return `the lesson's cases are ${ids('lesson')}; the store cases are ${ids('store')}`;
}
