/**
 * What each rule of the code audit checks, for the formats a CI reads (SARIF rule descriptors, JUnit cases).
 * The rules the jobs audit has too keep their ids and their anchors in docs/jobs-audit.md; the code audit's own
 * have theirs in its section "Auditing code". A test holds this list to the docs and to the rules the judge raises.
 */

export interface CodeRuleHelp {
  /** One sentence: what a finding of this rule says is wrong. */
  summary: string;
  /** How the rule judges, and why it matters. */
  description: string;
}

export const CODE_RULE_HELP: Readonly<Record<string, CodeRuleHelp>> = {
  'isolation-not-parsed': {
    summary: 'An engine that may run this code reads its delta.isolationLevel as another level than it names.',
    description:
      "Judged for the writer the code uses (delta-rs code: delta-rs 1.2–1.6.x and ≤ 1.1.4; Spark code: Delta Spark and Databricks; code of no known writer: all four), with the engine's own reading: capital-W 'WriteSerializable' is Serializable on delta-rs 1.2 and later, silently. The fix is the one spelling every one of those engines reads as meant.",
  },
  'isolation-refused': {
    summary: 'An engine that may run this code refuses the delta.isolationLevel it sets.',
    description:
      "Delta Spark's DDL sets only Serializable ('requirement failed: delta.isolationLevel must be Serializable'); Databricks documents only Serializable and WriteSerializable. An error when every engine that may run the code refuses it, a warning when some accept it. The fix names the spelling and the engine to set it from.",
  },
  'not-an-isolation-level': {
    summary: 'The value set as delta.isolationLevel is no isolation level any engine reads.',
    description:
      "A value such as 'WRITE_COMMITTED' names no level: delta-rs silently uses Serializable, Delta Spark refuses it and, once another engine has written it, fails every commit with it. The fix lists the spellings of the levels to choose from.",
  },
  'commit-metadata-isolation': {
    summary: 'The code passes an isolation level in commit metadata, where delta-rs only records it.',
    description:
      "delta-rs writes CommitProperties' custom metadata into commitInfo and its conflict checker never reads it; only the table property delta.isolationLevel changes conflict checking.",
  },
  'commit-retries-off': {
    summary: 'The code turns delta-rs commit retries off (max_commit_retries 0).',
    description:
      'With no retries, any other writer that commits first fails this write, even one it could never conflict with (lesson A2). The default of 15 retries keeps the conflict checker refusing only what truly conflicts.',
  },
  'blind-append-reads': {
    summary: 'The code claims a blind append on a write that reads the table.',
    description:
      'isBlindAppend on a merge, update, delete or overwrite: under WriteSerializable a blind append is not checked against concurrent writers, so a change to what it read goes unseen.',
  },
  'unknown-conf-key': {
    summary: 'The code sets a spark.databricks.delta. or spark.delta. conf that no engine reads.',
    description:
      "The key is not among Delta Spark's confs (DeltaSQLConf at the release the audit's list was read from) nor the Databricks confs their docs name, so setting it changes nothing. The fix names the nearest real key, and for an isolation conf the table property that does choose the level.",
  },
  'table-set-differently': {
    summary: 'One table has a property set to different values in different places of the code.',
    description:
      'Two settings of the same table and key that mean different things (for delta.isolationLevel: different levels): the table holds whichever ran last. One finding at the first place, the others related.',
  },
  'not-a-constant': {
    summary: 'A setting whose value is computed at run time, which the audit cannot judge.',
    description:
      'A name bound more than once, a call, an environment lookup, an f-string with a field: the audit reports the expression as written instead of guessing its value.',
  },
  'file-unparseable': {
    summary: 'A file, or part of one, could not be read as its kind.',
    description:
      "The parser's message and where it stopped; settings were looked for in the rest of the file, and the scan went on.",
  },
};

/** The rule's help, or, for a rule this list does not know, its id alone (the output stays valid). */
export function codeRuleHelp(rule: string): CodeRuleHelp {
  return CODE_RULE_HELP[rule] ?? { summary: `Code audit rule ${rule}.`, description: `Code audit rule ${rule}.` };
}
