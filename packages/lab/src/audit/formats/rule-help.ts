/**
 * What each rule of the jobs audit checks, for the formats a CI reads: SARIF's rule descriptors and
 * JUnit's test cases. docs/jobs-audit.md holds the same rules for people (an anchor per rule, which
 * `helpUri` points at); a test fails when the two lists, or the rules the audit raises, differ.
 */

export interface RuleHelp {
  /** One sentence: what a finding of this rule says is wrong. */
  summary: string;
  /** How the rule judges, and why it matters (the lesson it comes from). */
  description: string;
  /**
   * What the rule reads: the manifest alone, or the table's data too. A job whose table cannot be
   * read was not checked by the rules that read the table (JUnit reports them skipped, not passed).
   */
  reads: 'manifest' | 'table';
}

export const RULE_HELP: Readonly<Record<string, RuleHelp>> = {
  'isolation-not-parsed': {
    summary: "The job's engine does not read its delta.isolationLevel the way its author meant.",
    description:
      "The job's own engine reads the value it sets otherwise than meant at commit: capital-W WriteSerializable is Serializable on delta-rs 1.2 and later, a value no level accepts makes every commit fail. The fix names the spelling that engine reads.",
    reads: 'manifest',
  },
  'isolation-set-elsewhere': {
    summary: "The job's engine reads its delta.isolationLevel as meant but cannot set it itself.",
    description:
      "Delta Spark's DDL sets only Serializable: the value is right once another engine has written it into the table, so this is a note, not a flag. The fix names the one spelling to write.",
    reads: 'manifest',
  },
  'isolation-differs-across-engines': {
    summary: 'The engines that write one table read its isolation level as different levels.',
    description:
      "One table's delta.isolationLevel (or, unset, the engines' defaults: WriteSerializable on Databricks, Serializable elsewhere) means different levels for the engines of its jobs, so the same race ends differently depending on which engine commits second.",
    reads: 'manifest',
  },
  'commit-metadata-isolation': {
    summary: 'The job sets isolationLevel in its commit properties, where delta-rs only records it.',
    description:
      'delta-rs writes commitProperties.isolationLevel into commitInfo and its conflict checker never reads it; only the table property delta.isolationLevel changes conflict checking.',
    reads: 'manifest',
  },
  'no-redo-on-conflict': {
    summary: 'A rewrite on a shared table does not redo its whole change when it loses a conflict.',
    description:
      'An update, delete, merge or overwrite that shares its table answers a lost commit by committing the same stale change again (an error) or by giving up (a warning): either way a change is lost (lesson B1). Reopen, recompute and recommit, a bounded number of times (lesson D1).',
    reads: 'manifest',
  },
  'commit-retries-off': {
    summary: 'The job turns commit retries off on a table other jobs write.',
    description:
      'With maxCommitRetries 0, any commit that lands first fails the job, even one it could never conflict with (lesson A2). The default of 15 retries keeps the conflict checker refusing only what truly conflicts.',
    reads: 'manifest',
  },
  'check-then-append': {
    summary: 'The job reads the table to decide whether to append.',
    description:
      'Two runs at once both see nothing and both append, and appends never conflict: the day is written twice (lesson E1). Overwrite with a predicate on what the job owns (lesson E2) or MERGE on a key.',
    reads: 'manifest',
  },
  'blind-append-reads': {
    summary: 'The job claims isBlindAppend although it reads the table.',
    description:
      'Under WriteSerializable a blind append is not checked against concurrent writers at all (lessons I3 to I6); only a pure append that reads nothing may claim it.',
    reads: 'manifest',
  },
  'predicates-share-files': {
    summary: "Two jobs' predicates match rows in the same files of the table.",
    description:
      "Counted from the table's data: rewrites whose rows share files conflict even when their rows differ (lesson B1). The fix names a partition column that separates the two predicates' rows when one exists (lesson B3).",
    reads: 'table',
  },
  'schedules-overlap': {
    summary: "Two jobs' runs can overlap, and the forecast says one of them then fails.",
    description:
      "From each job's schedule (cron and maxDurationMinutes), for any pair of jobs on one table whose forecast fails in either order: a compaction and a rewrite, an appender and a delete, two rewrites. The first overlapping window is named, with the forecast's refusal.",
    reads: 'table',
  },
  'no-vacuum': {
    summary: 'Two or more jobs write the table and none vacuums it.',
    description:
      'Every lost commit leaves its files behind, unreferenced by the log (lesson B1); a vacuum after the retention period deletes them.',
    reads: 'manifest',
  },
  'retry-exhaustion-risk': {
    summary: "The jobs' commit rates and retry policies forecast commits that fail after every retry.",
    description:
      "From each job's commitsPerHour, concurrency and retry policy, the contention forecast (the engine's commit loop simulated for every rated writer of the table) says more than 1% of a job's commits fail after all library and application retries: \"Failed to commit transaction: 15\" from many appenders, a refusal the library loop cannot retry. The fix names the smallest retry policy whose forecast is under 1%, with the commits an hour that forecast drops beside those the job's own policy's forecast drops.",
    reads: 'manifest',
  },
  'compaction-starved': {
    summary: 'The compaction forecast loses its claims to the appends and fails after every retry.',
    description:
      "An optimize job on a table whose other writers' rates the contention forecast says take the versions it tries to claim: more than 1% of its runs fail after all retries (delta-rs commits OPTIMIZE with 15 library retries whatever the caller asks). The fix names the smallest retry policy whose forecast is under 1%.",
    reads: 'manifest',
  },
  'code-drift': {
    summary: "The job's code sets a setting otherwise than the manifest says.",
    description:
      "A job that names its code (`code:`, relative to the manifest's folder) is compared with the settings the code audit reads there: its table properties, commit isolation, max_commit_retries and isBlindAppend. Where the manifest gives another value, the manifest describes a job that does not run; where it gives none, the job takes the code's value and the other rules judge that.",
    reads: 'manifest',
  },
  'table-unreadable': {
    summary: "The job's table cannot be read.",
    description:
      'The location does not resolve (outside the roots, an unknown bucket, a lab scale that is not served), nothing is there, or what is there is not a Delta table the engine reads (no log, a log or a feature it refuses, a missing data file); the reason is given in words. The rules that read the table did not check its jobs.',
    reads: 'table',
  },
  'history-evidence': {
    summary: "The table's own log shows commits of the last 7 days that overlapped others.",
    description:
      "Beside the forecast, what really happened: the history audit reads the table's recent commits (bounded), says which overlapped which and how that is known (readVersion recorded, or inferred from timing), and re-judges them under every writer library and level. A warning when the history has findings of its own (commits that landed only under WriteSerializable, blind-append claims on reads …), else a note; a bound hit is a note too.",
    reads: 'table',
  },
  'checkpoint-skipped': {
    summary: "The job's table was read only by skipping a checkpoint the engine cannot read.",
    description:
      "The table's checkpoint is unreadable (truncated, not Parquet, a part missing), so the engine loaded the same version from an earlier checkpoint or the JSON commits and the other rules judged it as usual; the warning names the checkpoint by its key. Once log cleanup removes those commits the table cannot be opened at all.",
    reads: 'table',
  },
};

/** The rule's help, or, for a rule this list does not know yet, its id alone (the output stays valid). */
export function ruleHelp(rule: string): RuleHelp {
  return RULE_HELP[rule] ?? { summary: `Audit rule ${rule}.`, description: `Audit rule ${rule}.`, reads: 'manifest' };
}
