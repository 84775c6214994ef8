/**
 * What the code audit finds in a team's files: each setting that decides how concurrent commits behave,
 * at the file, line and column where its value is written, with the value exactly as written. Every
 * extractor (one per kind of file) returns these; the judge (judge.ts) turns them into findings.
 */

/** What a setting decides. */
export type SettingKind =
  /** A table property: `delta.isolationLevel` and the other `delta.*` properties the audit knows. */
  | 'table-property'
  /** An isolation level recorded in commit metadata only (delta-rs `CommitProperties`/`commitInfo`). */
  | 'commit-isolation'
  /** How many times a commit is retried: delta-rs `max_commit_retries`, Spark's retry confs. */
  | 'commit-retries'
  /** A claim that a write is a blind append (`isBlindAppend`). */
  | 'blind-append'
  /** A Spark or Databricks conf under `spark.databricks.delta.` or `spark.delta.` (known or not). */
  | 'spark-conf';

/** The language a setting was read in (of the code that holds it, after notebooks and heredocs are unpacked). */
export type CodeLanguage = 'sql' | 'python' | 'scala' | 'java' | 'shell' | 'yaml' | 'json';

/** Which writer the code that makes the setting uses, when the code says so. */
export type WriterHint = 'delta-rs' | 'spark' | null;

export interface CodeSetting {
  /** The file, relative to the scanned root, with `/`. */
  file: string;
  /** 1-based line and column of the value's first character (a string's opening quote), in `file`. */
  line: number;
  column: number;
  /** 1-based column just past the value's last character, on its last line. */
  endColumn: number;
  /** The value's last line, when it spans lines. */
  endLine?: number;
  /** The key's line, when the key is written on another line than the value. */
  keyLine?: number;
  /** The key as written: `delta.isolationLevel`, `max_commit_retries`, `spark.databricks.delta.…`. */
  key: string;
  /** The value: a string literal's content, a number or boolean as written; null when not a constant. */
  value: string | null;
  /** The value's source text exactly as written, quotes included: `'WriteSerializable'`, `0`, `os.environ["LVL"]`. */
  raw: string;
  /** False when the value is computed (a name bound more than once, a call, an f-string with a field, …). */
  constant: boolean;
  kind: SettingKind;
  /** How it was set: `TBLPROPERTIES`, `write_deltalake(configuration=…)`, `CommitProperties`, `spark.conf.set`, `--conf`, … */
  via: string;
  language: CodeLanguage;
  /** The table the setting applies to, when the code names it with a literal (DDL, a write's target, a dbt model). */
  table?: string;
  writer: WriterHint;
}

/** A file, or a part of one, that could not be read as its kind: reported as a note, and the scan goes on. */
export interface FileProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface Extraction {
  settings: CodeSetting[];
  problems: FileProblem[];
}

/** Reads one kind of file. `file` is the relative path the results name; `text` the file's content. */
export interface Extractor {
  /** What it reads, for messages and the measurements: `python`, `sql`, `notebook`, … */
  name: string;
  /** Whether `file` (its relative path) is this extractor's kind. */
  accepts(file: string): boolean;
  extract(file: string, text: string): Promise<Extraction>;
}

/** A finding's severity, as SARIF names its levels. */
export type CodeSeverity = 'error' | 'warning' | 'note';

/** A place in the scanned code a finding points at. */
export interface CodePlace {
  file: string;
  line: number;
  column: number;
  endColumn?: number;
  /** What is at this place, for a finding with several: "sets delta.isolationLevel = 'Serializable'". */
  message?: string;
}

export interface CodeFinding {
  /** The rule's id: an existing jobs-audit rule where it fits, else one of the code audit's own. */
  rule: string;
  severity: CodeSeverity;
  /** Where the finding is: the setting's value (a file's problem: where the parser stopped). */
  at: CodePlace;
  /** The other places it names (two settings of one table that disagree: the second). */
  related: CodePlace[];
  /** The table it is about, when known. */
  table?: string;
  /** What was seen: the value, and what each writer library makes of it at commit. */
  evidence: string;
  fix: string;
}

/** A file the scan did not read, and why: too big, binary, a symlink out of the root, … */
export interface SkippedFile {
  file: string;
  reason: string;
}

/** The code audit's result (contracts/code-audit.schema.json). */
export interface CodeAudit {
  settings: CodeSetting[];
  findings: CodeFinding[];
  files: {
    /** Files read (after the quick pre-filter: files with no hint of a setting are counted, not parsed). */
    scanned: number;
    skipped: SkippedFile[];
    unparseable: FileProblem[];
  };
  /** Whether any finding is an error: the CLI's exit code 1. */
  failed: boolean;
}
