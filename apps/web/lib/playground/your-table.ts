/**
 * The playground on a table of the user's own, pure (no React, no fetch): its layout and forecast queries, its
 * two writers, and the heatmap of its files by one column (bands of the column's values from each file's
 * min/max stats, or its partition value: value-bands.ts) and by the two writers' predicates (rows matched per
 * file, counted from the data by the API), with what the engine read past to load it (loadWarnings). The columns one can map it by are schema-columns.ts's; the API's
 * refusals, next to their fields, field-problems.ts's.
 */

import { plural } from '@racelab/contracts';
import { graphql, type ResultOf } from '../gql';
import { setPairs, type WriterInput } from '../races';
import {
  fileColumns,
  filesText,
  filesWith,
  formatCount,
  type HeatmapColumn,
  type HeatmapPicture,
  type HeatmapRow,
  heatmapPicture,
  numberRanges,
} from './heatmap';
import type { SchemaColumn } from './schema-columns';
import { type Band, fileRange, overlaps, valueBands, valueText } from './value-bands';

export const YOUR_LAYOUT_QUERY = graphql(`query YourTableLayout($location: String!, $predicates: [String!]) {
  tableLayout(location: $location, predicates: $predicates) {
    location version schema partitionColumns warnings
    files { path rows partitionValues { key value } minValues maxValues matches }
  }
}`);

export const YOUR_FORECAST_QUERY = graphql(`query YourTableForecast($input: PredictConflictInput!) {
  predictConflict(input: $input) {
    secondCommits failedCheck message isolationLevel firstTouchesFiles secondReadsFiles nothingToCommit
    byEngine { engine isolationLevel commits failedCheck message note }
  }
}`);

export type YourLayout = ResultOf<typeof YOUR_LAYOUT_QUERY>['tableLayout'];
export type YourForecast = ResultOf<typeof YOUR_FORECAST_QUERY>['predictConflict'];

/**
 * What the engine read past to load the table (an unreadable checkpoint it skipped for the JSON commits), said
 * above its map: the map is right, the table needs repair. Null when the load went as it should.
 */
export function loadWarnings(
  layout: Pick<YourLayout, 'version' | 'warnings'>,
): { title: string; items: string[] } | null {
  const n = layout.warnings.length;
  if (n === 0) return null;
  return {
    title: `Version ${layout.version} was read, but not the usual way (${n} warning${n > 1 ? 's' : ''}):`,
    items: layout.warnings,
  };
}

export const PLAYGROUND_OPERATIONS = ['update', 'delete', 'optimize'] as const;
export type PlaygroundOperation = (typeof PLAYGROUND_OPERATIONS)[number];

export interface PlaygroundWriter {
  operation: PlaygroundOperation;
  predicate: string;
  /** One "column = expression" a line (update only). */
  set: string;
}

export const WHO = ['first', 'second'] as const;
export type Who = (typeof WHO)[number];
export const WHO_LABEL: Record<Who, string> = { first: 'FIRST', second: 'SECOND' };

export const hasPredicate = (w: PlaygroundWriter) => w.operation !== 'optimize';

/** The API's WriterInput for a playground writer, named `first` or `second`. */
export function yourWriterInput(name: Who, w: PlaygroundWriter): WriterInput {
  return {
    name,
    operation: w.operation,
    ...(hasPredicate(w) && { predicate: w.predicate }),
    ...(w.operation === 'update' && { set: setPairs(w.set) }),
  };
}

/** The predicates the layout counts per file, and whose they are (optimize has none), in that order. */
export function layoutPredicates(writers: Record<Who, PlaygroundWriter>): { who: Who; predicate: string }[] {
  return WHO.filter((who) => hasPredicate(writers[who])).map((who) => ({ who, predicate: writers[who].predicate }));
}

export interface YourHeatmap extends HeatmapPicture {
  column: SchemaColumn;
  bands: Band[];
  /** Files whose stats say nothing of the column: they may hold any value. */
  unstated: number[];
  summary: string;
}

const inFiles = (numbers: readonly number[]) =>
  numbers.length === 0 ? 'in no file' : `in file${numbers.length === 1 ? '' : 's'} ${numberRanges(numbers)}`;

/**
 * The files of `layout` by `column`: a row per band of its values (a file's cell holds its rows when its
 * min/max may hold the band: what a reader of those values must scan), then a row per counted predicate
 * (the rows of each file that match it, from the data).
 */
export function yourHeatmap(
  layout: Pick<YourLayout, 'files'>,
  column: SchemaColumn,
  counted: readonly { who: Who; predicate: string }[] = [],
): YourHeatmap {
  const columns = fileColumns(layout.files);
  const ranges = columns.map((c) => fileRange(c, column));
  const bands = valueBands(ranges, column);
  const where = (c: HeatmapColumn) => {
    const r = ranges[c.number - 1];
    const span = r
      ? r.min === r.max
        ? valueText(column.type, r.min)
        : `${valueText(column.type, r.min)}..${valueText(column.type, r.max)}`
      : 'no stats';
    return `file ${c.number} (${column.name} ${span}, ${plural(c.rows, 'row')})`;
  };
  const bandRows: HeatmapRow[] = bands.map((b, bi) => ({
    key: `band-${bi}`,
    label: `${column.name} ${b.lo === b.hi ? '=' : 'in'} ${b.label}`,
    tone: 'count',
    cells: columns.map((c, i) => (overlaps(ranges[i] ?? null, b) ? c.rows : 0)),
    titles: columns.map((c, i) =>
      overlaps(ranges[i] ?? null, b) ? `${where(c)} may hold ${b.label}` : `${where(c)} holds none of ${b.label}`,
    ),
  }));
  const matchRows: HeatmapRow[] = counted.map(({ who, predicate }, pi) => ({
    key: `match-${who}`,
    label: `${WHO_LABEL[who]}: ${predicate}`,
    tone: 'match',
    cells: layout.files.map((f) => f.matches?.[pi] ?? 0),
    titles: columns.map(
      (c, i) =>
        `file ${c.number}: ${formatCount(layout.files[i]?.matches?.[pi] ?? 0)} of ${plural(c.rows, 'row')} match ${WHO_LABEL[who]}'s predicate`,
    ),
  }));
  const picture = heatmapPicture(columns, [...bandRows, ...matchRows]);
  const unstated = columns.filter((_, i) => ranges[i] === null).map((c) => c.number);
  const parts = [
    ...bandRows.map((r) => `${r.label} ${inFiles(filesWith(r, columns))}`),
    ...matchRows.map(
      (r, i) => `${WHO_LABEL[counted[i]?.who ?? 'first']}'s predicate matches rows ${inFiles(filesWith(r, columns))}`,
    ),
  ];
  if (unstated.length > 0) parts.push(`no stats of ${column.name} ${inFiles(unstated)}`);
  return {
    ...picture,
    column,
    bands,
    unstated,
    summary: `${filesText(picture)}, by ${column.name}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`,
  };
}
