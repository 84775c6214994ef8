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

/**
 * Whether a value read from embedded text is computed where it is written: its text in the host differs from
 * the embedded text because an interpolation stood there (`${x}`, `$X`, an f-string's `{x}`), or an operand of a
 * concatenation whose placeholder (a run of `_`) the host does not hold.
 */
export function interpolated(written: string, embedded: string): boolean {
  if (written === embedded) return false;
  if (/[$]|\{[^}]*\}/.test(written)) return true;
  return (embedded.match(/_+/g) ?? []).some((run) => !written.includes(run));
}

/**
 * The end of a value whose last character stands for an interpolation starting at host offset `at - 1`:
 * past the whole `${…}`, `{…}` or `$NAME` in the host, so the value's place covers what is written.
 */
export function interpolationEnd(host: string, at: number): number {
  const opened = host.slice(at - 1);
  const braced = /^\$?\{[^}\n]*\}/.exec(opened) ?? /^\$\(?[\w]*\)?/.exec(opened);
  return braced && braced[0].length > 1 ? at - 1 + braced[0].length : at;
}
