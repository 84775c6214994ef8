/**
 * What the engine does, end to end, on a small taxi-like table: create it, append a day, overwrite
 * it with a filtered copy, read it back (now and by time travel), and print its log.
 */
import { rm } from 'node:fs/promises';
import { DeltaTable, field, readCommit, type StructType, writeDeltaTable } from '@racelab/engine';

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    field('trip_id', 'long'),
    field('VendorID', 'integer'),
    field('tpep_pickup_datetime', 'timestamp_ntz'),
    field('trip_distance', 'double'),
    field('fare_amount', 'double'),
    field('tip_amount', 'double'),
  ],
};

/** Deterministic trips for one day: enough rows to show stats and file skipping, small enough to be instant. */
function trips(day: string, firstId: number, count: number, vendors: number[]) {
  return Array.from({ length: count }, (_, i) => {
    const id = firstId + i;
    const seconds = Math.floor((i * 86_399) / count);
    const hh = String(Math.floor(seconds / 3600)).padStart(2, '0');
    const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
    const ss = String(seconds % 60).padStart(2, '0');
    return {
      trip_id: id,
      VendorID: vendors[id % vendors.length],
      tpep_pickup_datetime: `${day} ${hh}:${mm}:${ss}`,
      trip_distance: (id % 97) / 10,
      fare_amount: (id % 53) - 2,
      tip_amount: (id % 11) / 2,
    };
  });
}

export interface DemoReport {
  location: string;
  versions: { version: number; operation: string; parameters: unknown; adds: number; removes: number }[];
  rowsNow: number;
  rowsAtVersion0: number;
  vendorCounts: Record<string, number>;
}

export async function runDemo(location: string, log: (line: string) => void = console.log): Promise<DemoReport> {
  await rm(location, { recursive: true, force: true });
  log(`Demo table: ${location}`);
  const created = await writeDeltaTable(
    location,
    { kind: 'rows', schema: SCHEMA, rows: trips('2025-01-15', 0, 20_000, [1, 2, 2, 7]) },
    { rowsPerFile: 5_000 },
  );
  log(
    `  v${created?.version} create: ${created?.rowsWritten} rows in ${created?.filesAdded} file(s), ${created?.bytesWritten} bytes`,
  );
  const appended = await writeDeltaTable(
    location,
    { kind: 'rows', schema: SCHEMA, rows: trips('2025-02-01', 10_000_000, 5_000, [1, 2, 6]) },
    { mode: 'append', customMetadata: { writer: 'demo-append' } },
  );
  log(`  v${appended?.version} append: ${appended?.rowsWritten} rows`);
  const table = await DeltaTable.open(location);
  // Stats skip files by range, but only by range: vendor 6 drives only in February, yet every
  // January file has VendorID min 1 / max 7, and 6 lies between.
  const n = table.activeFiles().length;
  const feb = table.filesMatching("tpep_pickup_datetime >= TIMESTAMP '2025-02-01 00:00:00'").length;
  const v6 = table.filesMatching('VendorID = 6').length;
  log(`  at v${table.version}, a scan for February trips reads ${feb} of ${n} files (stats rule out the rest);`);
  log(`  a scan for VendorID = 6 reads ${v6} of ${n}: January's files have VendorID min 1 / max 7, and 6 lies between`);
  const kept = await table.query((rel) => `SELECT * FROM (${rel}) WHERE fare_amount >= 0`);
  const overwritten = await writeDeltaTable(
    location,
    { kind: 'rows', schema: SCHEMA, rows: kept },
    { mode: 'overwrite', customMetadata: { writer: 'demo-overwrite' } },
  );
  log(
    `  v${overwritten?.version} overwrite without negative fares: ${overwritten?.rowsWritten} rows, ${overwritten?.filesRemoved} file(s) removed`,
  );

  const latest = await DeltaTable.open(location);
  const v0 = await DeltaTable.open(location, { version: 0 });
  const vendorRows = await latest.query<{ VendorID: number; n: bigint }>(
    (rel) => `SELECT "VendorID", count(*) AS n FROM (${rel}) GROUP BY 1 ORDER BY 1`,
  );
  const vendorCounts = Object.fromEntries(vendorRows.map((r) => [String(r.VendorID), Number(r.n)]));
  const report: DemoReport = {
    location,
    versions: [],
    rowsNow: await latest.count(),
    rowsAtVersion0: await v0.count(),
    vendorCounts,
  };
  log(`Read back: ${report.rowsNow} rows now, ${report.rowsAtVersion0} at version 0 (time travel)`);
  log(`Trips per vendor now: ${JSON.stringify(vendorCounts)}`);
  log('The log:');
  for (let v = 0; v <= latest.version; v++) {
    const actions = await readCommit(latest.store, v);
    const info = actions.find((a) => 'commitInfo' in a) as { commitInfo: Record<string, unknown> } | undefined;
    const entry = {
      version: v,
      operation: String(info?.commitInfo.operation),
      parameters: info?.commitInfo.operationParameters,
      adds: actions.filter((a) => 'add' in a).length,
      removes: actions.filter((a) => 'remove' in a).length,
    };
    report.versions.push(entry);
    log(
      `  ${String(v).padStart(20, '0')}.json  ${entry.operation} ${JSON.stringify(entry.parameters)}  +${entry.adds} add, ${entry.removes} remove`,
    );
  }
  return report;
}
