/**
 * What a table format gives the lab. Each format (Delta, Iceberg, Postgres, …) lives in its own folder under
 * formats/ and is named in one place, registry.ts; runLab, the writer process, the report checker and the API
 * ask the format of a case instead of testing which one it is.
 */
import type { DeltaCase, LabCase, TableAt, TableFormatId } from '../cases/catalog';
import type { LazyDataset } from '../data/index';
import type { RunResult } from '../results/types';
import type { TableKind } from '../tables/base-tables';
import type { AcrossHosts } from './across-hosts';
import type { Send, WriterJob, WriterOutcome } from './messages';
import type { RunContext } from './run-context';

/** What runLab hands every format it sets up: the data set, the work folder and the run options. */
export interface LabSetting {
  /** Prepared by the first format or run that asks for it. */
  dataset: LazyDataset;
  workDir: string;
  /** Where run tables live when not in the work folder: an s3:// prefix. */
  tableRoot?: string;
  /** Writers on other hosts, their barrier in Postgres. */
  acrossHosts?: AcrossHosts;
  /** LAB_ROOTS, resolved (see copy-refusals.ts). */
  roots?: readonly string[];
  /** A setup step, for progress displays. */
  progress(message: string): void;
}

/** A format's shared setup for one runLab call: made once, closed when the lab ends. */
export interface FormatSession<C extends LabCase = LabCase> {
  /** Libraries and servers that decide this format's outcomes, added to the results file's versions. */
  versions?: Record<string, string>;
  /** Readies one case for its runs (what they share: a seed table, sample files); disposed when the case ends. */
  forCase(c: C): Promise<CaseRuns>;
  close(): Promise<void>;
}

/** One case, ready to run. */
export interface CaseRuns {
  /** A new folder for the verdict memo's n-th kept replay (where this format's replays live). */
  replayDir(n: number): string;
  /** One run of the case: its race, the table checks and the verdict. */
  run(index: number, ctx: RunContext): Promise<RunResult>;
  /** Removes what forCase made for the case's runs. */
  dispose(): Promise<void>;
}

/** The change a writer runs after the barrier, in its writer process. */
export type WriterChange = () => Promise<WriterOutcome>;

export interface TableFormat<C extends LabCase = LabCase> {
  /** The `format` of its cases. */
  readonly id: TableFormatId;
  /** The library its writers' changes emulate, by the engine's name for it (results name it for each writer). */
  readonly emulatedLibrary?: string;
  /** Cases this format adds after the lesson's catalog (the built-in formats' cases are the catalog's own). */
  readonly presets?: readonly C[];

  /** Prepares what the lab's cases of this format share (base tables, a server); called when some case is one. */
  setup(cases: readonly C[], lab: LabSetting): Promise<FormatSession<C>>;
  /** Writer processes one run of the case starts on this machine, for the warm pool's size (0: none). */
  localWriters(c: C, lab: Pick<LabSetting, 'acrossHosts'>): number;
  /** In a writer process: opens what the job's writer holds before the barrier, and returns its change. */
  openWriter?(job: WriterJob, send: Send): Promise<WriterChange>;

  /** Each commit is a table version (1, 2, … from a fresh table at version 0): the report checks them so. */
  readonly numbersCommits: boolean;

  /** The case in one sentence: its starting table, its table properties and what each writer does. */
  describeCase(c: C): string;
  /** The writers' names as runs report them. */
  writerNames(c: C): string[];
  /** The table properties the case's runs give their table ({} when it sets none). */
  tableProperties(c: C): Record<string, string>;
  /** Whether a preset of this format takes a user's table properties (e.g. `delta.isolationLevel`) when started. */
  readonly takesTableProperties: boolean;
  /** Whether its run tables may live under an S3 table root. */
  readonly takesTableRoot: boolean;
  /** The user's own table the case races copies of; null when it races one of the lab's. */
  ownTable(c: C): TableAt | null;
  /** The case, when it races one of the lab's base tables (the lesson's shapes are compared on them); else null. */
  onBaseTable?(c: C): BaseTableCase | null;
}

/** A case racing one of the lab's base tables, the flat or the partitioned January table. */
export type BaseTableCase = DeltaCase & { table: TableKind };
