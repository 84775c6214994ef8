/**
 * @racelab/contracts: the documents users and checks exchange, one schema each, browser-safe (it imports only
 * valibot and the engine's pure half). Each check reports every problem at once, naming the job, writer or file
 * and the field. The JSON Schemas in the repository's contracts/ folder are generated from these.
 */
export {
  CODE_LANGUAGES,
  CODE_SEVERITIES,
  type CodeAuditDocument,
  checkCodeAudit,
  codeAuditSchema,
  SETTING_KINDS,
} from './code-audit';
export { type FieldInfo, fieldsOf } from './fields';
export {
  checkJobsManifest,
  type Job,
  type JobOperation,
  MAX_DURATION_MINUTES,
  MAX_JOBS,
  type Manifest,
  type ManifestOptions,
  type OnCommitFailed,
} from './jobs-manifest';
export { checkLabResults, type LabResults, WRITER_RUNS, type WriterRun } from './lab-results';
export type { Checked } from './problems';
export {
  type CustomRace,
  type CustomRaceInput,
  type CustomWriterInput,
  checkCustomRace,
  checkStartRace,
  customRaceOf,
  customWriterOf,
  DAY_OPERATIONS,
  FEB_DAYS,
  type KeyValueInput,
  keyValueInput,
  LAB_TABLES,
  MAX_COMMIT_RETRIES,
  MAX_RETRY_LOOP,
  MAX_RUNS,
  MAX_SAMPLE_ROWS,
  MAX_WRITERS,
  namesLabTable,
  PREDICATE_OPERATIONS,
  propertyProblems,
  type RaceInputOptions,
  repeatedKeys,
  SERVED_SCALES,
  SOURCE_PREDICATE_OPERATIONS,
  type StartRace,
  type StartRaceInput,
  startRaceInputSchema,
  WRITER_OPERATIONS,
  type WriterInput,
  writerInputSchema,
} from './race-input';
export {
  type Backoff,
  checkSweepInput,
  DEFAULT_SWEEP_APPEND_RATE,
  DEFAULT_SWEEP_COMMITS,
  DEFAULT_SWEEP_SEED,
  DEFAULT_SWEEP_WRITERS,
  JITTERS,
  MAX_SWEEP_APP_TRIES,
  MAX_SWEEP_APPEND_RATE,
  MAX_SWEEP_BACKOFF_MS,
  MAX_SWEEP_COMMIT_RETRIES,
  MAX_SWEEP_COMMITS,
  MAX_SWEEP_COMMITS_PER_WRITER,
  MAX_SWEEP_WRITERS,
  RETRY_POLICIES,
  RETRY_POLICY_NAMES,
  type RetryPolicy,
  type RetryPolicyName,
  retryPolicySchema,
  type StartSweepInput,
  SWEEP_OPERATIONS,
  type SweepInput,
  type SweepOperation,
  startSweepInputSchema,
  sweepCommits,
  sweepInputSchema,
} from './sweep-input';
export {
  checkSweepResults,
  type Quantiles,
  type SweepFailure,
  type SweepForecast,
  type SweepPoint,
  type SweepResults,
  sweepForecastSchema,
  sweepResultsSchema,
} from './sweep-results';
export {
  SWEEP_SCENARIO_NAMES,
  SWEEP_SCENARIOS,
  type SweepScenario,
  type SweepScenarioName,
} from './sweep-scenarios';
export {
  attemptsSpread,
  percent,
  pointSuccess,
  SWEEP_FORECAST_COLUMNS,
  SWEEP_TABLE_COLUMNS,
  sweepTableCells,
} from './sweep-table';
export {
  CONCURRENCY_EVIDENCE,
  checkTableHistory,
  HISTORY_SEVERITIES,
  JUDGED_OUTCOMES,
  type TableHistoryDocument,
  tableHistorySchema,
} from './table-history';
export { agree, plural } from './words';
export {
  DEFAULT_MAX_WORK_MINUTES,
  durationText,
  estimateRace,
  estimateSweep,
  MAX_WORK_LIMIT_MINUTES,
  MEASURED_STEP_TIMES,
  type StepTimes,
  type SweepEstimateContext,
  tooLongMessage,
  type WorkEstimate,
  type WorkParts,
  type WorkRefusal,
  workLimitOf,
  workRefusal,
} from './work-duration';
export {
  NOTHING_TO_COMMIT,
  nothingToCommitSummary,
  nothingToCommitWords,
  type OutcomeFields,
  outcomePattern,
  WRITER_OUTCOMES,
  type WriterOutcomeKind,
  writerOutcomeOf,
} from './writer-outcome';
