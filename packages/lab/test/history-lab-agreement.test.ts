/**
 * The re-judgement against what the lab measured: every preset pair of two Delta writers is raced once by the real
 * lab (writer processes, scale 0.01) under each isolation level, its table kept. Where SECOND's commit landed past
 * FIRST's (its own record: one attempt, a version moved past), its commit is re-judged from the kept log against the
 * versions it overlapped (from the writers' own records), and delta-rs's verdict at every level must be what the lab
 * measured at that level for the same order: committed at the first attempt, or refused. E1's table is searched for
 * duplicated trip_ids: every one is added once by each job's commit, and the two commits were concurrent.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  camelCaseSpelling,
  DeltaTable,
  ISOLATION_LEVELS,
  type IsolationLevel,
  readCommit,
  storeFor,
} from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { duplicateKeys } from '../src/audit/history/duplicates';
import { rejudge } from '../src/audit/history/rejudge';
import { CASES, type DeltaCase } from '../src/cases/catalog';
import { onBaseTable } from '../src/formats/registry';
import { runLab } from '../src/lab';
import type { RunResult, WriterResult } from '../src/results/types';
import { commitAt, rejudgeContext } from './helpers/history-commits';
import { noTlcDir, SMALL_SCALE, tempDir } from './helpers/small-base';

const work = tempDir('history-lab');

const PRESETS: DeltaCase[] = CASES.flatMap((c) => {
  const d = onBaseTable(c);
  return d && d.writers.length === 2 && d.suite === undefined ? [d] : [];
});

const idOf = (preset: DeltaCase, level: IsolationLevel) => `${preset.id}-${level}`;
const raced = new Map<string, RunResult>();

beforeAll(async () => {
  const cases = PRESETS.flatMap((p) =>
    ISOLATION_LEVELS.map((level) => ({
      ...p,
      id: idOf(p, level),
      properties: { ...(p.properties ?? {}), 'delta.isolationLevel': camelCaseSpelling(level) },
    })),
  );
  const results = await runLab({
    cases,
    runs: 1,
    scale: SMALL_SCALE,
    workDir: work,
    dataDir: noTlcDir(work),
    keepRuns: true,
  });
  for (const c of results.cases) if (c.runs[0]) raced.set(c.id, c.runs[0]);
}, 1_200_000);

/** The kept table of a case's one run. */
const tableDir = (id: string) => {
  const runs = join(work, 'runs');
  const found = readdirSync(runs).find((d) => d.startsWith(`${id}-1-`));
  if (!found) throw new Error(`no kept table for ${id}`);
  return join(runs, found);
};

/** SECOND (the writer whose commit landed last) and FIRST, by the run's own commit order. */
function order(run: RunResult): { first: WriterResult; second: WriterResult } | null {
  const [a, b] = run.commitOrder ?? [];
  const first = run.writers.find((w) => w.name === a);
  const second = run.writers.find((w) => w.name === (b ?? run.writers.find((w) => w.name !== a)?.name));
  return first && second ? { first, second } : null;
}

/** SECOND's first attempt passed the checker (it committed at once), or was refused: what the lab measured. */
const firstAttemptCommits = (w: WriterResult) => w.committed && w.attempts === 1;

describe('re-judged from the log, as the lab measured', () => {
  it('agrees with every preset pair raced under each level', async () => {
    const lines: string[] = [];
    let compared = 0;
    for (const preset of PRESETS) {
      const runs = ISOLATION_LEVELS.map((level) => ({ level, run: raced.get(idOf(preset, level)) }));
      // A run SECOND landed in concurrently: its readVersion recorded by itself, versions between taken by FIRST.
      const landed = runs.find(({ run }) => {
        const o = run && order(run);
        return o && firstAttemptCommits(o.second) && (o.second.commitRetries ?? 0) > 0 && o.second.readVersion != null;
      });
      if (!landed?.run) {
        lines.push(`${preset.id}: SECOND never landed past FIRST at its first attempt: nothing to re-judge`);
        continue;
      }
      const o = order(landed.run) as { first: WriterResult; second: WriterResult };
      const dir = tableDir(idOf(preset, landed.level));
      const version = o.second.version as number;
      const readVersion = o.second.readVersion as number;
      const overlapped = Array.from({ length: version - readVersion - 1 }, (_, i) => readVersion + 1 + i);
      const commit = { ...(await commitAt(dir, version, overlapped)), readVersion };
      const { rejudgements } = await rejudge([commit], await rejudgeContext(await DeltaTable.open(dir)));
      const [judged] = rejudgements;
      expect(judged?.cannotJudge, preset.id).toBeNull();
      for (const { level, run } of runs) {
        const same = run && order(run);
        // Only runs with the same commit order (and the lab's retries on) measure the same judgement.
        if (!same || same.second.name !== o.second.name || same.second.errorClass === 'MaxCommitAttempts') continue;
        if ((preset.writers.find((w) => w.name === o.second.name)?.maxCommitRetries ?? 15) === 0) continue;
        const measured = firstAttemptCommits(same.second);
        const verdict = judged?.judgements.find((j) => j.library === 'delta-rs' && j.level === level);
        lines.push(
          `${preset.id} ${level}: lab ${measured ? 'commit' : 'refused'}, re-judged ${verdict?.outcome}${verdict?.conflict ? ` (${verdict.conflict})` : ''}`,
        );
        expect(verdict?.outcome === 'commit', `${preset.id} under ${level}`).toBe(measured);
        compared++;
      }
    }
    console.log(lines.join('\n'));
    expect(compared).toBeGreaterThan(10);
  });

  it("finds E1's duplicated trip_ids, each added once by each job's commit, the two concurrent", async () => {
    const e1 = PRESETS.find((p) => p.id === 'E1') as DeltaCase;
    const id = idOf(e1, 'Serializable');
    const run = raced.get(id) as RunResult;
    const [a, b] = run.writers;
    expect(a?.committed && b?.committed).toBe(true);
    const dir = tableDir(id);
    const [v1, v2] = [a?.version as number, b?.version as number].sort((x, y) => x - y) as [number, number];
    const later = run.writers.find((w) => w.version === v2) as WriterResult;
    // The later job read before the earlier one landed: its own record says so.
    expect(later.readVersion).toBeLessThan(v1);
    const commits = await Promise.all(Array.from({ length: v2 + 1 }, (_, v) => commitAt(dir, v, v === v2 ? [v1] : [])));
    const { duplicates, findings } = await duplicateKeys(await DeltaTable.open(dir), ['trip_id'], {
      commits,
      readActions: (v) => readCommit(storeFor(dir), v),
      maxKeys: 5,
    });
    const appended = a?.filesAdded ?? 0;
    console.log(`E1: ${duplicates.distinct} trip_ids duplicated, versions ${v1} and ${v2}, ${appended} file(s) each`);
    expect(duplicates.distinct).toBeGreaterThan(0);
    expect(duplicates.keys).toHaveLength(5);
    for (const k of duplicates.keys) {
      expect(k.count).toBe(2);
      expect(k.addedBy.map((s) => [s.version, s.rows, s.concurrent])).toEqual([
        [v1, 1, true],
        [v2, 1, true],
      ]);
    }
    expect(findings[0]?.rule).toBe('duplicate-keys');
  });
});
