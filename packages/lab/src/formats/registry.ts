/**
 * The table formats the lab knows, and the only place that names them: a case's `format` is looked up here, and
 * everything that differs between formats is asked of the format found (see table-format.ts). The case list the
 * CLI and the API show is the lesson's catalog, then the cases any further format brings.
 */
import { CASES, type LabCase } from '../cases/catalog';
import { caseGroup, caseListText } from '../cases/groups';
import type { BaseTableCase, TableFormat } from '../runner/table-format';
import { deltaFormat } from './delta/format';
import { icebergFormat } from './iceberg/format';
import { postgresFormat } from './postgres/format';

const FORMATS = { delta: deltaFormat, iceberg: icebergFormat, postgres: postgresFormat };

const registered = new Map<string, TableFormat>(Object.values(FORMATS).map((f) => [f.id, f as TableFormat]));

/** Every format, the built-in ones first. */
export const tableFormats = (): TableFormat[] => [...registered.values()];

/**
 * Adds a format (its id must be new); returns what removes it again. The built-in ones are registered already:
 * this is for a format defined elsewhere, as a test's.
 */
export function registerFormat(format: TableFormat): () => void {
  if (registered.has(format.id)) throw new Error(`a table format ${format.id} is registered already`);
  registered.set(format.id, format);
  return () => {
    if (registered.get(format.id) === format) registered.delete(format.id);
  };
}

export function formatById(id: string): TableFormat {
  const format = registered.get(id);
  if (!format) throw new Error(`no table format ${id}; the formats are ${[...registered.keys()].join(', ')}`);
  return format;
}

/** The format of a case: what runs it, checks it and describes it. */
export const formatOf = (c: LabCase): TableFormat => formatById(c.format);

/** The case, when it races one of the lab's base tables (the flat or the partitioned January table); else null. */
export const onBaseTable = (c: LabCase): BaseTableCase | null => formatOf(c).onBaseTable?.(c) ?? null;

/**
 * Every case the lab can run by id, the one list every place shows: the lesson's cases (the catalog's, then those
 * further formats bring), then the store cases (groups.ts).
 */
export const labCases = (): LabCase[] => {
  const all = [...CASES, ...tableFormats().flatMap((f) => f.presets ?? [])];
  return [...all.filter((c) => caseGroup(c) === 'lesson'), ...all.filter((c) => caseGroup(c) === 'store')];
};

export class UnknownCaseError extends Error {
  override name = 'UnknownCaseError';
}

/** The cases named, in the list's order; when none is named, the default lab: the lesson's cases. */
export function selectCases(ids: readonly string[]): LabCase[] {
  const cases = labCases();
  const wanted = ids.map((i) => i.toUpperCase());
  const unknown = wanted.filter((id) => !cases.some((c) => c.id === id));
  if (unknown.length > 0) {
    throw new UnknownCaseError(`unknown case ${unknown.join(', ')}; ${caseListText(cases)}`);
  }
  return wanted.length === 0
    ? cases.filter((c) => caseGroup(c) === 'lesson')
    : cases.filter((c) => wanted.includes(c.id));
}
