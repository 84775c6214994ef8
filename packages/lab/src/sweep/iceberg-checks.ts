/**
 * An Iceberg point's table checked from what the catalog names after the race: the snapshots on branch main
 * (parent by parent from the catalog's current metadata) numbered 1..n by sequence number with no snapshot off
 * the branch; every acknowledged commit (writer, seq, from the snapshot's summary) in exactly one snapshot, the one
 * whose metadata version its writer was told; no failed commit present; data files no manifest names (orphans);
 * and the serial-replay verdict: the rows of the data files the manifests name against one row per committed
 * append.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { plural, type SweepOperation } from '@racelab/contracts';
import { type IcebergSnapshot, icebergDataFiles, openIcebergTable, withConnection } from '@racelab/engine';
import { countMissing, type NamedCommit, type PointChecks, recordChecks, rowKey, writerIndex } from './checks';
import { ICEBERG_SWEEP_TABLE, openSweepCatalog } from './iceberg-table';
import type { SweepCommitRecord } from './job';
import { appendRow, type SweepRow } from './table';

const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Main's snapshots, oldest first, by following parents from its head. */
function mainBranch(snapshots: readonly IcebergSnapshot[], head: bigint | number | undefined): IcebergSnapshot[] {
  const byId = new Map(snapshots.map((s) => [String(s['snapshot-id']), s]));
  const chain: IcebergSnapshot[] = [];
  let at = head === undefined ? undefined : byId.get(String(head));
  while (at) {
    chain.unshift(at);
    const parent = at['parent-snapshot-id'];
    at = parent === undefined ? undefined : byId.get(String(parent));
  }
  return chain;
}

const summaryNumber = (s: IcebergSnapshot, key: string) => {
  const v = s.summary?.[key];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
};

/** Parquet files under a folder, recursively (the warehouse's data folder). */
async function parquetFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith('.parquet')).map((e) => resolve(e.parentPath, e.name));
}

export async function checkIcebergPoint(
  point: string,
  op: SweepOperation,
  records: readonly SweepCommitRecord[],
): Promise<PointChecks> {
  if (op !== 'append-row') throw new Error(`an Iceberg sweep point checks append-row only, not ${op}`);
  const catalog = await openSweepCatalog(point);
  try {
    const table = await openIcebergTable(catalog, ICEBERG_SWEEP_TABLE);
    const m = table.metadata;
    const chain = mainBranch(m.snapshots, m.refs.main?.['snapshot-id']);
    const commits: NamedCommit[] = chain.map((s) => ({
      version: s['sequence-number'],
      writer: s.summary?.writer ?? null,
      seq: summaryNumber(s, 'seq'),
    }));
    const contiguous = chain.length === m.snapshots.length && commits.every((c, i) => c.version === i + 1);
    // The rows the manifests name, read from their data files.
    const { dataFiles } = await icebergDataFiles(table);
    const actual =
      dataFiles.length === 0
        ? []
        : await withConnection(async (c) => {
            const list = `[${dataFiles.map((f) => quoted(f.localPath)).join(', ')}]`;
            const r = await c.runAndReadAll(`SELECT writer, seq, part, value FROM read_parquet(${list})`);
            return (r.getRowObjectsJS() as SweepRow[]).map(rowKey).sort();
          });
    const landed = commits.filter((c) => writerIndex(c.writer) !== null && c.seq !== null);
    const expected = landed.map((c) => rowKey(appendRow(writerIndex(c.writer) as number, c.seq as number))).sort();
    const missing = countMissing(expected, actual);
    const extra = countMissing(actual, expected);
    const serial = missing === 0 && extra === 0;
    const named = new Set(dataFiles.map((f) => resolve(f.localPath)));
    const onDisk = await parquetFiles(join(point, 'warehouse'));
    return {
      checks: {
        versionsContiguous: contiguous,
        ...recordChecks(commits, records),
        verdict: serial ? 'serial' : 'not-serial',
        verdictNote: `computed replay: one row per committed append on branch main (${landed.length}), compared row by row with the rows of the data files the manifests name (${plural(actual.length, 'row')})${serial ? '' : `: ${plural(missing, 'expected row')} missing, ${plural(extra, 'row')} extra`}`,
      },
      orphanFiles: onDisk.filter((f) => !named.has(f)).length,
    };
  } finally {
    await catalog.close();
  }
}
