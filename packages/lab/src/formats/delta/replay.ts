/**
 * The serial replay: the committed writers' logic run whole, one after another, in this process, on a
 * fresh copy of the run's starting table. Each writer does what its process did (the same prepareChange),
 * but with nobody racing it: a check-then-append re-checks the table as it is then, a retry loop needs
 * one try, a compaction compacts what it finds. A command writer's job runs alone as a process on the copy, as
 * it ran in the race, released at once.
 */
import { DeltaTable } from '@racelab/engine';
import type { WriterOperation, WriterSpec } from '../../cases/catalog';
import { checkOf, prepareChange } from '../../cases/operations';
import type { FiguresCache } from '../../oracle/compare';
import { committedInOrder } from '../../oracle/orders';
import { memoKey, rowsFileFacts } from '../../oracle/replay-key';
import type { WriterResult } from '../../results/types';
import { race } from '../../runner/race';
import { freshCopy } from '../../tables/fresh-copy';
import { commitOrder } from './commit-order';
import { taggedVersion } from './job-outcome';

export interface ReplayInput {
  /** The table the run's copy was made from, and the properties the copy got. */
  base: string;
  properties?: Record<string, string>;
  /** The roots absolute deletion vector paths may lie in (see freshCopy). */
  roots?: readonly string[];
  writers: WriterSpec[];
  /** The Parquet file of the rows a writer adds (see rowsFileOf). */
  rowsFile: (op: WriterOperation) => string | undefined;
  /** Copy the files' bytes, not links (a command writer's job may rewrite files in place: see freshCopy). */
  fullCopy?: boolean;
  /** How long a command writer's job may run when replayed. */
  jobTimeoutMs?: number;
}

export interface Replayed {
  table: DeltaTable;
  /** The version each replayed writer committed (absent: it had nothing to commit, or failed). */
  versions: Map<string, number>;
  /** Replayed commits that failed, in words: with nobody racing, a finding in itself. */
  failures: string[];
  /** The figures of its files the comparisons took (see FiguresCache): its files never change. */
  figures: FiguresCache;
}

/** Commit order from the Delta log: a writer whose version's commit is not its own (or that has none) goes last. */
export const commitOrderOf = (writers: WriterResult[], logOrder: string[]): string[] =>
  committedInOrder(writers, (w) => (w.version !== null && logOrder[w.version - 1] === w.name ? w.version : undefined));

/** Replays `order` (writer names, a name may repeat) into `dir`, a new folder. */
export async function replaySerial(input: ReplayInput, order: string[], dir: string): Promise<Replayed> {
  await freshCopy(input.base, dir, {
    ...(input.properties && { properties: input.properties }),
    ...(input.roots && { roots: input.roots }),
    ...(input.fullCopy && { fullCopy: true }),
  });
  const versions = new Map<string, number>();
  const failures: string[] = [];
  for (const name of order) {
    const spec = input.writers.find((w) => w.name === name);
    if (!spec) throw new Error(`replay: no writer named ${name}`);
    const op = spec.operation;
    if (op.kind === 'command') {
      const replayed = await replayJob(spec, dir, input.jobTimeoutMs);
      if (typeof replayed === 'number') versions.set(name, replayed);
      else if (replayed !== null) failures.push(replayed);
      continue;
    }
    const table = await DeltaTable.open(dir);
    const check = checkOf(op);
    // The check a check-then-append makes, made now on the table as the replay has left it.
    const observed = check ? { [check.key]: await table.count(check.predicate) } : {};
    try {
      const { prepared } = await prepareChange(
        table,
        op,
        { customMetadata: { writer: name } },
        input.rowsFile(op),
        observed,
      );
      if (prepared) versions.set(name, (await prepared.commit()).version);
    } catch (e) {
      failures.push(
        `${name}'s replayed ${op.kind} failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      );
    }
  }
  return { table: await DeltaTable.open(dir), versions, failures, figures: new Map() };
}

/**
 * A command writer's job run alone on the replay's copy, released at once: the version of its tagged commit, null
 * when it had nothing to commit, or its failure in words.
 */
async function replayJob(
  spec: WriterSpec,
  dir: string,
  timeoutMs: number | undefined,
): Promise<number | string | null> {
  // Alone: nobody to start after.
  const { startAfter: _, ...alone } = spec;
  const job = { kind: 'race' as const, format: 'delta' as const, table: dir, writer: alone };
  const [r] = await race([job], Date.now(), { ...(timeoutMs !== undefined && { timeoutMs }) });
  const version = taggedVersion(spec.name, await commitOrder(dir));
  if (version > 0) return version;
  if (r?.errorClass == null) return null;
  return `${spec.name}'s replayed job failed: ${r.errorClass}: ${(r.errorMessage ?? '').split('\n')[0]}`;
}

/**
 * What a replay depends on besides its order: the snapshot freshCopy copies (protocol, metadata, every live
 * add, txns, domain metadata), the copy's properties and roots, the writers' specs, their rows files.
 */
export async function replayInputs(input: ReplayInput): Promise<string> {
  const base = await DeltaTable.open(input.base, { ...(input.roots && { roots: input.roots }) });
  return memoKey({
    format: 'delta',
    base: input.base,
    version: base.version,
    protocol: base.protocol,
    metadata: base.metadata,
    files: base.activeFiles(),
    txns: [...base.appTransactions()],
    domainMetadata: [...base.domainMetadata()],
    properties: input.properties ?? null,
    roots: input.roots ?? null,
    writers: input.writers,
    rows: await rowsFileFacts(input),
  });
}
