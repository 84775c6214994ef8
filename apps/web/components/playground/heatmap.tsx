/**
 * A table's files as a heatmap: one column per file (grouped by partition), one row per thing counted in
 * each file, a cell's colour its rows (log scale, white when none; blue for the table's rows, orange for a
 * writer's matches). Drawn as plain SVG from lib/playground/heatmap.ts's model; the lab tables' map and "your table"'s
 * map are both this one.
 */
import {
  cellColor,
  formatCount,
  type HeatmapGroup,
  type HeatmapPicture,
  type HeatmapTone,
  legendSteps,
  numberRanges,
} from '../../lib/playground/heatmap';
import { HeatmapNumbers } from './heatmap-numbers';

const CELL_W = 38;
const CELL_H = 28;
const GROUP_GAP = 10;
const ROW_H = 18;
const PAD = 6;
/** Row labels take about this much per character at 12px; long ones are cut (the tooltip has them whole). */
const CHAR_W = 6.6;
const MAX_LABEL = 34;

const TONE_LEGEND: Record<HeatmapTone, string> = { count: 'Rows per cell', match: 'Matching rows' };

const cut = (label: string) => (label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label);

export function Heatmap({
  picture,
  testId,
  summary,
  column,
  caption,
  unit = 'rows',
}: {
  picture: HeatmapPicture;
  /** The svg's data-testid. */
  testId: string;
  /** The picture in words: the svg's aria-label. */
  summary: string;
  /** The column whose stats the numbers table shows beside each file. */
  column: string;
  /** What the numbers table shows, in a sentence. */
  caption: string;
  /** What a cell counts, in the legend ("trips", "rows"). */
  unit?: string;
}) {
  const { columns, groups, rows, max } = picture;
  const labelW = Math.max(92, Math.ceil(Math.max(...rows.map((r) => cut(r.label).length)) * CHAR_W) + 12);
  const grouped = groups.some((g) => g.partition !== '');
  const groupOf = new Map<number, number>();
  groups.forEach((g, gi) => {
    for (let i = g.start; i < g.start + g.count; i++) groupOf.set(i, gi);
  });
  const colX = (i: number) => labelW + i * CELL_W + (grouped ? (groupOf.get(i) ?? 0) * GROUP_GAP : 0);
  const top = PAD + (grouped ? ROW_H * 2 : ROW_H) + 4;
  const width = colX(columns.length - 1) + CELL_W + PAD;
  const height = top + rows.length * CELL_H + PAD;
  const fileRowY = top - 8;
  const tones = [...new Set(rows.map((r) => r.tone))];

  return (
    <figure style={{ margin: 0 }}>
      <svg
        data-testid={testId}
        data-files={columns.length}
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        style={{ maxWidth: '100%', height: 'auto' }}
      >
        {grouped && (
          <text x={labelW - 8} y={PAD + 11} textAnchor="end" fontSize={11} fill="#5d6b7c">
            partition
          </text>
        )}
        {grouped &&
          groups.map((g) => {
            const x0 = colX(g.start);
            const x1 = colX(g.start + g.count - 1) + CELL_W;
            // Narrow groups show the value only ("6"); wide ones the whole folder name ("VendorID=2").
            const label = x1 - x0 >= 2 * CELL_W ? g.partition : g.partition.split('=').slice(1).join('=');
            return (
              <g key={`${g.partition}@${g.start}`}>
                <title>{`${g.partition}: file${g.count === 1 ? '' : 's'} ${numberRanges(fileNumbers(g))}`}</title>
                <text x={(x0 + x1) / 2} y={PAD + 11} textAnchor="middle" fontSize={11} fill="#1c2430">
                  {label}
                </text>
                <line x1={x0 + 2} x2={x1 - 2} y1={PAD + 15} y2={PAD + 15} stroke="#9aa7b8" />
              </g>
            );
          })}
        <text x={labelW - 8} y={fileRowY} textAnchor="end" fontSize={11} fill="#5d6b7c">
          file
        </text>
        {columns.map((c, i) => (
          <text key={c.path} x={colX(i) + CELL_W / 2} y={fileRowY} textAnchor="middle" fontSize={11} fill="#5d6b7c">
            {c.number}
          </text>
        ))}
        {rows.map((r, ri) => (
          <g key={r.key} data-row={r.key}>
            <text x={labelW - 8} y={top + ri * CELL_H + CELL_H / 2 + 4} textAnchor="end" fontSize={12} fill="#1c2430">
              <title>{r.label}</title>
              {cut(r.label)}
            </text>
            {columns.map((c, i) => (
              <rect
                key={c.path}
                x={colX(i) + 1}
                y={top + ri * CELL_H + 1}
                width={CELL_W - 2}
                height={CELL_H - 2}
                rx={3}
                fill={cellColor(r.cells[i] ?? 0, max, r.tone)}
                stroke="#dde2e8"
              >
                <title>{r.titles[i]}</title>
              </rect>
            ))}
          </g>
        ))}
      </svg>
      {tones.map((tone) => (
        <figcaption key={tone} className="legend" style={{ marginTop: '0.4rem' }}>
          <span>{tone === 'count' ? `${unit[0]?.toUpperCase()}${unit.slice(1)} per cell` : TONE_LEGEND[tone]}:</span>
          {legendSteps(max).map((n) => (
            <span key={n}>
              <i aria-hidden="true" style={{ background: cellColor(n, max, tone), border: '1px solid #c3ccd7' }} />
              {n === 0 ? 'none' : formatCount(n)}
            </span>
          ))}
          <span>(log scale)</span>
        </figcaption>
      ))}
      <details style={{ marginTop: '0.5rem' }}>
        <summary>The numbers, and what min/max stats say</summary>
        <HeatmapNumbers columns={columns} rows={rows} column={column} caption={caption} unit={unit} />
      </details>
    </figure>
  );
}

const fileNumbers = (g: HeatmapGroup) => Array.from({ length: g.count }, (_, i) => g.start + i + 1);
