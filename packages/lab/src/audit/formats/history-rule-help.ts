/**
 * What each rule of the history audit checks, for people and for the formats a CI reads, in the jobs audit's style
 * (rule-help.ts): one sentence on what a finding says is wrong, and how the rule judges. A test holds this list to
 * the rules the history audit raises (everything under audit/history/).
 */

export interface HistoryRuleHelp {
  /** One sentence: what a finding of this rule says is wrong. */
  summary: string;
  /** How the rule judges, and why it matters. */
  description: string;
}

export const HISTORY_RULE_HELP: Readonly<Record<string, HistoryRuleHelp>> = {
  'landed-only-under-write-serializable': {
    summary: 'Commits landed only because the table is WriteSerializable: under Serializable they would have failed.',
    description:
      "Each concurrent commit is judged again by its own writer library's checker under every level. A commit its library read the property as WriteSerializable for, which that checker refuses under Serializable, read the table while a blind append added files it never saw. That is WriteSerializable's promise, and fine for jobs that need not see such appends; a job that must is wrong without a word. Serializable is also what delta-rs 1.2–1.6.x makes of capital-W 'WriteSerializable', so the same commits fail there.",
  },
  'landed-only-under-snapshot-isolation': {
    summary:
      'Commits landed only because the table is SnapshotIsolation: under WriteSerializable they would have failed.',
    description:
      'As the WriteSerializable rule, one level down: under SnapshotIsolation a commit never checks the files concurrent commits added, so a rewrite can miss rows appended while it ran.',
  },
  'isolation-recorded-differs': {
    summary:
      "Commits recorded an isolationLevel in commitInfo other than the one the table's property gave their writer.",
    description:
      "commitInfo's isolationLevel is a record: delta-rs writes whatever a job passes in its commit properties, and its checker reads only the table property delta.isolationLevel, as its library reads it (capital-W 'WriteSerializable' is Serializable to delta-rs 1.2+). A record that says another level than the one in force misleads whoever reads the history. Delta Spark's SnapshotIsolation on commits that change no data is its own downgrade, not flagged.",
  },
  'blind-append-claim-on-read': {
    summary: 'Commits claim isBlindAppend although their operation reads or rewrites the table.',
    description:
      'An UPDATE, DELETE, MERGE or OPTIMIZE, or any commit with a read predicate or removed files, is not blind. Under WriteSerializable the checkers of concurrent readers skip the files a blind append adds, so a false claim lets them commit over rows they never saw (lesson E1).',
  },
  'cannot-judge': {
    summary: 'Concurrent commits cannot be judged again from what the log recorded.',
    description:
      "A judgement needs the commit's read side: its operation, and for an UPDATE its predicate, parsed against the table's schema at the version it read (Delta Spark's internal predicate text does not parse). Without it nothing says the commit was safe; the reason is named per commit.",
  },
  'judgement-differs-from-log': {
    summary: "Commits landed although their own library's checker refuses them against the commits they overlapped.",
    description:
      "A landed commit passed its writer's checker. When the checker refuses it on re-judgement, the overlap was not what it seemed: a timing overlap (inferred) can be a redo whose timestamp predates its landing; a recorded one means the writer is not the library its commitInfo names, or read the property otherwise. A warning when some readVersion is recorded, else a note.",
  },
  'duplicate-keys': {
    summary: 'Keys present more than once in the snapshot, with the commits that added their rows.',
    description:
      "DuckDB groups the snapshot's rows by the key columns given (deletion vectors and column mapping applied), lists the most repeated keys up to a bound and counts them all; each listed key's files are traced back to the commits that added them, with their writers and whether those commits were concurrent. Two check-then-append jobs that both saw no row and both appended leave exactly this (lesson E1).",
  },
  'log-cleaned-up': {
    summary: 'Commits before the oldest commit file the log keeps cannot be read as evidence.',
    description:
      "Log cleanup removed their JSON files; only a checkpoint keeps the table's state from then, not who committed what or what each read. The history starts at the oldest file kept.",
  },
  'log-gap': {
    summary: 'Commit files are missing from the middle of the log.',
    description:
      'A version between the oldest kept and the latest has no commit file: what those commits did and who made them is lost, and no engine reads the table past the gap. The first missing file is named.',
  },
  'damaged-commit': {
    summary: 'A commit file cannot be read as Delta actions.',
    description:
      "The engine's own reader refuses it (empty, not JSON, an action it does not know); the file is named as the engine names it, and the table as the user named it.",
  },
  'isolation-property-unknown': {
    summary: 'The isolation property in force before the history read is unknown.',
    description:
      "The table before the first version read cannot be loaded (cleaned up, no checkpoint stands for it), so delta.isolationLevel is known only from the first metaData the history reads; commits before that are judged under the libraries' defaults.",
  },
  'snapshot-unreadable': {
    summary: 'The table at a version the judgements need cannot be loaded.',
    description:
      'Re-judging a commit and finding duplicated keys read the table at a version; when the engine cannot load it, nothing that needs its files is judged, and the reason is given in words.',
  },
  'concurrency-unknown': {
    summary: 'Commits record neither readVersion nor timing: whether they overlapped another is unknown.',
    description:
      'Without readVersion (Delta Spark and Databricks record it on every commit) or timestamp and operationMetrics.execution_time_ms, nothing says what a commit overlapped. Unknown is never counted as safe.',
  },
  'concurrency-inferred': {
    summary: 'Commits overlapped others by their timing only.',
    description:
      'delta-rs records no readVersion on its WRITE commits; their start is inferred as timestamp − execution_time_ms, and the commits that landed in between count as concurrent. A commit that retried stamped its timestamp before it landed, so an overlap after its first try is missed.',
  },
};
