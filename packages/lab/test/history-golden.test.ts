/**
 * The history audit over every Delta golden table (fixtures/: delta-rs's copies and Delta Spark's golden tables,
 * written by Spark, Databricks and delta-rs): their real commitInfo read without an error thrown, writers named,
 * readVersion taken as recorded, and the deliberately broken logs reported as findings naming their file.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures/index';
import { type TableHistory, tableHistory } from '../src/audit/history/index';

const SETS = [fixture('delta-golden'), fixture('delta-spark-golden')];
const locations = { roots: SETS, workDir: SETS[0] as string };

/** Every folder holding a `_delta_log` under `dir`, at any depth. */
function tables(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if (name === '_delta_log') found.push(dir);
    else found.push(...tables(path));
  }
  return found;
}

const history = (set: 'delta-golden' | 'delta-spark-golden', ...path: string[]) =>
  tableHistory(fixture(set, ...path), { locations });
const at = (h: TableHistory, v: number) => h.commits.find((c) => c.version === v);

describe('golden tables: real commitInfo', () => {
  it('every table is read without an error thrown; recorded readVersion is taken as recorded', async () => {
    const all = SETS.flatMap(tables);
    expect(all.length).toBeGreaterThan(80);
    for (const dir of all) {
      const h = await tableHistory(dir, { locations });
      for (const c of h.commits) {
        if (c.readVersion === null || c.version === 0) continue;
        expect(c.evidence, dir).toBe('recorded');
        expect(c.concurrentWith.length, dir).toBe(Math.max(c.version - c.readVersion - 1, 0));
      }
      expect(h.summary.commits, dir).toBe(h.commits.length);
    }
  });

  it('names Delta Spark, Databricks and delta-rs writers with their versions', async () => {
    expect(at(await history('delta-golden', 'latest_not_checkpointed'), 1)?.writer).toMatchObject({
      library: 'delta-spark',
      version: '2.1.1',
    });
    expect(at(await history('delta-golden', 'delta-stats-optional'), 0)?.writer).toMatchObject({
      library: 'databricks',
      version: '10.4.x-scala2.12',
    });
    const rs = await history('delta-golden', 'python-0.25.5-checkpoint');
    expect(rs.commits.map((c) => [c.writer.library, c.writer.version])).toEqual([
      ['delta-rs', '0.25.5'],
      ['delta-rs', '1.1.0'],
    ]);
    // delta-rs writes no readVersion on an append, but its timing: the overlap is inferred.
    expect(at(rs, 1)).toMatchObject({ evidence: 'inferred', readVersion: null });
    const notebook = at(await history('delta-golden', 'checkpoints'), 1);
    expect(notebook?.writer).toMatchObject({ library: 'databricks', appId: '746418' });
    expect(notebook).toMatchObject({ readVersion: 0, isolationLevel: 'WriteSerializable', isBlindAppend: true });
  });

  it('a Spark MERGE keeps its predicate and readVersion', async () => {
    const merge = at(await history('delta-spark-golden', 'basic-with-inserts-merge', 'delta'), 1);
    expect(merge).toMatchObject({ operation: 'MERGE', readVersion: 0, evidence: 'recorded', concurrentWith: [] });
    expect(merge?.predicate).toContain('id#480L');
  });

  it('a log the engine refuses is an error finding naming the file, and the audit goes on', async () => {
    const h = await history('delta-spark-golden', 'deltalog-invalid-protocol-version', 'delta');
    const damaged = h.findings.find((f) => f.rule === 'damaged-commit');
    expect(damaged?.evidence).toContain('deltalog-invalid-protocol-version/delta/_delta_log/00000000000000000000.json');
    expect(h.failed).toBe(true);
  });

  it('a log cleaned up behind a checkpoint says which commits it cannot read', async () => {
    const h = await history('delta-golden', 'checkpoint_with_partitions');
    expect(h.range.oldestKept).toBeGreaterThan(0);
    expect(h.findings.map((f) => f.rule)).toContain('log-cleaned-up');
    expect(h.failed).toBe(false);
  });
});
