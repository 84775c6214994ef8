/**
 * How /audit groups a jobs audit's findings: a job's own under it, a finding about several jobs once
 * for those jobs together, never repeated under each of them.
 */
import { describe, expect, it } from 'vitest';
import { groupFindings } from '../lib/finding-groups';

const finding = (rule: string, ...jobs: string[]) => ({ rule, jobs });

describe('groupFindings', () => {
  it('lists a one-job finding under its job, and a shared one once under its jobs in manifest order', () => {
    const jobs = ['backfill', 'compaction', 'appender', 'gdpr'];
    const { own, shared } = groupFindings(
      [
        finding('no-redo-on-conflict', 'backfill'),
        finding('schedules-overlap', 'gdpr', 'appender'),
        finding('check-then-append', 'appender'),
        finding('no-vacuum', 'backfill', 'compaction', 'appender', 'gdpr'),
        finding('predicates-share-files', 'appender', 'gdpr'),
      ],
      jobs,
    );
    expect([...own].map(([job, fs]) => [job, fs.map((f) => f.rule)])).toEqual([
      ['backfill', ['no-redo-on-conflict']],
      ['appender', ['check-then-append']],
    ]);
    expect(shared.map((g) => [g.jobs, g.findings.map((f) => f.rule)])).toEqual([
      [['backfill', 'compaction', 'appender', 'gdpr'], ['no-vacuum']],
      [
        ['appender', 'gdpr'],
        ['schedules-overlap', 'predicates-share-files'],
      ],
    ]);
    // Every finding shows exactly once.
    expect([...own.values()].flat().length + shared.flatMap((g) => g.findings).length).toBe(5);
  });

  it('keeps a finding naming no job (a table’s) as a group of its own, after the jobs', () => {
    const { own, shared } = groupFindings([finding('no-vacuum'), finding('x', 'a', 'b')], ['a', 'b']);
    expect(own.size).toBe(0);
    expect(shared.map((g) => g.jobs)).toEqual([['a', 'b'], []]);
  });
});
