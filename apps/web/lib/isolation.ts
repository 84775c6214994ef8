/**
 * `delta.isolationLevel` on the dashboard: the API's documents and the shapes derived from them, and
 * the pure helpers the /isolation and /audit pages share (badge tones, the sentences built from an
 * engine's reading, the one spelling to write).
 */
import { Kind, type NameNode, type OperationDefinitionNode } from 'graphql';
import { gql, graphql, type ResultOf, type TadaDocumentNode } from './gql';

/** One engine's reading of one value; `outcome` (PARSED, SILENTLY_IGNORED or REJECTED) may gain values. */
const INTERPRETATION_FIELDS = graphql(`fragment InterpretationFields on EngineInterpretation {
  engine outcome effectiveLevel message flagged suggestion error
}`);

export type Interpretation = ResultOf<typeof INTERPRETATION_FIELDS>;

export const MATRIX_QUERY = graphql(
  'query IsolationMatrix { isolationMatrix { value blindAppend runs updateCommitted } }',
);

export type IsolationCell = ResultOf<typeof MATRIX_QUERY>['isolationMatrix'][number];

export const AUDITS_QUERY = graphql(
  `query Audits($first: Int!) {
  audits(first: $first) {
    id location isolationLevel flagged flaggedBy tableVersion auditedAt startedBy { description }
    interpretations { ...InterpretationFields }
  }
}`,
  [INTERPRETATION_FIELDS],
);

export type TableAudit = ResultOf<typeof AUDITS_QUERY>['audits'][number];

export const AUDIT_TABLES_MUTATION = graphql(`mutation AuditTables($locations: [String!]!) {
  auditTables(locations: $locations) { id location flagged }
}`);

/** The one spelling to write for each level, and each engine's default when the property is unset. */
export const ADVICE_QUERY = graphql(
  `query IsolationAdvice {
  isolationAdvice {
    spellings { level value candidate advice readDifferentlyBy readings { ...InterpretationFields } }
    unset { flagged summary fix defaults { ...InterpretationFields } }
  }
}`,
  [INTERPRETATION_FIELDS],
);

export type IsolationAdvice = ResultOf<typeof ADVICE_QUERY>['isolationAdvice'];

/** An API sentence ("set delta.isolationLevel = …") as a sentence on the page. */
export const asSentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * An unset level's defaults, grouped by level, when the engines' defaults differ, e.g.
 * "Serializable: delta-rs 1.2-1.6.x, Delta Spark; WriteSerializable: Databricks"; null otherwise.
 */
export function differingDefaults(value: string | null, interpretations: readonly Interpretation[]): string | null {
  if (value !== null) return null;
  const byLevel = new Map<string, string[]>();
  for (const i of interpretations) {
    const level = i.effectiveLevel ?? 'none';
    byLevel.set(level, [...(byLevel.get(level) ?? []), i.engine]);
  }
  if (byLevel.size < 2) return null;
  return [...byLevel].map(([level, engines]) => `${level}: ${engines.join(', ')}`).join('; ');
}

/** One value's readings: the document `fetchInterpretations` repeats for each value. */
const INTERPRETATION_QUERY = graphql(
  `query Interpretation($value: String!) {
  isolationLevelInterpretation(value: $value) { ...InterpretationFields }
}`,
  [INTERPRETATION_FIELDS],
);

/** The API refuses longer values (and with them the whole request). */
export const MAX_VALUE_LENGTH = 200;

/** The spellings people actually write, documented and not; unset cannot be asked about. */
export const STANDARD_VALUES = [
  'serializable',
  'writeSerializable',
  'snapshotIsolation',
  'WriteSerializable',
  'Serializable',
  'SnapshotIsolation',
] as const;

/** Bounds one aliased request, whatever custom races have stored. */
const MAX_COMPARED_VALUES = 40;

/** Many values' readings: `v0`, `v1`, … for the values in order. */
type InterpretationsQuery = TadaDocumentNode<Record<string, Interpretation[]>, Record<string, string>>;

/**
 * INTERPRETATION_QUERY with its one field repeated under an alias per value (`v0`, `v1`, …), each
 * with its own variable: every value in one request, no user text ever part of the query, and the
 * field and its argument still the ones the type check saw.
 */
export function interpretationsQuery(count: number): InterpretationsQuery {
  const [operation, ...fragments] = INTERPRETATION_QUERY.definitions;
  const op = operation as OperationDefinitionNode;
  const [variable] = op.variableDefinitions ?? [];
  const [field] = op.selectionSet.selections;
  if (!variable || field?.kind !== Kind.FIELD) throw new Error('INTERPRETATION_QUERY: one variable, one field');
  const names = Array.from({ length: count }, (_, i): NameNode => ({ kind: Kind.NAME, value: `v${i}` }));
  const variableNamed = (name: NameNode) => ({ kind: Kind.VARIABLE, name }) as const;
  const many: OperationDefinitionNode = {
    ...op,
    name: { kind: Kind.NAME, value: 'Interpretations' },
    variableDefinitions: names.map((name) => ({ ...variable, variable: variableNamed(name) })),
    selectionSet: {
      ...op.selectionSet,
      selections: names.map((name) => ({
        ...field,
        alias: name,
        arguments: field.arguments?.map((arg) => ({ ...arg, value: variableNamed(name) })),
      })),
    },
  };
  return { kind: Kind.DOCUMENT, definitions: [many, ...fragments] } as InterpretationsQuery;
}

/** Every engine's reading of each value, in one request. */
export async function fetchInterpretations(values: readonly string[]): Promise<Map<string, Interpretation[]>> {
  const result = new Map<string, Interpretation[]>();
  if (values.length === 0) return result;
  const variables = Object.fromEntries(values.map((v, i) => [`v${i}`, v]));
  const data = await gql(interpretationsQuery(values.length), variables);
  values.forEach((v, i) => {
    result.set(v, data[`v${i}`] ?? []);
  });
  return result;
}

/** The values worth comparing: the standard spellings, then any other value stored races used. */
export function valuesToCompare(cells: readonly IsolationCell[] | undefined): string[] {
  const values = new Set<string>(STANDARD_VALUES);
  for (const c of cells ?? []) {
    if (c.value !== null && c.value.length <= MAX_VALUE_LENGTH) values.add(c.value);
  }
  return [...values].slice(0, MAX_COMPARED_VALUES);
}

export type Tone = 'ok' | 'warn' | 'bad';

/** All runs committed the update: ok; none did: bad; some did: warn. */
export function committedTone(committed: number, runs: number): Tone {
  if (committed >= runs) return 'ok';
  if (committed === 0) return 'bad';
  return 'warn';
}

export function outcomeTone(outcome: string): Tone {
  if (outcome === 'PARSED') return 'ok';
  if (outcome === 'SILENTLY_IGNORED') return 'warn';
  return 'bad';
}

export function outcomeLabel(outcome: string): string {
  return outcome.toLowerCase().replace(/_/g, ' ');
}

/**
 * When the suggestion differs from the value only in letter case, says which letter, e.g.
 * '(capital W)': the difference people stare past.
 */
export function caseNote(value: string, suggestion: string | null): string {
  if (!suggestion || value === suggestion || value.toLowerCase() !== suggestion.toLowerCase()) return '';
  let i = 0;
  while (i < value.length && value[i] === suggestion[i]) i++;
  const ch = value[i] ?? '';
  if (ch.toUpperCase() === ch.toLowerCase()) return '';
  return ch === ch.toUpperCase() ? `(capital ${ch})` : `(small ${ch})`;
}

/** What happens, in the words of the outcome: "'X' (capital W) is silently ignored by E: commits use L." */
export function headline(value: string, i: Interpretation): string {
  const note = caseNote(value, i.suggestion);
  const quoted = `'${value}'${note ? ` ${note}` : ''}`;
  const uses = i.effectiveLevel ? `commits use ${i.effectiveLevel}` : 'commits fail';
  switch (i.outcome) {
    case 'SILENTLY_IGNORED':
      return `${quoted} is silently ignored by ${i.engine}: ${uses}.`;
    case 'REJECTED':
      return `${quoted} is rejected by ${i.engine}.`;
    default:
      return `${i.engine} reads ${quoted} as ${i.effectiveLevel ?? 'its default'}.`;
  }
}

export function suggestionSentence(i: Interpretation): string {
  return i.suggestion ? `Write '${i.suggestion}'.` : '';
}

export interface Flag {
  value: string;
  interpretation: Interpretation;
}

/** Silent fallbacks are the dangerous ones: nothing fails, the commits just behave differently. */
const OUTCOME_RANK: Record<string, number> = { SILENTLY_IGNORED: 0, REJECTED: 1, PARSED: 2 };

/**
 * Every flagged reading, most urgent first: silent before loud, the engine the API lists first
 * (the one the lab writes with) before the others, actionable (with a suggestion) before not,
 * then in the order of `values`.
 */
export function rankFlags(values: readonly string[], byValue: Map<string, Interpretation[]>): Flag[] {
  const engineOrder = engineNames(values, byValue);
  const ranked: { flag: Flag; key: number[] }[] = [];
  values.forEach((value, valueIndex) => {
    for (const interpretation of byValue.get(value) ?? []) {
      if (!interpretation.flagged) continue;
      ranked.push({
        flag: { value, interpretation },
        key: [
          OUTCOME_RANK[interpretation.outcome] ?? 3,
          engineOrder.indexOf(interpretation.engine),
          interpretation.suggestion ? 0 : 1,
          valueIndex,
        ],
      });
    }
  });
  ranked.sort((a, b) => {
    for (let k = 0; k < a.key.length; k++) {
      const d = (a.key[k] ?? 0) - (b.key[k] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
  return ranked.map((r) => r.flag);
}

/** The engines in the order the API lists them (the same for every value). */
export function engineNames(values: readonly string[], byValue: Map<string, Interpretation[]>): string[] {
  const names: string[] = [];
  for (const v of values) {
    for (const i of byValue.get(v) ?? []) if (!names.includes(i.engine)) names.push(i.engine);
  }
  return names;
}

export interface MatrixRow {
  /** Unique per row, also for the unset value (which a real value could never spell as null). */
  key: string;
  value: string | null;
  notBlind: IsolationCell | undefined;
  blind: IsolationCell | undefined;
}

/** The matrix's cells as rows (one per value, in the API's order) by blind / not blind append. */
export function matrixRows(cells: readonly IsolationCell[]): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const cell of cells) {
    const key = cell.value === null ? 'unset' : `value:${cell.value}`;
    const row = rows.get(key) ?? { key, value: cell.value, notBlind: undefined, blind: undefined };
    if (cell.blindAppend) row.blind = cell;
    else row.notBlind = cell;
    rows.set(key, row);
  }
  return [...rows.values()];
}
