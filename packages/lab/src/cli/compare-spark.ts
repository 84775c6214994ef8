/**
 * `npm run lab -- compare CASE… --library delta-spark`: there is no emulated Delta Spark writer, so the real Delta
 * Spark runs are set against the engine's model of Delta Spark's conflict checker (compare/spark-model.ts), B and C
 * cases under both isolation levels. The model is asked once per case and order, on a copy of the case's starting
 * table made exactly as a run's is (version 0, the case's properties).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeltaTable } from '@racelab/engine';
import type { DeltaCase, LabCase } from '../cases/catalog';
import {
  type ModelOutcome,
  modelOutcome,
  overlapped,
  runOrder,
  sparkComparable,
  sparkVariants,
  sparkVerdict,
} from '../compare/spark-model';
import type { CaseVerdict } from '../compare/verdict';
import { datasetCacheDir, lazyDataset } from '../data/index';
import { selectCases } from '../formats/registry';
import { type LabOptions, runLab, validateLabOptions } from '../lab';
import { pythonEnv } from '../real/python-env';
import type { LabResults, RunResult } from '../results/types';
import { ensureBaseTables } from '../tables/base-tables';
import { freshCopy } from '../tables/fresh-copy';
import { UsageError } from '../terminal/command-line';

export interface SparkComparison {
  verdicts: CaseVerdict[];
  /** The model's forecast per case (or level variant) and order, as compared. */
  model: { id: string; forecasts: ModelOutcome[] }[];
  real: LabResults;
}

/** The Spark comparison of `cases` (ids), run through `run` (runLab with the caller's progress display). */
export async function compareWithSpark(
  ids: readonly string[],
  common: Omit<LabOptions, 'cases'>,
  run: (o: LabOptions) => Promise<LabResults> = runLab,
): Promise<SparkComparison> {
  const chosen = selectCases([...ids]);
  const other = chosen.filter((c) => !sparkComparable(c));
  if (other.length > 0)
    throw new UsageError(
      `the Spark comparison sets real runs against a forecast for two writers; ${other.map((c) => c.id).join(', ')} race${other.length === 1 ? 's' : ''} another number of writers`,
    );
  const variants: LabCase[] = sparkVariants(chosen);
  const options = { ...common, cases: variants, library: 'delta-spark' };
  // Refused before anything runs: a case without a Spark twin, the Python side without Spark.
  validateLabOptions(options);
  await pythonEnv('delta-spark');
  const real = await run(options);
  const dataset = await lazyDataset({
    scale: real.scale,
    cacheDir: datasetCacheDir(common.workDir),
    ...(common.dataDir && { dataDir: common.dataDir }),
  }).get();
  const bases = await ensureBaseTables(common.workDir, dataset);
  const scratch = await mkdtemp(join(common.workDir, 'spark-model-'));
  const verdicts: CaseVerdict[] = [];
  const model: SparkComparison['model'] = [];
  try {
    for (const c of variants as DeltaCase[]) {
      const copy = join(scratch, c.id.replace(/\W/g, '_'));
      await freshCopy(bases[c.table as 'flat' | 'partitioned'], copy, {
        ...(c.properties && { properties: c.properties }),
      });
      const table = await DeltaTable.open(copy);
      const forecasts = new Map<string, ModelOutcome>();
      const judged: { run: RunResult; model: ModelOutcome }[] = [];
      for (const r of real.cases.find((x) => x.id === c.id)?.runs ?? []) {
        const [first, second] = runOrder(c, r);
        const overlap = overlapped(r, first, second);
        const key = `${first.name} ${overlap}`;
        let m = forecasts.get(key);
        if (!m) {
          m = await modelOutcome(table, first, second, dataset, overlap);
          forecasts.set(key, m);
        }
        judged.push({ run: r, model: m });
      }
      verdicts.push(sparkVerdict(c.id, judged));
      model.push({ id: c.id, forecasts: [...forecasts.values()] });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { verdicts, model, real };
}
