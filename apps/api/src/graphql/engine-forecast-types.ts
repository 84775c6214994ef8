/**
 * SECOND's fate under one engine, as predictConflict and the jobs audit's pairs list it: delta-rs
 * 1.6.x (what races run) and the modelled Delta Spark and Databricks checkers, each saying which.
 */
import type { EngineForecast } from '@racelab/engine';
import { builder } from './builder';
import { clientSafeTextOrNull } from './client-safe-text';

export const EngineForecastType = builder.objectRef<EngineForecast>('EngineForecast').implement({
  description:
    "SECOND written and judged by one engine: that engine's checker, under its reading of delta.isolationLevel",
  fields: (t) => ({
    engine: t.exposeString('engine', { description: 'delta-rs, delta-spark or databricks' }),
    isolationLevel: t.exposeString('isolationLevel', {
      nullable: true,
      description: 'the table level as this engine reads delta.isolationLevel; null: it cannot, and every commit fails',
    }),
    commits: t.exposeBoolean('commits'),
    failedCheck: t.exposeString('failedCheck', { nullable: true }),
    message: t.string({
      nullable: true,
      description: "the refusal in the engine's own words (delta-rs: the CommitFailedError text)",
      resolve: (f, _args, ctx) => clientSafeTextOrNull(f.message, ctx),
    }),
    note: t.exposeString('note', {
      nullable: true,
      description:
        "null for delta-rs; Delta Spark: measured (the lab's case and the real run named) where real Delta Spark runs agreed, else modelled; Databricks: modelled, not measured",
    }),
  }),
});
