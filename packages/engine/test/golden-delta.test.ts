/**
 * Every Delta table in fixtures/delta-golden (written by Spark, Databricks and delta-rs) is
 * read and compared with its expected.json: version, protocol, metadata, active files, tombstones,
 * app transactions, rows, and every version by time travel.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { DeltaTable, parseStats } from '../src/index';
import { encodedRows } from './helpers/rows';

const root = fixture('delta-golden');
const tables = readdirSync(root).sort();

// Absent and null protocol fields are the same thing (checkpoint rows carry explicit nulls).
const clean = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

describe.each(tables)('golden table %s', (name) => {
  const dir = join(root, name);
  const exp = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));

  if (!exp.isDeltaTable) {
    it('is refused as not a Delta table', async () => {
      await expect(DeltaTable.open(dir)).rejects.toThrow(/not a Delta table/);
    });
    return;
  }

  it('loads the latest version with the expected log state', async () => {
    const t = await DeltaTable.open(dir);
    expect(t.version).toBe(exp.latestVersion);
    expect(clean(t.protocol)).toEqual(clean(exp.protocol));
    expect(t.partitionColumns).toEqual(exp.metadata.partitionColumns);
    expect(t.configuration).toEqual(exp.metadata.configuration);
    expect(t.metadata.id).toBe(exp.metadata.id);
    expect(t.schema.fields.map((f) => f.name)).toEqual(exp.metadata.schemaFieldNames);
    const types = Object.fromEntries(
      t.schema.fields.map((f) => [f.name, typeof f.type === 'string' ? f.type : f.type.type]),
    );
    expect(types).toEqual(exp.metadata.schemaFieldTypes);
    expect(
      t
        .activeFiles()
        .map((f) => f.path)
        .sort(),
    ).toEqual(exp.activeFiles);
    expect(t.state.checkpointVersion).toBe(exp.checkpointUsedForLatest);
    expect(t.tombstones().length).toBe(exp.tombstoneCount);
    if (exp.tombstonePaths)
      expect(
        t
          .tombstones()
          .map((r) => r.path)
          .sort(),
      ).toEqual([...exp.tombstonePaths].sort());
    const txns = Object.fromEntries(
      [...t.appTransactions()].map(([k, v]) => [k, clean({ version: v.version, lastUpdated: v.lastUpdated })]),
    );
    expect(txns).toEqual(
      Object.fromEntries(Object.entries(exp.appTransactions).map(([k, v]) => [k, clean(v as object)])),
    );
    for (const d of exp.activeFileDetails ?? []) {
      const f = t.activeFiles().find((a) => a.path === d.path);
      expect(f?.size).toBe(d.size);
      expect(parseStats(f?.stats)?.numRecords ?? null).toBe(d.numRecordsFromStats);
    }
    if (t.partitionColumns.length > 0) {
      const pv = Object.fromEntries(t.activeFiles().map((f) => [f.path, f.partitionValues]));
      expect(pv).toEqual(exp.activeFilePartitionValues);
    }
  });

  if (exp.dataFilesPresent) {
    it('reads the expected rows', async () => {
      const t = await DeltaTable.open(dir);
      expect(await t.count()).toBe(exp.logicalRowCount);
      expect(await encodedRows(t)).toEqual(exp.rows);
    });
  } else {
    it('refuses a scan whose data files are missing, naming them', async () => {
      const t = await DeltaTable.open(dir);
      if (t.activeFiles().length === 0) return expect(await t.count()).toBe(0);
      await expect(t.count()).rejects.toThrow(/do not exist/);
    });
  }

  it('time-travels to every version', async () => {
    for (const [v, tt] of Object.entries<Record<string, unknown>>(exp.timeTravel)) {
      if (tt.reconstructable === false) {
        await expect(DeltaTable.open(dir, { version: Number(v) })).rejects.toThrow(/cannot load version/);
        continue;
      }
      const s = await DeltaTable.open(dir, { version: Number(v) });
      expect(s.version).toBe(Number(v));
      expect(
        s
          .activeFiles()
          .map((f) => f.path)
          .sort(),
      ).toEqual(tt.activeFiles);
      expect(s.tombstones().length).toBe(tt.tombstoneCount);
      expect(s.state.checkpointVersion).toBe(tt.checkpointUsed);
      if (tt.rows) expect(await encodedRows(s)).toEqual(tt.rows);
    }
  });
});
