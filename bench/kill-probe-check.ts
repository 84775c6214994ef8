/**
 * bench/kill-probe's judge: what the writers' lines say was acknowledged, against what the table holds and
 * what lies in its folder. An acknowledged commit must be there exactly once; one that failed must not be
 * there; one cut off by the kill is wholly there or wholly absent. The log's versions run without a gap, each
 * acknowledged version holds the operation acknowledged, and nothing lies in the folder that the log does not
 * name, once vacuum (retention 0) has run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Add, DeltaTable, dvSource, type Remove, withConnection } from '@racelab/engine';
import { FIRST_WRITER_ID, UPDATE_OFFSET } from './kill-probe-plan';

export type OpKind = 'append' | 'delete' | 'update';

export interface Op {
  op: OpKind;
  ids: number[];
  /** acked: the call returned; failed: it threw; cut: the writer was killed before either. */
  status: 'acked' | 'failed' | 'cut';
  version?: number;
}

/** The operations one writer's lines describe, in order. */
export function parseWriterLines(lines: string[]): Op[] {
  const ops: Op[] = [];
  for (const line of lines) {
    const [word, ...rest] = line.split(' ');
    const last = ops[ops.length - 1];
    if (word === 'start') ops.push({ op: rest[0] as OpKind, ids: rest.slice(1).map(Number), status: 'cut' });
    else if (word === 'acked' && last) {
      last.status = 'acked';
      last.version = Number(rest[0]);
    } else if (word === 'failed' && last) last.status = 'failed';
  }
  return ops;
}

type IdState = 'absent' | 'present' | 'updated';
const after = (op: OpKind): IdState => (op === 'append' ? 'present' : op === 'delete' ? 'absent' : 'updated');
const OPERATION: Record<OpKind, string> = { append: 'WRITE', delete: 'DELETE', update: 'UPDATE' };
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

export interface TableCheck {
  acked: number;
  failed: number;
  cut: number;
  /** Cut operations whose commit is in the table all the same: the kill came after the version was claimed. */
  cutLanded: number;
  lost: number;
  duplicated: number;
  /** Every way the table broke the promise, one line each; empty when it kept it. */
  faults: string[];
  rows: number;
}

/** Every id column value of the table, counted, through the engine's reader; and the table's own count. */
export async function scanIds(dir: string, column: string): Promise<{ ids: Map<number, number>; count: number }> {
  const t = await DeltaTable.open(dir);
  const values = await withConnection(async (c) => {
    const rel = await t.relation(c);
    const r = await c.runAndReadAll(`SELECT ${ident(column)} AS id FROM (${rel})`);
    return r.getRowObjectsJson().map((row) => Number(row.id));
  });
  const ids = new Map<number, number>();
  for (const v of values) ids.set(v, (ids.get(v) ?? 0) + 1);
  return { ids, count: await t.count() };
}

/** Checks the table against the writers' operations (`writers`: each writer's, in order) and its rows before. */
export async function checkTable(
  dir: string,
  column: string,
  before: Map<number, number>,
  writers: Op[][],
): Promise<TableCheck> {
  const faults: string[] = [];
  const { ids, count } = await scanIds(dir, column);
  const rows = [...ids.values()].reduce((a, b) => a + b, 0);
  if (count !== rows) faults.push(`count() says ${count} rows, a full scan read ${rows}`);
  for (const [id, n] of before) {
    if (ids.get(id) !== n)
      faults.push(`row ${column}=${id} of the table before: ${n} copies before, ${ids.get(id) ?? 0} now`);
  }
  // Each id's state after its acknowledged operations, and the state its cut operation (the writer's last) would give.
  const expected = new Map<number, { state: IdState; cut?: IdState; acked: boolean }>();
  const cutAppends: number[][] = [];
  const versions = new Map<number, Op>();
  let acked = 0;
  let failed = 0;
  let cut = 0;
  for (const op of writers.flat()) {
    if (op.status === 'failed') failed++;
    if (op.status === 'cut') cut++;
    if (op.status !== 'acked') {
      for (const id of op.ids) {
        const e = expected.get(id) ?? { state: 'absent', acked: false };
        expected.set(id, op.status === 'cut' ? { ...e, cut: after(op.op) } : e);
      }
      if (op.status === 'cut' && op.op === 'append' && op.ids.length > 1) cutAppends.push(op.ids);
      continue;
    }
    acked++;
    if (!Number.isInteger(op.version)) faults.push(`${op.op} of ${op.ids.join(' ')} acknowledged without a version`);
    else if (versions.has(op.version as number)) {
      faults.push(
        `version ${op.version} acknowledged twice: ${op.op} ${op.ids} and ${versions.get(op.version as number)?.op}`,
      );
    } else versions.set(op.version as number, op);
    for (const id of op.ids) expected.set(id, { state: after(op.op), acked: true });
  }
  const actual = (id: number): IdState[] => [
    ...Array<IdState>(ids.get(id) ?? 0).fill('present'),
    ...Array<IdState>(ids.get(id + UPDATE_OFFSET) ?? 0).fill('updated'),
  ];
  let lost = 0;
  let duplicated = 0;
  for (const [id, e] of expected) {
    const found = actual(id);
    if (found.length > 1) {
      duplicated++;
      faults.push(`id ${id}: ${found.length} rows (${found.join(', ')})`);
      continue;
    }
    const state = found[0] ?? 'absent';
    if (state === e.state || state === e.cut) continue;
    if (e.acked) lost++;
    faults.push(`id ${id}: ${state}, expected ${e.state}${e.cut ? ` or ${e.cut}` : ''}`);
  }
  const cutLanded = writers
    .flat()
    .filter((op) => op.status === 'cut' && op.ids.every((id) => (actual(id)[0] ?? 'absent') === after(op.op))).length;
  for (const group of cutAppends) {
    const states = new Set(group.map((id) => actual(id).length));
    if (states.size > 1) faults.push(`a cut append is partly there: ids ${group.join(' ')}`);
  }
  for (const id of ids.keys()) {
    const own = id >= UPDATE_OFFSET ? id - UPDATE_OFFSET : id;
    if (own >= FIRST_WRITER_ID && !expected.has(own)) faults.push(`id ${id} in the table, never written`);
  }
  faults.push(...checkLog(dir, versions));
  return { acked, failed, cut, cutLanded, lost, duplicated, faults, rows };
}

/** The log's commits run from 0 without a gap, and each acknowledged version holds the operation acknowledged. */
function checkLog(dir: string, versions: Map<number, Op>): string[] {
  const faults: string[] = [];
  const log = join(dir, '_delta_log');
  const commits = readdirSync(log)
    .filter((f) => /^\d{20}\.json$/.test(f))
    .map((f) => Number(f.slice(0, 20)))
    .sort((a, b) => a - b);
  commits.forEach((v, i) => {
    if (v !== i) faults.push(`the log's commit ${i} is missing (next is ${v})`);
  });
  for (const [v, op] of versions) {
    if (!commits.includes(v)) {
      faults.push(`acknowledged version ${v} (${op.op} ${op.ids.join(' ')}) is not in the log`);
      continue;
    }
    const text = readFileSync(join(log, `${String(v).padStart(20, '0')}.json`), 'utf8');
    const info = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { commitInfo?: { operation?: string } })
      .find((a) => a.commitInfo)?.commitInfo;
    if (info?.operation !== OPERATION[op.op]) {
      faults.push(`version ${v} holds ${info?.operation}, acknowledged as ${op.op} ${op.ids.join(' ')}`);
    }
  }
  return faults;
}

/** The keys a file of the table may have: its files and their deletion vectors' files, live or removed. */
function named(files: (Add | Remove)[]): Set<string> {
  const keys = new Set<string>();
  for (const f of files) {
    keys.add(decodeURIComponent(f.path));
    const dv = f.deletionVector ? dvSource(f.deletionVector) : null;
    if (dv?.kind === 'relative') keys.add(dv.key);
  }
  return keys;
}

/** Whether a file of `_delta_log` is the log's own: a commit, a checkpoint, `_last_checkpoint`, a checksum. */
const logOwn = (name: string) => !name.includes('#') && !name.endsWith('.tmp');

/**
 * What lies in the table's folder that the log does not name: files (temporary names, staging, orphans) and
 * empty folders, as keys (a folder ends with `/`). With `removedToo` false, files the log removed count too (as
 * after a vacuum at retention 0, which must delete them).
 */
export async function leftovers(dir: string, removedToo: boolean): Promise<string[]> {
  const t = await DeltaTable.open(dir);
  const keep = named(removedToo ? [...t.activeFiles(), ...t.tombstones()] : t.activeFiles());
  const found: string[] = [];
  const walk = (rel: string): number => {
    const entries = readdirSync(join(dir, rel), { withFileTypes: true });
    let files = 0;
    for (const e of entries) {
      const key = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        const inside = walk(key);
        if (inside === 0 && key !== '_delta_log') found.push(`${key}/`);
        files += inside;
        continue;
      }
      files++;
      if (rel === '_delta_log' ? !logOwn(e.name) : !keep.has(key)) found.push(key);
    }
    return files;
  };
  walk('');
  return found.sort();
}
