/** @racelab/lab: the race lab: data sets, base tables, writer processes behind a barrier, cases, checks. */

export {
  ARCHIVE_BOUNDS,
  type ArchiveBounds,
  type ArchiveKind,
  ArchiveRefusedError,
  type SkippedEntry,
  type UnpackedArchive,
  unpackArchive,
} from './audit/code/archive';
export {
  auditCode,
  type CodeAudit,
  type CodeAuditOptions,
  type CodeFinding,
  CodePathError,
  type CodePlace,
  type CodeSetting,
  type CodeSeverity,
  type FileProblem,
  type SkippedFile,
} from './audit/code-scan/index';
export {
  DEFAULT_HISTORY_BOUNDS,
  HistoryBoundError,
  type HistoryBounds,
  KeyColumnError,
  type TableHistory,
  type TableHistoryOptions,
  tableHistory,
} from './audit/history/index';
export {
  auditJobs,
  type Finding,
  type Job,
  type JobAudit,
  MAX_PAIR_FORECASTS,
  type Manifest,
  type PairForecast,
  type SkippedWork,
} from './audit/index';
export { ManifestError, parseManifest, readManifest } from './audit/manifest';
export { compiledEntry, DEFAULT_BUILD_DIR } from './build/compiled-entry';
export { findRepoRoot, REPO_ROOT } from './build/repo-root';
export {
  CASES,
  type DeltaCase,
  type FebDay,
  type LabCase,
  type PostgresCase,
  type RowsFrom,
  type TableAt,
  type TableFormatId,
  type WriterOperation,
  type WriterSpec,
} from './cases/catalog';
export {
  CaseInputError,
  type CustomCaseInput,
  type CustomWriterInput,
  customCase,
  FEB_DAYS,
  labTableSchema,
  MAX_WRITERS,
  propertyProblems,
  runnableCustomCase,
} from './cases/custom';
export { caseGroup, refuseWithoutStore, StoreNeededError, storeNeed } from './cases/groups';
export { hasJobCommands, type JobPlaces, withJobCommands } from './cases/job-roots';
export { type LocationCaseOptions, locationCase } from './cases/location';
export { labTableNoMatchWarnings, noMatchWarnings } from './cases/no-match';
export { type Dataset, prepareDataset, SERVED_SCALES, scaledFigures } from './data/index';
export { type DemoReport, runDemo } from './demo';
export {
  type ConflictForecast,
  ForecastError,
  type ForecastInput,
  forecastConflict,
} from './forecast/conflict-forecast';
export { withProperties } from './formats/case-properties';
export { commitOrderOf } from './formats/delta/replay';
export { type DeltaVerdictInput, deltaVerdict } from './formats/delta/verdict';
export {
  buildNextCopy,
  copyFromFile,
  LAB_DATABASE,
  type PostgresCaseResult,
  preparePostgresLab,
  runPostgresCase,
  swapInNextCopy,
  tipUpdateSql,
} from './formats/postgres/index';
export {
  formatById,
  formatOf,
  labCases,
  onBaseTable,
  registerFormat,
  selectCases,
  tableFormats,
  UnknownCaseError,
} from './formats/registry';
export { LabInputError, type LabOptions, type LabProgress, MAX_RUNS, runLab, validateLabOptions } from './lab';
export { caseVerdict } from './oracle/index';
export {
  type PythonEnv,
  PythonSideMissingError,
  pythonEnv,
  REAL_LIBRARIES,
  type RealLibrary,
  SETUP_COMMAND,
} from './real/python-env';
export { RealRunRefusedError, realLibraries, realLibrary } from './real/refusals';
export { clientSafeMessage, namedRoots } from './results/safe-message';
export { caseOutcome, loserErrors, runOutcome, tableAfter } from './results/summary';
export * from './results/types';
export { type AcrossHosts, type RemoteWriterJob, runWriterJob, type WriterHost } from './runner/across-hosts';
export { RaceCancelledError } from './runner/race';
export type {
  BaseTableCase,
  CaseRuns,
  FormatSession,
  LabSetting,
  TableFormat,
  WriterChange,
} from './runner/table-format';
export {
  checkPoint,
  runSweep,
  type SweepCommitRecord,
  SweepInputError,
  type SweepOptions,
  type SweepProgress,
  type SweepProgressKind,
  sweepTable,
} from './sweep/index';
export { type AppendedFile, previewAppend } from './tables/append-stats';
export { type LabDataOptions, prepareLabData } from './tables/base-tables';
export { CopyRefusedError, copyRefusals, raceRefusals, writeRefusal } from './tables/copy-refusals';
export { type CopyOptions, freshCopy } from './tables/fresh-copy';
export { type LayoutFile, type LayoutOptions, type TableLayout, tableLayout, type ValueCount } from './tables/layout';
export {
  type LocationConfig,
  LocationError,
  locationConfigFromEnv,
  MAX_LOCATION_LENGTH,
  type ResolvedFolder,
  type ResolvedLocation,
  resolveFolderLocation,
  resolveTableLocation,
} from './tables/locations';
export { notATableReason, readingTable } from './tables/not-a-table';
export {
  answerAndExit,
  answerHelpOrVersion,
  CommandAnswer,
  type CommandSpec,
  helpText,
  noArguments,
  productVersion,
  runCommand,
  UsageError,
  usageText,
} from './terminal/command-line';
export { ProgressBoard, type ProgressTask } from './terminal/progress-board';
