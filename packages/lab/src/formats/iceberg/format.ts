/**
 * Apache Iceberg, the lesson's contrast: appends to a table of the 2025-01-15 trips in a SQLite SQL catalog,
 * committed with pyiceberg's rules; the case's starting table is seeded once and each run registers a copy.
 */
import { rm } from 'node:fs/promises';
import type { IcebergCase } from '../../cases/catalog';
import { describeWriters } from '../../cases/describe';
import { runDir } from '../../runner/run-context';
import type { TableFormat } from '../../runner/table-format';
import { ensureBaseTables, ensureJan15 } from '../../tables/base-tables';
import { runIcebergCase, seedIcebergTable } from './run';
import { openIcebergWriter } from './writer';

const STARTING_TABLE = 'the Iceberg table of 2025-01-15 (SQL catalog)';

export const icebergFormat: TableFormat<IcebergCase> = {
  id: 'iceberg',
  emulatedLibrary: 'pyiceberg',

  async setup(_cases, lab) {
    lab.progress('base tables');
    // The 2025-01-15 file is kept beside the base tables, and trusted only when they were built from this data set.
    const dataset = await lab.dataset.get();
    await ensureBaseTables(lab.workDir, dataset);
    const jan15 = await ensureJan15(lab.workDir, dataset);
    const at = { dataset: lab.dataset, workDir: lab.workDir };
    return {
      // What decides the Iceberg outcomes: the engine's reimplementation of pyiceberg's commit and retry.
      versions: { iceberg: 'pyiceberg 0.12.0 commit and retry rules, SQLite catalog (better-sqlite3)' },
      async forCase(c) {
        // The case's starting table is written once for its runs; each run registers a copy of it.
        const seedDir = runDir(at, `${c.id}-seed`, 0);
        const dispose = () => rm(seedDir, { recursive: true, force: true });
        let seed: string;
        try {
          seed = await seedIcebergTable(seedDir, jan15, c.properties);
        } catch (e) {
          await dispose();
          throw e;
        }
        return {
          replayDir: (n) => runDir(at, `${c.id}-replay-${n}`, 0),
          run: (index, ctx) => runIcebergCase(c, index, { ...ctx, seed }),
          dispose,
        };
      },
      close: async () => {},
    };
  },
  localWriters: (c) => c.writers.length,
  openWriter: openIcebergWriter,

  numbersCommits: false,

  describeCase: (c) => describeWriters(STARTING_TABLE, c),
  writerNames: (c) => c.writers.map((w) => w.name),
  tableProperties: (c) => c.properties ?? {},
  takesTableProperties: false,
  takesTableRoot: false,
  ownTable: () => null,
};
