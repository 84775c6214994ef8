/**
 * The lab's base tables as the playground shows them: their kinds and scales, and the layout query that reads
 * one (its files, per-file counts of every menu writer's predicate, previews of each day's append).
 */
import type { Add } from '@racelab/engine/conflict';
import { graphql, type ResultOf } from '../gql';
import { APPEND_DAYS, COUNT_BY, LAYOUT_PREDICATES } from './writer-menu';

export type TableKind = 'flat' | 'partitioned';
export const TABLE_KINDS: readonly TableKind[] = ['flat', 'partitioned'];
export const SCALES: readonly number[] = [0.01, 0.1, 1];
/** The lesson's full-size table. */
export const DEFAULT_SCALE = 1;

/** The lab's base table as the API names it, e.g. `lab:flat@1`. */
export const labLocation = (kind: TableKind, scale: number): string => `lab:${kind}@${scale}`;

export type TableLayout = ResultOf<typeof TABLE_LAYOUT_QUERY>['tableLayout'];
export type LayoutFile = TableLayout['files'][number];
export type KeyValue = LayoutFile['partitionValues'][number];

/** A layout together with the predicates its `matches` count, in the same order. */
export interface PlaygroundLayout extends TableLayout {
  predicates: readonly string[];
}

export const TABLE_LAYOUT_QUERY = graphql(`query PlaygroundLayout(
  $location: String!, $countBy: String, $predicates: [String!], $appendDays: [String!]
) {
  tableLayout(location: $location, countBy: $countBy, predicates: $predicates, appendDays: $appendDays) {
    version
    files { path rows size stats partitionValues { key value } minValues maxValues countsBy { value rows } matches }
    schema
    partitionColumns
    protocol
    configuration { key value }
    appends { day files { partitionValues { key value } stats } }
  }
}`);

export function layoutVariables(kind: TableKind, scale: number) {
  return {
    location: labLocation(kind, scale),
    countBy: COUNT_BY,
    predicates: [...LAYOUT_PREDICATES],
    appendDays: [...APPEND_DAYS],
  };
}

export const recordOf = (pairs: readonly KeyValue[]): Record<string, string | null> =>
  Object.fromEntries(pairs.map((p) => [p.key, p.value]));

/** The read snapshot's add actions as the layout gives them: logical column names, rows net of deletion vectors. */
export function addsOf(layout: TableLayout): Add[] {
  return layout.files.map((f) => ({
    path: f.path,
    partitionValues: recordOf(f.partitionValues),
    size: f.size,
    modificationTime: 0,
    dataChange: true,
    ...(f.stats != null && { stats: f.stats }),
  }));
}
