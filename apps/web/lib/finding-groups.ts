/**
 * A jobs audit's findings as /audit groups them: each job's own findings under it, and each finding
 * that names several jobs once, under those jobs together (a pair's overlap, a table's missing
 * vacuum), never repeated as every one of their errors.
 */

/** Jobs that share findings, in the manifest's order, with the findings naming exactly them. */
export interface SharedGroup<F> {
  jobs: string[];
  findings: F[];
}

export interface FindingGroups<F> {
  /** Findings naming one job, by job. */
  own: Map<string, F[]>;
  /** Findings naming several jobs (or none: a table's), one group per set of jobs, ordered by their first job. */
  shared: SharedGroup<F>[];
}

export function groupFindings<F extends { jobs: readonly string[] }>(
  findings: readonly F[],
  jobOrder: readonly string[],
): FindingGroups<F> {
  const position = (job: string) => {
    const i = jobOrder.indexOf(job);
    return i === -1 ? jobOrder.length : i;
  };
  const own = new Map<string, F[]>();
  const shared = new Map<string, SharedGroup<F>>();
  for (const f of findings) {
    if (f.jobs.length === 1) {
      const job = f.jobs[0] as string;
      own.set(job, [...(own.get(job) ?? []), f]);
      continue;
    }
    const jobs = [...new Set(f.jobs)].sort((a, b) => position(a) - position(b));
    const key = JSON.stringify(jobs);
    const group = shared.get(key) ?? { jobs, findings: [] };
    group.findings.push(f);
    shared.set(key, group);
  }
  const order = (g: SharedGroup<F>) => (g.jobs.length === 0 ? jobOrder.length : position(g.jobs[0] as string));
  return {
    own,
    shared: [...shared.values()].sort((a, b) => order(a) - order(b) || a.jobs.length - b.jobs.length),
  };
}
