/**
 * The jobs audit with the table's history beside its forecast: a table whose log holds an UPDATE that landed past a
 * concurrent blind append (only because the table is WriteSerializable) gets a history-evidence warning on its jobs
 * with the figures; a table whose commits never overlapped gets none.
 */
import { join } from 'node:path';
import { DeltaTable, field, prepareUpdate, prepareWrite, type StructType, writeDeltaTable } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditJobs, type Job } from '../src/audit/index';
import type { LocationConfig } from '../src/index';
import { tempDir } from './helpers/small-base';

const work = tempDir('audit-history-evidence');
const cfg: LocationConfig = { roots: [join(work, 'tables')], workDir: work };
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('VendorID', 'integer')] };
const rows = (from: number) => ({
  kind: 'rows' as const,
  schema: SCHEMA,
  rows: [0, 1, 2].map((i) => ({ id: from + i, VendorID: 1 })),
});

const jobs = (table: string): Job[] => [
  {
    name: 'daily-append',
    table,
    engine: 'delta-rs 1.6.6',
    operation: 'append',
    commitProperties: { isBlindAppend: true },
  },
  {
    name: 'fix-vendor',
    table,
    engine: 'delta-rs 1.6.6',
    operation: 'update',
    predicate: 'id >= 0',
    onCommitFailed: 'redo-whole-change',
  },
];

beforeAll(async () => {
  for (const name of ['raced', 'calm']) {
    const dir = join(work, 'tables', 'team', name);
    await writeDeltaTable(dir, rows(0), { configuration: { 'delta.isolationLevel': 'writeSerializable' } });
    await writeDeltaTable(dir, rows(10), { mode: 'append' });
  }
  // raced: both read version 1; the blind append lands first, the UPDATE after it, checked and let through.
  const raced = join(work, 'tables', 'team', 'raced');
  const append = await prepareWrite(await DeltaTable.open(raced), rows(100), {
    mode: 'append',
    customMetadata: { isBlindAppend: true },
  });
  const update = await prepareUpdate(await DeltaTable.open(raced), { predicate: 'id >= 0', set: { VendorID: '9' } });
  await append?.commit();
  await update?.commit();
});

describe('history-evidence in the jobs audit', () => {
  it('names the concurrent commits of the last days and the history findings, on the table’s jobs', async () => {
    const audit = await auditJobs({ jobs: jobs('team/raced') }, cfg);
    const found = audit.findings.filter((f) => f.rule === 'history-evidence');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', table: 'team/raced', jobs: ['daily-append', 'fix-vendor'] });
    expect(found[0]?.evidence).toMatch(
      /^history, last 7 days \(versions 0–3, 4 commits by \d+ writers?\): 1 concurrent commit \(1 recorded, 0 inferred from timing\), 0 of unknown concurrency; 1 landed only under a weaker isolation level than Serializable; the history's findings: landed-only-under-write-serializable/,
    );
    expect(found[0]?.fix).toMatch(
      /^read each commit's evidence and re-judgement with `npm run audit -- history team\/raced`/,
    );
  });

  it('says nothing of a table whose commits never overlapped', async () => {
    const audit = await auditJobs({ jobs: jobs('team/calm') }, cfg);
    expect(audit.findings.map((f) => f.rule)).not.toContain('history-evidence');
  });
});
