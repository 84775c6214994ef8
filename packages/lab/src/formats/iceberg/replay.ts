/**
 * The serial replay of an Iceberg run: a new SQLite catalog whose table starts at the run's starting
 * metadata (its location moved into the copy's folder, so the replay's data, manifests and metadata land
 * there; the starting snapshot's files are shared, as Iceberg never rewrites a file), then the committed
 * writers' appends one after another with the engine, each snapshot tagged with its writer as in the race.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  defaultIcebergPathResolver,
  type IcebergDataFile,
  IcebergSqliteCatalog,
  type IcebergTable,
  icebergDataFiles,
  openIcebergTable,
  prepareIcebergAppend,
  readIcebergTableMetadata,
  serializeIcebergTableMetadata,
} from '@racelab/engine';
import type { WriterOperation, WriterSpec } from '../../cases/catalog';
import type { FiguresCache } from '../../oracle/compare';
import { memoKey, rowsFileFacts } from '../../oracle/replay-key';

export interface IcebergReplayInput {
  /** The run's table identifier (`namespace.table`) and its metadata location before the race. */
  table: string;
  start: string;
  writers: WriterSpec[];
  /** The Parquet file a writer's rows come from (see rowsFileOf). */
  rowsFile: (op: WriterOperation) => string | undefined;
}

/** What the oracle reads of an Iceberg table: its current data files, and each tagged snapshot's. */
export interface IcebergState {
  dataFiles: IcebergDataFile[];
  /** Per writer (the lab's writers name themselves in the snapshot summary): its snapshot's sequence number and added files. */
  commits: Map<string, { sequenceNumber: number; added: IcebergDataFile[] }>;
}

export async function icebergState(table: IcebergTable): Promise<IcebergState> {
  const filesOf = async (id: bigint | undefined) =>
    id === undefined ? [] : (await icebergDataFiles(table, { snapshotId: String(id) })).dataFiles;
  const commits: IcebergState['commits'] = new Map();
  for (const s of table.metadata.snapshots) {
    const writer = s.summary.writer;
    if (writer === undefined) continue;
    const before = new Set((await filesOf(s['parent-snapshot-id'])).map((f) => f.filePath));
    const added = (await filesOf(s['snapshot-id'])).filter((f) => !before.has(f.filePath));
    commits.set(writer, { sequenceNumber: s['sequence-number'], added });
  }
  return { dataFiles: (await icebergDataFiles(table)).dataFiles, commits };
}

export interface IcebergReplayed extends IcebergState {
  failures: string[];
  /** The figures of its data files the comparisons took (see FiguresCache): Iceberg never rewrites a file. */
  figures: FiguresCache;
}

/**
 * What a replay depends on besides its order: the starting metadata as icebergCopy rewrites it (all of it but its
 * location, which the copy replaces; its snapshots name their manifest lists, files never rewritten), the table's
 * identifier, the writers' specs and their rows files.
 */
export async function icebergReplayInputs(input: IcebergReplayInput): Promise<string> {
  const metadata = await readIcebergTableMetadata(input.start, defaultIcebergPathResolver);
  return memoKey({
    format: 'iceberg',
    table: input.table,
    start: serializeIcebergTableMetadata({ ...metadata, location: '' }),
    writers: input.writers,
    rows: await rowsFileFacts(input),
  });
}

/**
 * Registers a copy of the table metadata at `start`, located in `dir`, as `table` in a new catalog there
 * (`dir/catalog.db`); returns the catalog and the copy's metadata location. The files of `start`'s snapshots
 * are shared, never copied: Iceberg never rewrites a file.
 */
export async function icebergCopy(
  table: string,
  start: string,
  dir: string,
): Promise<{ catalog: IcebergSqliteCatalog; metadataLocation: string }> {
  const metadata = await readIcebergTableMetadata(start, defaultIcebergPathResolver);
  const location = join(dir, 'table');
  const metadataFile = join(location, 'metadata', `00000-${randomUUID()}.metadata.json`);
  mkdirSync(join(location, 'metadata'), { recursive: true });
  writeFileSync(metadataFile, serializeIcebergTableMetadata({ ...metadata, location: pathToFileURL(location).href }));
  const catalog = await IcebergSqliteCatalog.open({ path: join(dir, 'catalog.db') });
  try {
    const dot = table.lastIndexOf('.');
    const id = { namespace: table.slice(0, dot), name: table.slice(dot + 1) };
    await catalog.createNamespace(id.namespace);
    await catalog.insertTable(id, pathToFileURL(metadataFile).href);
    return { catalog, metadataLocation: pathToFileURL(metadataFile).href };
  } catch (e) {
    await catalog.close();
    throw e;
  }
}

/** Replays `order` (writer names) into `dir`, a new folder. */
export async function replayIceberg(input: IcebergReplayInput, order: string[], dir: string): Promise<IcebergReplayed> {
  const { catalog } = await icebergCopy(input.table, input.start, dir);
  try {
    const failures: string[] = [];
    for (const name of order) {
      const spec = input.writers.find((w) => w.name === name);
      if (!spec) throw new Error(`replay: no writer named ${name}`);
      const op = spec.operation;
      try {
        // The race's Iceberg writers append their day whatever else the spec says (formats/iceberg/writer.ts).
        const rows = input.rowsFile(op);
        if (!rows) throw new Error('an Iceberg append needs a file of rows');
        const table = await openIcebergTable(catalog, input.table);
        const prepared = await prepareIcebergAppend(table, [rows], {
          snapshotProperties: { writer: name },
        });
        await prepared.commit();
      } catch (e) {
        failures.push(`${name}'s replayed append failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    }
    return { ...(await icebergState(await openIcebergTable(catalog, input.table))), failures, figures: new Map() };
  } finally {
    await catalog.close();
  }
}
