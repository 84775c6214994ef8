/**
 * The history findings on logs the engine wrote: a commit that landed only because of WriteSerializable, one whose
 * recorded isolationLevel is not the property's, an UPDATE claiming isBlindAppend, a predicate the schema cannot
 * parse (cannot judge), and a timing overlap that was really a later commit (the checker refuses it: the judgement
 * differs from the log). Every rule raised has its help text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeltaTable,
  field,
  type PreparedOperation,
  prepareUpdate,
  prepareWrite,
  type StructType,
  update,
  writeDeltaTable,
} from '@racelab/engine';
import { describe, expect, it } from 'vitest';
import { HISTORY_RULE_HELP } from '../src/audit/formats/history-rule-help';
import { historyFindings } from '../src/audit/history/findings';
import { rejudge } from '../src/audit/history/rejudge';
import type { HistoryCommit } from '../src/audit/history/types';
import { commitAt, rejudgeContext } from './helpers/history-commits';
import { tempDir } from './helpers/small-base';

const work = tempDir('history-findings');
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('VendorID', 'integer')] };
const rows = (from: number) => ({
  kind: 'rows' as const,
  schema: SCHEMA,
  rows: [0, 1, 2].map((i) => ({ id: from + i, VendorID: 1 })),
});
let n = 0;

/** Version 0 (ids 0–2) and 1 (ids 10–12) under `level`. */
async function table(level: string): Promise<string> {
  const dir = join(work, `t${n++}`);
  await writeDeltaTable(dir, rows(0), { configuration: { 'delta.isolationLevel': level } });
  await writeDeltaTable(dir, rows(10), { mode: 'append' });
  return dir;
}

/** Both read version 1; FIRST commits version 2, SECOND version 3. */
async function race(dir: string, first: (t: DeltaTable) => Promise<PreparedOperation | null>, second: typeof first) {
  const [a, b] = [await first(await DeltaTable.open(dir)), await second(await DeltaTable.open(dir))];
  await a?.commit();
  await b?.commit();
}

async function judged(dir: string, commits: HistoryCommit[]) {
  const { rejudgements, findings } = await rejudge(commits, await rejudgeContext(await DeltaTable.open(dir)));
  expect(findings).toEqual(historyFindings(commits, rejudgements, null));
  for (const f of findings) expect(HISTORY_RULE_HELP[f.rule], f.rule).toBeDefined();
  return { rejudgements, findings };
}

describe('history findings', () => {
  it('names the commits that landed only because of WriteSerializable, and a recorded level that is not the property', async () => {
    const dir = await table('writeSerializable');
    await race(
      dir,
      (t) => prepareWrite(t, rows(100), { mode: 'append', customMetadata: { isBlindAppend: true } }),
      (t) =>
        prepareUpdate(
          t,
          { predicate: 'id >= 0', set: { VendorID: '9' } },
          { customMetadata: { isolationLevel: 'Serializable' } },
        ),
    );
    const second = await commitAt(dir, 3, [2], 'recorded', 'writeSerializable');
    expect(second.isolationLevel).toBe('Serializable');
    const { findings } = await judged(dir, [await commitAt(dir, 2, [], 'unknown', 'writeSerializable'), second]);
    expect(findings.map((f) => [f.rule, f.severity, f.versions])).toEqual([
      ['landed-only-under-write-serializable', 'warning', [3]],
      ['isolation-recorded-differs', 'warning', [3]],
    ]);
    expect(findings[0]?.evidence).toMatch(
      /^1 commit on this table landed only because of WriteSerializable: under Serializable \(Serializable is what delta-rs 1\.2–1\.6\.x makes of 'WriteSerializable' with a capital W\) it would have failed\. version 3 \(UPDATE: ConcurrentAppend\)/,
    );
    expect(findings[0]?.fix).toMatch(/'serializable'/);
  });

  it('flags an UPDATE claiming isBlindAppend and a predicate it cannot parse, and judges nothing it cannot', async () => {
    const dir = await table('serializable');
    await race(
      dir,
      (t) => prepareUpdate(t, { predicate: 'id = 1', set: { VendorID: '9' } }),
      (t) =>
        prepareUpdate(t, { predicate: 'id = 11', set: { VendorID: '9' } }, { customMetadata: { isBlindAppend: true } }),
    );
    const claimed = await commitAt(dir, 3, [2]);
    expect(claimed.isBlindAppend).toBe(true);
    // Delta Spark records its predicates as its own plan text, which no schema parses.
    const sparkText = { ...claimed, predicate: '["(id#12L = 11)"]' };
    const { rejudgements, findings } = await judged(dir, [await commitAt(dir, 2), sparkText]);
    expect(rejudgements[0]?.cannotJudge).toMatch(/^its recorded predicate "\[\\"\(id#12L = 11\)\\"\]" does not parse/);
    expect(rejudgements[0]?.judgements).toEqual([]);
    expect(findings.map((f) => [f.rule, f.severity, f.versions])).toEqual([
      ['blind-append-claim-on-read', 'warning', [3]],
      ['cannot-judge', 'info', [3]],
    ]);
    const unjudged = await judged(dir, [await commitAt(dir, 2), { ...claimed, predicate: null }]);
    expect(unjudged.rejudgements[0]?.cannotJudge).toBe('no predicate recorded for its UPDATE: what it read is unknown');
  });

  it('says when the checker refuses a commit the log shows landed: an overlap inferred from timing that was none', async () => {
    const dir = await table('serializable');
    await writeDeltaTable(dir, rows(100), { mode: 'append' });
    await update(await DeltaTable.open(dir), { predicate: 'id >= 0', set: { VendorID: '9' } });
    // Version 3 read version 2; had it read version 1 (as a timing overlap suggests), the append would refuse it.
    const inferred = { ...(await commitAt(dir, 3, [2], 'inferred', 'serializable')), readVersion: null };
    const { rejudgements, findings } = await judged(dir, [await commitAt(dir, 2), inferred]);
    expect(rejudgements[0]).toMatchObject({ readVersion: 1, library: 'delta-rs', agreesWithLog: false });
    expect(findings.map((f) => [f.rule, f.severity, f.versions])).toEqual([
      ['judgement-differs-from-log', 'info', [3]],
    ]);
  });
});

describe('the history rules described', () => {
  it('cover every rule the history audit raises, and no other', () => {
    const src = join(import.meta.dirname, '../src/audit/history');
    const raised = readdirSync(src)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(src, f), 'utf8').matchAll(/\brule:\s*([^,]+)/g)])
      .flatMap((m) => [...(m[1] ?? '').matchAll(/'([a-z]+(?:-[a-z]+)+)'/g)].map((x) => x[1]));
    expect(new Set(raised)).toEqual(new Set(Object.keys(HISTORY_RULE_HELP)));
  });

  it('each has its anchor in docs/history.md', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/history.md'), 'utf8');
    for (const rule of Object.keys(HISTORY_RULE_HELP)) expect(docs, rule).toContain(`<a id="${rule}"></a>`);
  });
});

describe('a recorded level', () => {
  it('is not flagged where Delta Spark records SnapshotIsolation for a commit that changes no data', async () => {
    const dir = await table('serializable');
    const created = {
      ...(await commitAt(dir, 0)),
      operation: 'CREATE TABLE',
      adds: 0,
      isolationLevel: 'SnapshotIsolation',
    };
    const writer = { ...created.writer, library: 'databricks' };
    expect(historyFindings([{ ...created, writer }], [], null)).toEqual([]);
    const written = { ...created, operation: 'WRITE', adds: 1, writer };
    expect(historyFindings([written], [], null).map((f) => f.rule)).toEqual(['isolation-recorded-differs']);
  });
});
