/** The report checker's own types. It shares nothing with the lab but the results file's types. */

/** What the checker counted itself in the raw data (at the results' scale). */
export interface Figures {
  /** January trips: the base table. */
  january: number;
  /** January trips per VendorID ("1", "2", "6", "7"). */
  byVendor: Record<string, number>;
  /** January trips with fare_amount < 0, with trip_distance = 0, with both. */
  negativeFare: number;
  zeroDistance: number;
  both: number;
  negativeFareByVendor: Record<string, number>;
  zeroDistanceByVendor: Record<string, number>;
  /** January trips picked up on 2025-01-15 (the Iceberg base table). */
  jan15: number;
  /** Trips of the three February day files. */
  feb01: number;
  feb02: number;
  feb14: number;
}

/** A report's figure: a value and how the checker got it. */
export interface NamedFigure {
  value: number;
  name: string;
}

export interface CaseReport {
  id: string;
  runs: number;
  /** Each is one full line: "B1 run 3: loser message differs: expected …, got …". */
  mismatches: string[];
  /** Remarks that are not mismatches, one per run that made it (D1: "commit order 6, 7, 1, 2"). */
  notes: string[];
  /** Each run's verdict in words ("data OK"), or that it has none. */
  verdicts: string[];
}

export interface DocumentNumber {
  line: number;
  text: string;
  value: number;
}

export type DocumentReport =
  | { status: 'checked'; path: string; numbers: number; mismatches: string[] }
  | { status: 'skipped'; reason: string };

export interface Report {
  scale: number;
  dataSource: string;
  dataDir: string;
  figures: Figures;
  /** Lesson cases present in the file, in the lesson's order, each checked. */
  cases: CaseReport[];
  checked: string[];
  /** Lesson cases absent from the file (cases of another suite, e.g. G1–G3, are not listed). */
  skipped: string[];
  /** Case ids in the file that are not among the lesson's 22 (not checked). */
  unknown: string[];
  /**
   * Lesson cases whose writers ran in the real Delta Spark: the lesson's expectations are delta-rs's, so these are
   * not checked against them (`lab compare --library delta-spark` sets them against the engine's Spark model).
   */
  deltaSpark?: string[];
  document: DocumentReport;
  /** Count of mismatch lines over the cases and the document. */
  mismatches: number;
  ok: boolean;
}

export interface CheckOptions {
  /** The cases document to check at scale 1; default: the repo's docs/lab-cases.md. */
  casesDoc?: string;
  /** Folder a relative results.dataDir is resolved against (the results file's folder); default: cwd. */
  baseDir?: string;
}

/** Input the checker cannot work with: the CLI prints its message as one line and exits 2. */
export class UnusableInputError extends Error {
  override name = 'UnusableInputError';
}
