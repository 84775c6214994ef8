/**
 * What real Delta Spark runs measured of the engine's Delta Spark model, and the note each per-engine forecast
 * carries. The lab's Spark comparison (`npm run lab -- compare … --library delta-spark`, docs/fidelity.md) races the
 * lesson's two-writer cases in the real Delta Spark and sets every run against this model; where it agreed, a
 * forecast of the same kinds of writers on the same kind of table under the same level is measured, and its note
 * names the case and the run. Anything else stays modelled, as Databricks always does (it cannot run here). Pure.
 */
import type { IsolationLevel } from '../conflict/isolation';
import type { CheckedLibrary } from '../conflict/writer-libraries';
import type { SimulatedWriter } from './simulated-writer';
import type { SimulationFacts } from './simulation-facts';

/** The run that measured the model: the versions raced and the day. */
export const SPARK_RUN = 'real Delta Spark 4.4.0 on Spark 4.2.0, 2026-12-08';

/** Said beside a Databricks forecast: its checker is a model, never raced here. */
export const MODELLED_NOT_MEASURED = 'modelled, not measured: Databricks cannot run here';

/** Said beside a Delta Spark forecast that no real run covers. */
export const SPARK_NOT_MEASURED = 'modelled, not measured: no real Delta Spark run covers these writers at this level';

/** The kind of a writer as the measured cases tell them apart. */
type Kind = 'update' | 'delete' | 'optimize' | 'blind-append';

interface Measured {
  /** The lab's case (and variant) whose real runs agreed with the model. */
  caseId: string;
  first: Kind;
  second: Kind;
  partitioned: boolean;
  levels: readonly IsolationLevel[];
}

const BOTH: readonly IsolationLevel[] = ['WriteSerializable', 'Serializable'];

/**
 * The agreed cases, FIRST's and SECOND's kinds in the order the runs committed them: an order or level no run saw is
 * not claimed (C1's update landed first in one run, under WriteSerializable).
 */
export const SPARK_MEASURED: readonly Measured[] = [
  { caseId: 'B1', first: 'update', second: 'update', partitioned: false, levels: BOTH },
  { caseId: 'B2', first: 'delete', second: 'delete', partitioned: false, levels: BOTH },
  { caseId: 'B3', first: 'update', second: 'update', partitioned: true, levels: BOTH },
  { caseId: 'C1', first: 'optimize', second: 'update', partitioned: false, levels: BOTH },
  { caseId: 'C1', first: 'update', second: 'optimize', partitioned: false, levels: ['WriteSerializable'] },
  { caseId: 'I3@together', first: 'blind-append', second: 'update', partitioned: false, levels: ['Serializable'] },
  { caseId: 'I4@together', first: 'blind-append', second: 'update', partitioned: false, levels: ['WriteSerializable'] },
  // C2, C3 and the sequenced I cases measured no conflict check: Delta Spark's second writer read the first's commit.
];

function kindOf(w: SimulatedWriter): Kind | null {
  const c = w.change;
  if (c.kind === 'append') return c.blind === true ? 'blind-append' : null;
  return c.kind === 'update' || c.kind === 'delete' || c.kind === 'optimize' ? c.kind : null;
}

/** The measured case these writers, table and level are an instance of; null when none. */
export function sparkMeasurement(
  first: SimulatedWriter,
  second: SimulatedWriter,
  facts: SimulationFacts,
  level: IsolationLevel | null,
): Measured | null {
  const [a, b] = [kindOf(first), kindOf(second)];
  const partitioned = facts.snapshot.partitionColumns.length > 0;
  return (
    SPARK_MEASURED.find(
      (m) =>
        m.first === a && m.second === b && m.partitioned === partitioned && level !== null && m.levels.includes(level),
    ) ?? null
  );
}

/** The note beside `engine`'s forecast: null for delta-rs (what races run), measured or modelled for the others. */
export function engineNote(
  engine: CheckedLibrary,
  first: SimulatedWriter,
  second: SimulatedWriter,
  facts: SimulationFacts,
  level: IsolationLevel | null,
): string | null {
  if (engine === 'delta-rs') return null;
  if (engine === 'databricks') return MODELLED_NOT_MEASURED;
  const m = sparkMeasurement(first, second, facts, level);
  return m ? `measured: as the lab's ${m.caseId} under ${level}, ${SPARK_RUN}` : SPARK_NOT_MEASURED;
}
