/**
 * The Spark comparison: real Delta Spark runs of a two-writer case set against the engine's model of Delta Spark's
 * conflict checker (simulateConflict's delta-spark answer), both writers written as Delta Spark writes them. Each run
 * is judged in its own order: the writer whose commit landed first (or the leader of a `startAfter` case) is the
 * model's FIRST. Compared per run: who commits, the loser's exception class (the simple name the JVM throws) and
 * message (the table's path masked, as the model words it), the commit versions and retries, and the table afterwards
 * (the run's serial-replay verdict: a table that equals no serial order of the writers that committed is a difference).
 *
 * B and C cases run under both `delta.isolationLevel` values (a variant per level, the level written into the run's
 * copy at version 0 as every case's properties are); the other cases under the level they set, the I cases also with
 * both writers released together. A SECOND that read FIRST's commit (a sequenced case: Spark reads the table when
 * its statement runs) did not race: its forecast is the serial one, said so in the verdict.
 */
import { type DeltaTable, type EngineForecast, simulateConflict } from '@racelab/engine';
import type { DeltaCase, LabCase, WriterSpec } from '../cases/catalog';
import type { Dataset } from '../data/index';
import { simulatedWriter, tableFacts } from '../forecast/conflict-forecast';
import type { RunResult, WriterResult } from '../results/types';
import type { CaseVerdict } from './verdict';

/** The two levels B and C cases are run under; Delta Spark's own default (unset) is Serializable. */
export const SPARK_LEVELS = ['WriteSerializable', 'Serializable'] as const;

/** The cases run under both levels. */
const bothLevels = (c: LabCase) => /^[BC]\d/.test(c.id);

/**
 * The I cases race again with both writers released together (`I3@together`): a Delta Spark statement reads the
 * table when it runs, never at the barrier, so a writer started after another's commit reads that commit and nothing
 * conflicts; only released together can the update read the version before the append.
 */
const alsoTogether = (c: LabCase) => /^I\d/.test(c.id);

/** `B1@Serializable`: a case under one level; `I3@together`: an I case's writers released at once. */
export function sparkVariants(cases: readonly LabCase[]): DeltaCase[] {
  return cases.flatMap((c): DeltaCase[] => {
    if (c.format !== 'delta') return [];
    if (bothLevels(c))
      return SPARK_LEVELS.map((level) => ({
        ...c,
        id: `${c.id}@${level}`,
        properties: { ...c.properties, 'delta.isolationLevel': level },
      }));
    if (!alsoTogether(c)) return [c];
    const together = c.writers.map(({ startAfter: _, ...w }) => w);
    return [c, { ...c, id: `${c.id}@together`, writers: together }];
  });
}

/** The cases the model forecasts: exactly two writers (FIRST and SECOND). */
export function sparkComparable(c: LabCase): boolean {
  return c.format === 'delta' && c.writers.length === 2;
}

/** Spark names the table by its path; the model by a placeholder. */
const TABLE_NAME = /delta\.`[^`]*`/g;
export const maskSparkMessage = (m: string) => m.replace(TABLE_NAME, 'delta.`<table path>`');

const simpleName = (cls: string | null) => (cls === null ? null : cls.slice(cls.lastIndexOf('.') + 1));

/** The run's order: FIRST is the leader of a sequenced case, else the writer whose commit landed first. */
export function runOrder(c: DeltaCase, run: RunResult): [WriterSpec, WriterSpec] {
  const [a, b] = c.writers as [WriterSpec, WriterSpec];
  if (b.startAfter === a.name) return [a, b];
  if (a.startAfter === b.name) return [b, a];
  const result = (w: WriterSpec) => run.writers.find((x) => x.name === w.name);
  const landed = (w: WriterSpec) => {
    const r = result(w);
    return r?.committed && r.version !== null ? r.version : Number.POSITIVE_INFINITY;
  };
  return landed(b) < landed(a) ? [b, a] : [a, b];
}

/** What the model says of one order: each writer's outcome, version, retries, and the loser's exception. */
export interface ModelOutcome {
  first: string;
  second: string;
  /** SECOND read the table before FIRST's commit (a race the checker judges); false: it ran after it. */
  overlap: boolean;
  /** Delta Spark's answer for SECOND (the forecast's byEngine entry). */
  spark: EngineForecast;
  writers: {
    name: string;
    outcome: 'committed' | 'failed' | 'nothing-to-commit';
    version: number | null;
    commitRetries: number | null;
    errorClass: string | null;
    errorMessage: string | null;
  }[];
}

/**
 * Whether the run's SECOND read the table before FIRST's commit landed: only then did the two overlap and the
 * conflict checker judge SECOND against FIRST. A SECOND that read FIRST's commit ran after it, serially.
 */
export function overlapped(run: RunResult, first: WriterSpec, second: WriterSpec): boolean {
  const [f, s] = [first, second].map((w) => run.writers.find((x) => x.name === w.name));
  if (!f?.committed || f.version === null || s?.readVersion === null || s?.readVersion === undefined) return true;
  return s.readVersion < f.version;
}

/**
 * The model's forecast for the case's run table (its copy at version 0) in the order FIRST, SECOND; with `overlap`
 * false, SECOND read FIRST's commit, and the model's answer is the serial one (no rival: nothing to refuse).
 */
export async function modelOutcome(
  table: DeltaTable,
  first: WriterSpec,
  second: WriterSpec,
  dataset: Dataset,
  overlap = true,
): Promise<ModelOutcome> {
  const a = { ...simulatedWriter(first), engine: 'delta-spark' as const };
  const b = { ...simulatedWriter(second), engine: 'delta-spark' as const };
  const f = simulateConflict({ facts: await tableFacts(table, [a, b], dataset), first: a, second: b });
  const spark = f.byEngine.find((e) => e.engine === 'delta-spark') as EngineForecast;
  const read = table.version;
  const firstOutcome = f.first.nothingToCommit ? 'nothing-to-commit' : f.first.error ? 'failed' : 'committed';
  const firstCommits = firstOutcome === 'committed';
  const secondOutcome = f.second.nothingToCommit
    ? 'nothing-to-commit'
    : spark.commits || !overlap
      ? 'committed'
      : 'failed';
  // A refused SECOND with a retry loop commits in its redo, a version later; Spark's own retry moves past FIRST.
  // Serially, SECOND's transaction starts on FIRST's commit: nothing to move past.
  const redo = !overlap || ((second.retryLoop ?? 1) > 1 && spark.message !== null);
  return {
    first: first.name,
    second: second.name,
    overlap,
    spark,
    writers: [
      {
        name: first.name,
        outcome: firstOutcome,
        version: firstCommits ? read + 1 : null,
        commitRetries: firstCommits ? 0 : null,
        // FIRST fails only where Delta Spark cannot read the table's level at all (its every commit fails).
        errorClass: f.first.error ? 'DeltaIllegalArgumentException' : null,
        errorMessage: f.first.error?.message ?? null,
      },
      {
        name: second.name,
        outcome: secondOutcome,
        version: secondOutcome === 'committed' ? read + (firstCommits ? 2 : 1) : null,
        commitRetries: secondOutcome === 'committed' ? (firstCommits && !redo ? 1 : 0) : null,
        errorClass: secondOutcome === 'failed' ? simpleName(spark.exceptionClass) : null,
        errorMessage: secondOutcome === 'failed' ? spark.message : null,
      },
    ],
  };
}

const outcomeOf = (w: WriterResult) =>
  w.committed ? 'committed' : w.errorClass === null ? 'nothing-to-commit' : 'failed';

/** Where one real run parts from the model's forecast for its order, in words. */
export function runDifferences(run: RunResult, model: ModelOutcome): string[] {
  const out: string[] = [];
  for (const m of model.writers) {
    const r = run.writers.find((w) => w.name === m.name);
    if (!r) {
      out.push(`${m.name}: no real result`);
      continue;
    }
    const real = {
      outcome: outcomeOf(r),
      version: r.version,
      commitRetries: r.commitRetries,
      errorClass: r.committed ? null : r.errorClass,
      errorMessage: r.committed || r.errorMessage === null ? null : maskSparkMessage(r.errorMessage),
    };
    for (const k of ['outcome', 'version', 'commitRetries', 'errorClass', 'errorMessage'] as const) {
      if (real[k] !== m[k])
        out.push(`${m.name} ${k}: model ${JSON.stringify(m[k])}, real Delta Spark ${JSON.stringify(real[k])}`);
    }
  }
  if (run.verdict?.status === 'not-serializable')
    out.push(`the table afterwards equals no serial order of the writers that committed: ${run.verdict.summary}`);
  return out;
}

/** The verdict on one case (or level variant): every run against the model's forecast for its own order. */
export function sparkVerdict(id: string, runs: readonly { run: RunResult; model: ModelOutcome }[]): CaseVerdict {
  const differences = new Set<string>();
  const timing = new Set<string>();
  for (const { run, model } of runs) {
    const said = runDifferences(run, model);
    const order = `${model.first} first${model.overlap ? '' : `, ${model.second} read its commit (serial, no conflict check)`}`;
    for (const d of said) differences.add(`run ${run.index} (${order}): ${d}`);
    if (said.length === 0) timing.add(`${order}: as modelled`);
  }
  return { id, agree: differences.size === 0, differences: [...differences], timing: [...timing] };
}
