/**
 * Where each vendor's trips live: one column per file, one row per VendorID, a cell's colour the
 * trips of that vendor in that file (log scale, white when none). Drawn as plain SVG.
 */
import {
  COUNT_BY,
  cellColor,
  cellTitle,
  formatCount,
  type HeatmapColumn,
  type HeatmapGroup,
  heatmapModel,
  heatmapSummary,
  legendSteps,
  numberRanges,
  type TableKind,
  type TableLayout,
} from '../../lib/playground';
import { Empty } from '../states';

const LABEL_W = 92;
const CELL_W = 38;
const CELL_H = 28;
const GROUP_GAP = 10;
const ROW_H = 18;
const PAD = 6;

export function Heatmap({ kind, layout }: { kind: TableKind; layout: TableLayout }) {
  const model = heatmapModel(layout);
  if (model.columns.length === 0) return <Empty>This table has no data files.</Empty>;
  if (!model.counted || model.values.length === 0) {
    return <Empty>The layout came without per-file counts of {COUNT_BY}, so there is nothing to draw.</Empty>;
  }
  const grouped = model.groups.some((g) => g.partition !== '');
  const groupOf = new Map<number, number>();
  model.groups.forEach((g, gi) => {
    for (let i = g.start; i < g.start + g.count; i++) groupOf.set(i, gi);
  });
  const colX = (i: number) => LABEL_W + i * CELL_W + (grouped ? (groupOf.get(i) ?? 0) * GROUP_GAP : 0);
  const top = PAD + (grouped ? ROW_H * 2 : ROW_H) + 4;
  const width = colX(model.columns.length - 1) + CELL_W + PAD;
  const height = top + model.values.length * CELL_H + PAD;
  const fileRowY = top - 8;

  return (
    <figure style={{ margin: 0 }}>
      <svg
        data-testid={`heatmap-${kind}`}
        role="img"
        aria-label={heatmapSummary(kind, model)}
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        style={{ maxWidth: '100%', height: 'auto' }}
      >
        {grouped && (
          <text x={LABEL_W - 8} y={PAD + 11} textAnchor="end" fontSize={11} fill="#5d6b7c">
            partition
          </text>
        )}
        {grouped &&
          model.groups.map((g) => {
            const x0 = colX(g.start);
            const x1 = colX(g.start + g.count - 1) + CELL_W;
            // Narrow groups show the value only ("6"); wide ones the whole folder name ("VendorID=2").
            const label = x1 - x0 >= 2 * CELL_W ? g.partition : g.partition.split('=').slice(1).join('=');
            return (
              <g key={g.partition}>
                <title>{`${g.partition}: file${g.count === 1 ? '' : 's'} ${numberRanges(fileNumbers(g))}`}</title>
                <text x={(x0 + x1) / 2} y={PAD + 11} textAnchor="middle" fontSize={11} fill="#1c2430">
                  {label}
                </text>
                <line x1={x0 + 2} x2={x1 - 2} y1={PAD + 15} y2={PAD + 15} stroke="#9aa7b8" />
              </g>
            );
          })}
        <text x={LABEL_W - 8} y={fileRowY} textAnchor="end" fontSize={11} fill="#5d6b7c">
          file
        </text>
        {model.columns.map((c, i) => (
          <text key={c.path} x={colX(i) + CELL_W / 2} y={fileRowY} textAnchor="middle" fontSize={11} fill="#5d6b7c">
            {c.number}
          </text>
        ))}
        {model.values.map((v, r) => (
          <g key={v}>
            <text x={LABEL_W - 8} y={top + r * CELL_H + CELL_H / 2 + 4} textAnchor="end" fontSize={12} fill="#1c2430">
              {COUNT_BY} {v}
            </text>
            {model.columns.map((c, i) => (
              <rect
                key={c.path}
                x={colX(i) + 1}
                y={top + r * CELL_H + 1}
                width={CELL_W - 2}
                height={CELL_H - 2}
                rx={3}
                fill={cellColor(c.counts.get(v) ?? 0, model.max)}
                stroke="#dde2e8"
              >
                <title>{cellTitle(c, v)}</title>
              </rect>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="legend" style={{ marginTop: '0.4rem' }}>
        <span>Trips per cell:</span>
        {legendSteps(model.max).map((n) => (
          <span key={n}>
            <i aria-hidden="true" style={{ background: cellColor(n, model.max), border: '1px solid #c3ccd7' }} />
            {n === 0 ? 'none' : formatCount(n)}
          </span>
        ))}
        <span>(log scale)</span>
      </figcaption>
      <details style={{ marginTop: '0.5rem' }}>
        <summary>The numbers, and what min/max stats say</summary>
        <FileTable kind={kind} columns={model.columns} values={model.values} />
      </details>
    </figure>
  );
}

const fileNumbers = (g: HeatmapGroup) => Array.from({ length: g.count }, (_, i) => g.start + i + 1);

function statsRange(c: HeatmapColumn): string {
  const min = c.minValues[COUNT_BY];
  const max = c.maxValues[COUNT_BY];
  if (min === undefined || max === undefined) return c.partition || 'no stats';
  return `${String(min)}..${String(max)}`;
}

function FileTable({ kind, columns, values }: { kind: TableKind; columns: HeatmapColumn[]; values: string[] }) {
  return (
    <div style={{ overflowX: 'auto' }}>
      <table className="data">
        <caption className="muted" style={{ textAlign: 'left', padding: '0.3rem 0' }}>
          {kind === 'flat'
            ? `A file's ${COUNT_BY} min/max in its stats cannot tell which vendors it really holds; the counts can.`
            : `Partitioned files carry ${COUNT_BY} as a partition value, not in their stats.`}
        </caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              File
            </th>
            <th scope="col" rowSpan={2}>
              {kind === 'flat' ? `${COUNT_BY} in stats` : 'Partition'}
            </th>
            <th scope="col" rowSpan={2} className="num">
              Rows
            </th>
            <th scope="colgroup" colSpan={values.length} className="num">
              Trips of {COUNT_BY}
            </th>
          </tr>
          <tr>
            {values.map((v) => (
              <th key={v} scope="col" className="num">
                {v}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => (
            <tr key={c.path}>
              <th scope="row" title={c.path}>
                {c.number}
              </th>
              <td>{statsRange(c)}</td>
              <td className="num">{formatCount(c.rows)}</td>
              {values.map((v) => (
                <td key={v} className="num">
                  {formatCount(c.counts.get(v) ?? 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
