/**
 * @racelab/contracts: the documents users and checks exchange, one schema each, browser-safe (it imports only
 * valibot and the engine's pure half). Each check reports every problem at once, naming the job, writer or file
 * and the field. The JSON Schemas in the repository's contracts/ folder are generated from these.
 */
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
export { checkLabResults, type LabResults } from './lab-results';
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
