/**
 * A sweep point's fresh table and the rows its writers add. One small schema for every operation: (writer, seq,
 * part, value). Append tables start empty; update tables start with rows in partitions 0..N-1 (partitioned by
 * `part`), so `part = w` is writer w's own partition and `part >= 0` every row. The day file is written once per
 * sweep, before any race.
 */

import type { SweepOperation } from '@racelab/contracts';
import { type StructType, withConnection, writeDeltaTable } from '@racelab/engine';

export const SWEEP_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'writer', type: 'integer', nullable: true, metadata: {} },
    { name: 'seq', type: 'integer', nullable: true, metadata: {} },
    { name: 'part', type: 'integer', nullable: true, metadata: {} },
    { name: 'value', type: 'long', nullable: true, metadata: {} },
  ],
};

export type SweepRow = {
  writer: number;
  seq: number;
  part: number;
  value: number | bigint;
};

/** The row writer `writer`'s commit `seq` appends (append-row, and compaction's appenders). */
export const appendRow = (writer: number, seq: number): SweepRow => ({ writer, seq, part: writer, value: seq });

/** Rows per partition an update table starts with. */
export const SEED_ROWS_PER_PART = 10;
/** Rows in append-day's day file. */
export const DAY_ROWS = 10_000;

export const updates = (op: SweepOperation) => op === 'update-disjoint' || op === 'update-overlap';

/** The rows an update table starts with: SEED_ROWS_PER_PART in each partition 0..writers-1 (writer -1, the seed). */
export function seedRows(writers: number): SweepRow[] {
  return Array.from({ length: writers * SEED_ROWS_PER_PART }, (_, i) => ({
    writer: -1,
    seq: 0,
    part: Math.floor(i / SEED_ROWS_PER_PART),
    value: i,
  }));
}

/** Creates the point's table at version 0: empty for appends, seeded and partitioned for updates. */
export async function createSweepTable(location: string, op: SweepOperation, writers: number): Promise<void> {
  const update = updates(op);
  await writeDeltaTable(
    location,
    { kind: 'rows', schema: SWEEP_SCHEMA, rows: update ? seedRows(writers).map((r) => ({ ...r })) : [] },
    { mode: 'error', ...(update && { partitionBy: ['part'] }), customMetadata: { writer: 'seed' } },
  );
}

const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** append-day's file: DAY_ROWS synthetic rows (writer -2, the day), values from the seed, written once. */
export async function writeDayFile(file: string, seed: number): Promise<void> {
  await withConnection(async (conn) => {
    await conn.run(
      `COPY (SELECT -2::INTEGER AS writer, 0::INTEGER AS seq, (i % 24)::INTEGER AS part,
              (hash(i, ${seed >>> 0}::UBIGINT) % 1000000000)::BIGINT AS value FROM range(${DAY_ROWS}) t(i))
       TO ${quoted(file)} (FORMAT parquet, COMPRESSION snappy)`,
    );
  });
}
