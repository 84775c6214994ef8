/**
 * The jobs audit on a table whose checkpoint cannot be read: the engine loads the same version from
 * the JSON commits, the audit goes on, and one checkpoint-skipped warning per table names the table
 * and carries the engine's warning, the checkpoint named by its key and never by a server path.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeltaTable, field, type StructType, writeDeltaTable } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleHelp } from '../src/audit/formats/rule-help';
import { toSarif } from '../src/audit/formats/sarif';
import { auditJobs, type Job } from '../src/audit/index';
import type { LocationConfig } from '../src/index';

const work = join(tmpdir(), `racelab-audit-checkpoint-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cfg: LocationConfig = { roots: [join(work, 'tables')], workDir: work };

const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('VendorID', 'integer')] };
const rows = (from: number) => [0, 1, 2].map((i) => ({ id: from + i, VendorID: 1 + (i % 2) }));
interface SarifRule {
  id: string;
  shortDescription: { text: string };
  helpUri: string;
}

const checkpointKey = `_delta_log/${String(1).padStart(20, '0')}.checkpoint.parquet`;

const job = (name: string): Job => ({
  name,
  table: 'team/trips',
  engine: 'delta-rs 1.6.6',
  operation: 'update',
  predicate: 'VendorID = 1',
  onCommitFailed: 'redo-whole-change',
});

describe('a table read past an unreadable checkpoint', () => {
  it('is audited, with one checkpoint-skipped warning naming the table and the checkpoint by its key', async () => {
    const dir = join(work, 'tables', 'team', 'trips');
    const data = { kind: 'rows' as const, schema: SCHEMA };
    await writeDeltaTable(dir, { ...data, rows: rows(0) }, { configuration: { 'delta.checkpointInterval': '2' } });
    await writeDeltaTable(dir, { ...data, rows: rows(10) }, { mode: 'append' });
    expect((await DeltaTable.open(dir)).state.checkpointVersion).toBe(1);

    const clean = await auditJobs({ jobs: [job('a'), job('b')] }, cfg);
    expect(clean.findings.map((f) => f.rule)).not.toContain('checkpoint-skipped');

    const path = join(dir, checkpointKey);
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    const audit = await auditJobs({ jobs: [job('a'), job('b')] }, cfg);
    const found = audit.findings.filter((f) => f.rule === 'checkpoint-skipped');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', jobs: ['a', 'b'], table: 'team/trips' });
    expect(found[0]?.evidence).toMatch(
      new RegExp(
        `^team/trips was read without its checkpoint: ${checkpointKey}: unreadable checkpoint skipped, version 1 loaded from the JSON commits from version 0 instead`,
      ),
    );
    // The table was still read: the other rules ran on it, and nothing failed the audit.
    expect(audit.findings.map((f) => f.rule)).not.toContain('table-unreadable');
    expect(audit.findings.map((f) => f.rule)).toContain('predicates-share-files');
    expect(audit.failed).toBe(false);
    expect(JSON.stringify(audit)).not.toContain(work);

    const docsUri = 'file:///docs/jobs-audit.md';
    const sarif = toSarif({ audit, manifestUri: 'jobs.yaml', jobPositions: new Map(), docsUri }) as {
      runs: { tool: { driver: { rules: SarifRule[] } }; results: { ruleId: string; level: string }[] }[];
    };
    const [run] = sarif.runs;
    expect(run?.tool.driver.rules.find((r) => r.id === 'checkpoint-skipped')).toMatchObject({
      shortDescription: { text: ruleHelp('checkpoint-skipped').summary },
      helpUri: `${docsUri}#checkpoint-skipped`,
    });
    expect(run?.results.filter((r) => r.ruleId === 'checkpoint-skipped').map((r) => r.level)).toEqual(['warning']);
  }, 120_000);
});
