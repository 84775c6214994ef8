/**
 * Delta Lake, as delta-rs 1.6.x writes it: the lab's flat and partitioned base tables or a table of the user's
 * own, raced on fresh copies at version 0 by writer processes (here or on other hosts), judged by serial replay.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeltaCase } from '../../cases/catalog';
import { describeWriters } from '../../cases/describe';
import { runDir } from '../../runner/run-context';
import type { TableFormat } from '../../runner/table-format';
import { baseTablesDir, ensureBaseTables } from '../../tables/base-tables';
import { baseTablesAt } from '../../tables/table-store';
import { withSampleFiles } from './rows-sample';
import { runDeltaCase } from './run';
import { openDeltaWriter } from './writer';

const startingTable = (c: DeltaCase) =>
  typeof c.table === 'string' ? `the ${c.table} Delta table` : `copies of the Delta table ${c.table.display}`;

export const deltaFormat: TableFormat<DeltaCase> = {
  id: 'delta',
  emulatedLibrary: 'delta-rs',

  async setup(cases, lab) {
    // A case on a table of the user's own copies that table: only the lab's own cases need base tables.
    const onBaseTables = cases.some((c) => typeof c.table === 'string');
    if (onBaseTables) lab.progress('base tables');
    const local = onBaseTables ? await ensureBaseTables(lab.workDir, await lab.dataset.get()) : null;
    if (local && lab.tableRoot) lab.progress(`base tables on ${lab.tableRoot}`);
    // The local base's marker names the data set it was built from; the S3 copy carries it along.
    const bases =
      local && lab.tableRoot
        ? await baseTablesAt(
            lab.tableRoot,
            local,
            `${lab.dataset.source}-${lab.dataset.scale}`,
            await readFile(join(baseTablesDir(lab.workDir, lab.dataset), 'done.json'), 'utf8'),
          )
        : local;
    const at = { dataset: lab.dataset, workDir: lab.workDir, ...(lab.tableRoot && { tableRoot: lab.tableRoot }) };
    return {
      async forCase(given) {
        // Samples of a user's table become files once, before the case's first run, and go after its last.
        const sampled =
          typeof given.table === 'string'
            ? null
            : await withSampleFiles(given, given.table.location, lab.workDir, lab.roots);
        const c = sampled?.case ?? given;
        return {
          // Replays live where the case's runs do.
          replayDir: (n) => runDir(at, `${c.id}-replay-${n}`, 0),
          run: (index, ctx) =>
            runDeltaCase(c, index, {
              ...ctx,
              bases,
              ...(lab.tableRoot && { tableRoot: lab.tableRoot }),
              ...(lab.acrossHosts && { acrossHosts: lab.acrossHosts }),
              ...(lab.roots && { roots: lab.roots }),
            }),
          dispose: async () => sampled?.remove(),
        };
      },
      close: async () => {},
    };
  },
  // Writers on other hosts run there, not in this machine's pool; a command writer is its own program.
  localWriters: (c, lab) => (lab.acrossHosts ? 0 : c.writers.filter((w) => w.operation.kind !== 'command').length),
  openWriter: openDeltaWriter,

  numbersCommits: true,

  describeCase: (c) => describeWriters(startingTable(c), c),
  writerNames: (c) => c.writers.map((w) => w.name),
  tableProperties: (c) => c.properties ?? {},
  takesTableProperties: true,
  takesTableRoot: true,
  ownTable: (c) => (typeof c.table === 'string' ? null : c.table),
  onBaseTable: (c) => (typeof c.table === 'string' ? { ...c, table: c.table } : null),
};
