/**
 * Where a setting's value is written, as a setting reports it: the line and column of its first character, the
 * column just past its last one, its last line when it spans lines, and the key's line when the key is on
 * another line. Offsets are in the host file; every extractor places its settings through here.
 */
import type { CodeSetting } from '../setting';
import type { LineIndex } from '../source-map';

export type ValuePlace = Pick<CodeSetting, 'line' | 'column' | 'endColumn' | 'endLine' | 'keyLine'>;

/** The place of a value spanning host offsets [start, end), its key starting at host offset `keyStart`. */
export function valuePlace(host: LineIndex, start: number, end: number, keyStart: number): ValuePlace {
  const first = host.at(start);
  const last = host.at(Math.max(start, end - 1));
  const keyLine = host.at(keyStart).line;
  return {
    line: first.line,
    column: first.column,
    endColumn: last.column + 1,
    ...(last.line !== first.line ? { endLine: last.line } : {}),
    ...(keyLine !== first.line ? { keyLine } : {}),
  };
}

/** Whether a conf key is one the audit reports: under `spark.databricks.delta.` or `spark.delta.`. */
export function isDeltaConfKey(key: string): boolean {
  const lower = key.toLowerCase();
  return lower.startsWith('spark.databricks.delta.') || lower.startsWith('spark.delta.');
}

/** Whether a table property or writer option key is a Delta table property (`delta.*`). */
export function isDeltaTableProperty(key: string): boolean {
  return key.toLowerCase().startsWith('delta.');
}
