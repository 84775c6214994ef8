/**
 * The quick test a file passes before any parser is loaded for it: a setting that decides concurrency is
 * always written with one of a few words in the file's text (its key, the call that takes it, or the SQL
 * clause that sets it), so a file with none of them holds none and is counted without being parsed. Case is
 * ignored: SQL keywords and YAML keys are written either way. A quoted `delta.` key covers the table
 * properties a write passes (`configuration={"delta.appendOnly": …}`, `.option("delta.…")`).
 */

/** The words, lower case, one of which every setting's file holds; each names the settings it stands for. */
export const HINTS: readonly { word: string; for: string }[] = [
  { word: 'isolationlevel', for: 'delta.isolationLevel, commit metadata isolation' },
  { word: 'max_commit_retries', for: 'delta-rs commit retries' },
  { word: 'commitproperties', for: 'delta-rs CommitProperties (retries given positionally)' },
  { word: 'commit_properties', for: "delta-rs writes' commit_properties" },
  { word: 'isblindappend', for: 'blind-append claims' },
  { word: 'spark.databricks.delta.', for: 'Databricks and Delta Spark confs' },
  { word: 'spark.delta.', for: 'Delta Spark confs' },
  { word: 'tblproperties', for: 'table properties in SQL and dbt configs' },
  { word: '"delta.', for: 'table properties passed as options or a configuration map' },
  { word: "'delta.", for: 'table properties passed as options or a configuration map' },
  { word: '`delta.', for: 'table properties in quoted SQL identifiers' },
];

const PATTERN = new RegExp(HINTS.map((h) => h.word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/** Whether `text` could hold a setting: false means it certainly holds none. */
export function mayHoldSetting(text: string): boolean {
  return PATTERN.test(text);
}
