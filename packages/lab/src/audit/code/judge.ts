/**
 * Judges the settings found in code: what each writer library the code may commit with (delta-rs 1.2–1.6.x,
 * delta-rs ≤ 1.1.4, Delta Spark, Databricks) makes of each value, with the engine's one reading of
 * `delta.isolationLevel` (readIsolationLevel) and the one spelling it recommends (recommendSpelling); conf
 * keys no engine reads; values computed at run time; one table set two ways; files that do not parse.
 * The code's writer decides which libraries are asked: delta-rs code is read by both delta-rs lines, Spark
 * code by Delta Spark and Databricks (the code cannot tell them apart), code of no known writer by all four.
 */
import {
  ISOLATION_LEVEL_KEY,
  ISOLATION_LEVELS,
  type IsolationLevel,
  intendedLevel,
  type LibraryReading,
  readIsolationLevel,
  recommendSpelling,
  WRITER_LIBRARIES,
  type WriterLibrary,
} from '@racelab/engine';
import { knownConfKey, nearestConfKey } from './conf-keys';
import { BLIND_APPEND_FIX, COMMIT_METADATA_FIX, isolationFix, RETRIES_OFF_FIX } from './fixes';
import type { CodeFinding, CodePlace, CodeSetting, CodeSeverity, FileProblem, WriterHint } from './setting';

/** Spark confs under this prefix set a table property's default for the tables the session creates. */
export const DEFAULTS_PREFIX = 'spark.databricks.delta.properties.defaults.';

/** The libraries that may run code of a writer. */
export function librariesFor(writer: WriterHint): WriterLibrary[] {
  if (writer === 'delta-rs') return ['delta-rs', 'delta-rs-legacy'];
  if (writer === 'spark') return ['delta-spark', 'databricks'];
  return [...WRITER_LIBRARIES];
}

/** Every finding about `settings` and the files' `problems`, in file, line and column order. */
export function judge(settings: CodeSetting[], problems: FileProblem[] = []): CodeFinding[] {
  const findings = [...settings.flatMap(judgeSetting), ...tablesSetDifferently(settings), ...problems.map(unparseable)];
  return findings.sort(
    (a, b) =>
      compare(a.at.file, b.at.file) || a.at.line - b.at.line || a.at.column - b.at.column || compare(a.rule, b.rule),
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Where a setting is, and what it sets there. */
export function placeOf(s: CodeSetting): CodePlace {
  return { file: s.file, line: s.line, column: s.column, endColumn: s.endColumn, message: `sets ${s.key} = ${s.raw}` };
}

function finding(
  s: CodeSetting,
  rule: string,
  severity: CodeSeverity,
  evidence: string,
  fix: string,
  related: CodePlace[] = [],
): CodeFinding {
  return { rule, severity, at: placeOf(s), related, ...(s.table !== undefined && { table: s.table }), evidence, fix };
}

/** The setting as the evidence names it: its key, its value as written, and how it was set. */
const said = (s: CodeSetting) => `${s.key} = ${s.raw} (${s.via})`;

function judgeSetting(s: CodeSetting): CodeFinding[] {
  // A computed value still has its key as written: a conf no engine reads is flagged whatever its value.
  if (!s.constant || s.value === null) return [notConstant(s), ...(s.kind === 'spark-conf' ? unknownConfKey(s) : [])];
  const isolation = isolationOf(s);
  if (isolation) return isolationFinding(s, s.value, isolation);
  switch (s.kind) {
    case 'commit-isolation':
      return [
        finding(
          s,
          'commit-metadata-isolation',
          'warning',
          `${said(s)} is commit metadata: delta-rs writes it into commitInfo and its conflict checker never reads it; only the table property ${ISOLATION_LEVEL_KEY} changes conflict checking`,
          COMMIT_METADATA_FIX,
        ),
      ];
    case 'commit-retries':
      return Number(s.value) === 0
        ? [
            finding(
              s,
              'commit-retries-off',
              'warning',
              `${said(s)} turns commit retries off: any other writer's commit that lands first makes this one fail with "Failed to commit transaction: 0", even one it could never conflict with`,
              RETRIES_OFF_FIX,
            ),
          ]
        : [];
    case 'blind-append':
      return /^true$/i.test(s.value) && /merge|update|delete|overwrite/i.test(s.via)
        ? [
            finding(
              s,
              'blind-append-reads',
              'error',
              `${said(s)} claims a blind append on a write that reads the table: under WriteSerializable a blind append is not checked against concurrent writers at all, so a change to what it read goes unseen`,
              BLIND_APPEND_FIX,
            ),
          ]
        : [];
    case 'spark-conf':
      return unknownConfKey(s);
    default:
      return [];
  }
}

/** The libraries that read a setting of `delta.isolationLevel` (a table property, or Spark's default for new tables). */
function isolationOf(s: CodeSetting): WriterLibrary[] | null {
  if (s.kind === 'table-property' && s.key === ISOLATION_LEVEL_KEY) return librariesFor(s.writer);
  if (s.kind === 'spark-conf' && s.key === `${DEFAULTS_PREFIX}isolationLevel`) return librariesFor('spark');
  return null;
}

/** What a reading says, as the evidence gives it. */
const reads = (r: LibraryReading) => `${r.explanation}${r.error ? ` (${r.error})` : ''}`;
const labels = (rs: LibraryReading[]) => rs.map((r) => r.label).join(', ');

/**
 * A value no engine reads as a level (not-an-isolation-level); one an engine that may run the code reads as
 * another level at commit (isolation-not-parsed); one an engine refuses to set or to commit with
 * (isolation-refused: an error when every engine that may run the code refuses it, else a warning).
 */
function isolationFinding(s: CodeSetting, value: string, engines: WriterLibrary[]): CodeFinding[] {
  const readings = engines.map((e) => readIsolationLevel(value, e));
  const meant = intendedLevel(value);
  const what = readings.map(reads).join(' ');
  const fix = isolationFix(value, engines);
  if (meant === null) {
    return [finding(s, 'not-an-isolation-level', 'error', `${said(s)} is not an isolation level: ${what}`, fix)];
  }
  const misread = readings.filter((r) => r.settable && r.flagged);
  if (misread.length > 0) {
    return [
      finding(
        s,
        'isolation-not-parsed',
        'error',
        `${said(s)} is not read as ${meant} by ${labels(misread)}: ${what}`,
        fix,
      ),
    ];
  }
  const refused = readings.filter((r) => !r.settable);
  if (refused.length === 0) return [];
  const all = refused.length === readings.length;
  return [
    finding(
      s,
      'isolation-refused',
      all ? 'error' : 'warning',
      `${said(s)} is refused by ${labels(refused)}${all ? '' : ` (accepted by ${labels(readings.filter((r) => r.settable))})`}: ${what}`,
      fix,
    ),
  ];
}

/** A Spark conf no engine reads: the nearest real key, and for an isolation conf, the table property to set instead. */
function unknownConfKey(s: CodeSetting): CodeFinding[] {
  if (s.key.startsWith(DEFAULTS_PREFIX) || knownConfKey(s.key).known) return [];
  const nearest = nearestConfKey(s.key);
  const meant = /isolation/i.test(s.key) ? intendedLevel(s.value ?? '') : null;
  const instead =
    meant === null
      ? ''
      : `; to choose a table's isolation level, set the table property ${ISOLATION_LEVEL_KEY} = '${recommendSpelling(meant, WRITER_LIBRARIES).candidate}'`;
  return [
    finding(
      s,
      'unknown-conf-key',
      'warning',
      `${said(s)}: no engine reads the conf ${s.key} (it is not one of Delta Spark's confs nor a Databricks conf), so setting it changes nothing${nearest === null ? '' : `; the nearest real key is ${nearest}`}`,
      `${nearest === null ? `remove ${s.key}` : `use ${nearest} if that is what you mean, else remove ${s.key}`}${instead}`,
    ),
  ];
}

function notConstant(s: CodeSetting): CodeFinding {
  return finding(
    s,
    'not-a-constant',
    'note',
    `${s.key} is set to ${s.raw} (${s.via}), not a constant: its value is computed at run time and the audit cannot judge it`,
    `write ${s.key} as a literal where it is set, so the audit (and a reader) can check it`,
  );
}

function unparseable(p: FileProblem): CodeFinding {
  return {
    rule: 'file-unparseable',
    severity: 'note',
    at: { file: p.file, line: p.line, column: p.column },
    related: [],
    evidence: `${p.file} could not be read whole: ${p.message}; settings were looked for in the rest of it`,
    fix: 'make the file parse as its kind, so that no setting in it is missed',
  };
}

/** A table's name as two files may write it: case and quoting aside. */
const tableKey = (t: string) => t.replace(/[`"[\]]/g, '').toLowerCase();

/** What a value means, to compare two settings of one key: the level for an isolation key, else the value itself. */
function meaningOf(s: CodeSetting): string {
  const value = s.value as string;
  return isolationOf(s) ? (intendedLevel(value) ?? value) : value.toLowerCase();
}

/**
 * One finding for each table and key set to values that mean different things: at the first place (by file,
 * line and column), the places that disagree with it as related.
 */
function tablesSetDifferently(settings: CodeSetting[]): CodeFinding[] {
  const groups = new Map<string, CodeSetting[]>();
  for (const s of settings) {
    if (s.table === undefined || !s.constant || s.value === null || s.kind !== 'table-property') continue;
    const id = `${tableKey(s.table)}\0${s.key}`;
    groups.set(id, [...(groups.get(id) ?? []), s]);
  }
  return [...groups.values()].flatMap((group) => {
    const sorted = [...group].sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column);
    const [first] = sorted;
    if (!first) return [];
    const others = sorted.filter((s) => meaningOf(s) !== meaningOf(first));
    if (others.length === 0) return [];
    const at = (s: CodeSetting) => `${s.raw} at ${s.file}:${s.line}`;
    const levels = [...new Set([first, ...others].map(meaningOf))].filter((m): m is IsolationLevel =>
      ISOLATION_LEVELS.includes(m as IsolationLevel),
    );
    const engines = [...new Set([first, ...others].flatMap((s) => librariesFor(s.writer)))];
    const spellings = levels.flatMap((l) => recommendSpelling(l, engines).value ?? []);
    return [
      finding(
        first,
        'table-set-differently',
        'warning',
        `${first.table} has ${first.key} set to ${at(first)} and to ${others.map(at).join(', ')}: which one the table holds depends on which code ran last`,
        `set ${first.key} of ${first.table} in one place, to one value${spellings.length > 0 ? ` (${spellings.map((v) => `'${v}'`).join(' or ')}, as every engine here reads it)` : ''}`,
        others.map(placeOf),
      ),
    ];
  });
}
