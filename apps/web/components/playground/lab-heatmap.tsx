/** Where each vendor's trips live in one of the lab's tables: the heatmap with one row per VendorID. */
import { labHeatmap, labHeatmapSummary } from '../../lib/playground/lab-heatmap';
import type { TableKind, TableLayout } from '../../lib/playground/lab-tables';
import { COUNT_BY } from '../../lib/playground/writer-menu';
import { Empty } from '../states';
import { Heatmap } from './heatmap';

export function LabHeatmap({ kind, layout }: { kind: TableKind; layout: TableLayout }) {
  const model = labHeatmap(layout);
  if (model.columns.length === 0) return <Empty>This table has no data files.</Empty>;
  if (!model.counted || model.values.length === 0) {
    return <Empty>The layout came without per-file counts of {COUNT_BY}, so there is nothing to draw.</Empty>;
  }
  return (
    <Heatmap
      picture={model}
      testId={`heatmap-${kind}`}
      summary={labHeatmapSummary(kind, model)}
      column={COUNT_BY}
      unit="trips"
      caption={
        kind === 'flat'
          ? `A file's ${COUNT_BY} min/max in its stats cannot tell which vendors it really holds; the counts can.`
          : `Partitioned files carry ${COUNT_BY} as a partition value, not in their stats.`
      }
    />
  );
}
