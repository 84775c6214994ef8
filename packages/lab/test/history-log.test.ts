/**
 * The history audit's reading of a log written here commit by commit: concurrency recorded from readVersion,
 * inferred from timing, unknown without either; writers named from engineInfo and clientVersion; the isolation
 * property in force; gaps, damaged files and bounds named; `since` and `atVersion`; the CLI's exit codes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTableHistory } from '@racelab/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryBoundError, type TableHistory, tableHistory } from '../src/audit/history/index';
import { runAudit } from './helpers/audit-cli';

const root = mkdtempSync(join(tmpdir(), 'racelab-history-log-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const locations = { roots: [join(root, 'tables')], workDir: root };

const SCHEMA = JSON.stringify({
  type: 'struct',
  fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }],
});
const metaData = (configuration: Record<string, string> = {}) => ({
  metaData: {
    id: 'a7d1c0de-0000-4000-8000-000000000000',
    format: { provider: 'parquet', options: {} },
    schemaString: SCHEMA,
    partitionColumns: [],
    configuration,
    createdTime: 0,
  },
});
const protocol = { protocol: { minReaderVersion: 1, minWriterVersion: 2 } };
const add = (n: number) => ({
  add: { path: `part-${n}.parquet`, partitionValues: {}, size: 10, modificationTime: 0, dataChange: true },
});

type Info = Record<string, unknown>;

/** A table whose commits are `infos` (version 0 creates it), each with one add; `extra` actions by version. */
function table(name: string, infos: Info[], extra: Record<number, object[]> = {}): string {
  const dir = join(root, 'tables', name);
  mkdirSync(join(dir, '_delta_log'), { recursive: true });
  infos.forEach((info, v) => {
    const actions = [{ commitInfo: info }, ...(v === 0 ? [protocol, metaData()] : []), ...(extra[v] ?? []), add(v)];
    writeFileSync(
      join(dir, '_delta_log', `${String(v).padStart(20, '0')}.json`),
      actions.map((a) => JSON.stringify(a)).join('\n'),
    );
  });
  return dir;
}

const T0 = Date.UTC(2026, 11, 1, 8);
const rs = (ts: number, elapsed: number | null, more: Info = {}): Info => ({
  timestamp: ts,
  operation: 'WRITE',
  operationParameters: { mode: 'Append' },
  engineInfo: 'delta-rs:py-1.6.0',
  ...(elapsed !== null && { operationMetrics: { execution_time_ms: elapsed } }),
  ...more,
});
const spark = (ts: number, readVersion: number, more: Info = {}): Info => ({
  timestamp: ts,
  operation: 'UPDATE',
  operationParameters: { predicate: '["(VendorID#1 = 2)"]' },
  readVersion,
  isolationLevel: 'WriteSerializable',
  isBlindAppend: false,
  engineInfo: 'Apache-Spark/3.5.1 Delta-Lake/3.2.0',
  ...more,
});

const byVersion = (h: TableHistory, v: number) => {
  const c = h.commits.find((x) => x.version === v);
  if (!c) throw new Error(`no commit ${v}`);
  return c;
};

describe('concurrency from the log', () => {
  it('recorded: readVersion names every version that landed between the read and the commit', async () => {
    const dir = table('recorded', [
      spark(T0, -1, { operation: 'CREATE TABLE' }),
      spark(T0 + 1000, 0),
      spark(T0 + 2000, 1),
      spark(T0 + 3000, 0),
      spark(T0 + 4000, 1, { txn: undefined }),
    ]);
    const h = await tableHistory(dir, { locations });
    expect(byVersion(h, 0)).toMatchObject({ evidence: 'recorded', concurrentWith: [] });
    expect(byVersion(h, 1)).toMatchObject({ evidence: 'recorded', concurrentWith: [] });
    expect(byVersion(h, 2)).toMatchObject({ evidence: 'recorded', concurrentWith: [] });
    expect(byVersion(h, 3)).toMatchObject({ evidence: 'recorded', concurrentWith: [1, 2], readVersion: 0 });
    expect(byVersion(h, 4)).toMatchObject({ evidence: 'recorded', concurrentWith: [2, 3] });
    expect(byVersion(h, 4).writer).toMatchObject({ library: 'delta-spark', version: '3.2.0' });
    expect(h.summary).toMatchObject({
      commits: 5,
      writers: 1,
      concurrentCommits: 2,
      inferredConcurrentCommits: 0,
      unknownConcurrency: 0,
      longestConcurrentChain: 3,
      duplicateKeys: null,
    });
    expect(h.summary.busiestHour).toEqual({ start: new Date(T0).toISOString(), commits: 5, concurrentCommits: 2 });
    expect(h.summary.commitsPerHour).toBeCloseTo((5 * 3600) / 4, 5);
    expect(h.failed).toBe(false);
  });

  it('inferred: a commit without readVersion overlaps the commits that landed after it started', async () => {
    const dir = table('inferred', [
      rs(T0, 5),
      rs(T0 + 1000, 100), // started T0+900: nothing landed after
      rs(T0 + 1050, 200), // started T0+850: v1 landed at T0+1000
      rs(T0 + 1040, 500), // stamped before v2 but landed after it (a retry): started T0+540, overlaps v1 and v2
      rs(T0 + 5000, null), // no timing: unknown
    ]);
    const h = await tableHistory(dir, { locations });
    expect(byVersion(h, 1)).toMatchObject({ evidence: 'inferred', concurrentWith: [], startedAt: T0 + 900 });
    expect(byVersion(h, 2)).toMatchObject({ evidence: 'inferred', concurrentWith: [1] });
    expect(byVersion(h, 3)).toMatchObject({ evidence: 'inferred', concurrentWith: [1, 2] });
    expect(byVersion(h, 4)).toMatchObject({ evidence: 'unknown', concurrentWith: [] });
    expect(byVersion(h, 2).writer).toMatchObject({ library: 'delta-rs', version: '1.6.0' });
    expect(h.summary).toMatchObject({ concurrentCommits: 2, inferredConcurrentCommits: 2, unknownConcurrency: 1 });
    expect(h.findings.map((f) => f.rule)).toEqual(['concurrency-unknown', 'concurrency-inferred']);
    expect(h.findings[0]).toMatchObject({ severity: 'warning', versions: [4] });
  });

  it('names the writer, its app and metadata, and the isolation property in force at the read', async () => {
    const dir = table(
      'writers',
      [
        rs(T0 - 10, 1),
        rs(T0, 1),
        rs(T0 + 10, 1, { userMetadata: 'nightly' }),
        { ...spark(T0 + 20, 1), engineInfo: undefined, notebook: { notebookId: '42' }, clusterId: 'c-1' },
        spark(T0 + 30, 1, { engineInfo: 'Databricks-Runtime/14.3.x-scala2.12', job: { jobId: '7' } }),
        spark(T0 + 40, 3),
      ],
      {
        1: [{ txn: { appId: 'daily-append', version: 3 } }],
        3: [metaData({ 'delta.isolationLevel': 'Serializable' })],
      },
    );
    const h = await tableHistory(dir, { locations });
    expect(byVersion(h, 1).writer).toMatchObject({ library: 'delta-rs', appId: 'daily-append' });
    expect(byVersion(h, 2).writer).toMatchObject({ userMetadata: 'nightly', appId: null });
    expect(byVersion(h, 3).writer).toMatchObject({ library: 'databricks', appId: '42' });
    expect(byVersion(h, 4).writer).toMatchObject({ library: 'databricks', version: '14.3.x-scala2.12', appId: '7' });
    expect(byVersion(h, 3).isolationProperty).toBeNull();
    // v4 read v1 (before the property was set); v5 read v3, which set it.
    expect(byVersion(h, 4).isolationProperty).toBeNull();
    expect(byVersion(h, 5).isolationProperty).toBe('Serializable');
    expect(h.summary.writers).toBe(5);
  });
});

describe('bad input and bounds', () => {
  it('a gap and a damaged file are error findings naming the file as the user named the table', async () => {
    const dir = table('damaged', [rs(T0, 1), rs(T0 + 1, 1), rs(T0 + 2, 1), rs(T0 + 3, 1)]);
    rmSync(join(dir, '_delta_log', `${String(1).padStart(20, '0')}.json`));
    writeFileSync(join(dir, '_delta_log', `${String(2).padStart(20, '0')}.json`), '{"commitInfo": {');
    const h = await tableHistory(dir, { locations });
    expect(h.commits.map((c) => c.version)).toEqual([0, 3]);
    const gap = h.findings.find((f) => f.rule === 'log-gap');
    expect(gap).toMatchObject({ severity: 'error', versions: [1] });
    expect(gap?.evidence).toContain(`${dir}/_delta_log/00000000000000000001.json`);
    const damaged = h.findings.find((f) => f.rule === 'damaged-commit');
    expect(damaged).toMatchObject({ severity: 'error', versions: [2] });
    expect(damaged?.evidence).toContain(`${dir}/_delta_log/00000000000000000002.json: line 1 is not valid JSON`);
    expect(h.failed).toBe(true);
  });

  it('refuses a range over the commit bound before reading, naming the bound', async () => {
    const dir = table(
      'bounded',
      Array.from({ length: 6 }, (_, i) => rs(T0 + i, 1)),
    );
    const refused = tableHistory(dir, { locations, bounds: { maxCommits: 5 } });
    await expect(refused).rejects.toBeInstanceOf(HistoryBoundError);
    await expect(refused).rejects.toThrow('6 commits to read, over the bound of 5 commits');
    await expect(tableHistory(dir, { locations, bounds: { maxBytes: 100 } })).rejects.toThrow('over 100 bytes');
  });

  it('since skips older commits by their timestamps; atVersion stops the reading there', async () => {
    const dir = table(
      'since',
      Array.from({ length: 8 }, (_, i) => spark(T0 + i * 60_000, Math.max(i - 2, 0))),
    );
    const h = await tableHistory(dir, { locations, since: T0 + 3 * 60_000 });
    expect(h.range).toMatchObject({ fromVersion: 3, latestVersion: 7, since: new Date(T0 + 180_000).toISOString() });
    expect(h.commits.map((c) => c.version)).toEqual([3, 4, 5, 6, 7]);
    expect(byVersion(h, 5).concurrentWith).toEqual([4]);
    const at = await tableHistory(dir, { locations, atVersion: 4 });
    expect(at.commits.map((c) => c.version)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('npm run audit -- history', () => {
  const cli = (args: string[]) => runAudit(root, ['history', ...args]);

  it('prints the summary figures and writes the JSON; exits 1 on error findings, 2 on bad input', () => {
    const dir = table('cli', [spark(T0, -1), spark(T0 + 1, 0), spark(T0 + 2, 0)]);
    const json = join(root, 'out.json');
    const ok = cli([dir, '--json', json]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('summary.concurrentCommits         1');
    expect(ok.stdout).toContain('v2 ');
    expect(ok.stdout).toContain('concurrent with v1 (recorded)');
    const written = JSON.parse(readFileSync(json, 'utf8')) as TableHistory;
    expect(checkTableHistory(written)).toMatchObject({ ok: true });
    expect(written.summary).toMatchObject({ commits: 3, concurrentCommits: 1 });
    expect(checkTableHistory({ ...written, commits: [{ ...written.commits[0], evidence: 'guessed' }] })).toMatchObject({
      ok: false,
    });
    expect(cli([join(root, 'tables', 'damaged')]).status).toBe(1);
    const outside = cli(['/etc']);
    expect(outside.status).toBe(2);
    expect(cli([dir, '--at-version', 'x']).stderr).toContain('--at-version must be a version number');
    expect(cli([dir, '--since', 'yesterday']).status).toBe(2);
    expect(cli([join(root, 'tables', 'nothing-here')]).status).toBe(2);
  });
});
