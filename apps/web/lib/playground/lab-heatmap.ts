/**
 * The lab tables' heatmap: one row per VendorID, counted from the data, built as heatmap.ts's one picture.
 */

import { agree, plural } from '@racelab/contracts';
import {
  fileColumns,
  filesText,
  filesWith,
  type HeatmapColumn,
  type HeatmapPicture,
  type HeatmapRow,
  heatmapPicture,
  numberRanges,
} from './heatmap';
import type { TableKind, TableLayout } from './lab-tables';
import { COUNT_BY } from './writer-menu';

export interface LabHeatmapColumn extends HeatmapColumn {
  /** Trips per row value (a VendorID as text). */
  counts: Map<string, number>;
}

export interface LabHeatmap extends HeatmapPicture {
  /** The VendorID values, in numeric order. */
  values: string[];
  columns: LabHeatmapColumn[];
  /** False when the layout has no per-value counts. */
  counted: boolean;
}

const byNumber = (a: string, b: string) => {
  const x = Number(a);
  const y = Number(b);
  return Number.isNaN(x) || Number.isNaN(y) ? (a < b ? -1 : a > b ? 1 : 0) : x - y;
};

/** One tooltip: "file 3, VendorID 2: 301,234 trips". */
export const cellTitle = (column: LabHeatmapColumn, value: string): string =>
  `file ${column.number}, ${COUNT_BY} ${value}: ${plural(column.counts.get(value) ?? 0, 'trip')}`;

export function labHeatmap(layout: TableLayout): LabHeatmap {
  const columns = fileColumns(layout.files).map((c, i): LabHeatmapColumn => {
    const counts = new Map<string, number>();
    for (const v of layout.files[i]?.countsBy ?? []) counts.set(v.value, (counts.get(v.value) ?? 0) + v.rows);
    return { ...c, counts };
  });
  const values = [...new Set(columns.flatMap((c) => [...c.counts.keys()]))].sort(byNumber);
  const rows: HeatmapRow[] = values.map((v) => ({
    key: v,
    label: `${COUNT_BY} ${v}`,
    tone: 'count',
    cells: columns.map((c) => c.counts.get(v) ?? 0),
    titles: columns.map((c) => cellTitle(c, v)),
  }));
  return { ...heatmapPicture(columns, rows), values, counted: layout.files.every((f) => f.countsBy !== null) };
}

/** The heatmap in one sentence, for its aria-label. */
export function labHeatmapSummary(kind: TableKind, model: LabHeatmap): string {
  const n = model.columns.length;
  const parted = model.groups.some((g) => g.partition !== '');
  const head =
    kind === 'partitioned' && parted
      ? `Partitioned table, ${filesText(model)}`
      : `Flat table, ${n} file${n === 1 ? '' : 's'}`;
  const where = model.rows.map((r) => {
    const files = filesWith(r, model.columns);
    const total = r.cells.reduce((t, x) => t + x, 0);
    return `${r.label} (${plural(total, 'trip')}) in ${agree(files.length, 'file', 'files')} ${numberRanges(files)}`;
  });
  return where.length > 0 ? `${head}: ${where.join('; ')}.` : `${head}.`;
}
