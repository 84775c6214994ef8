/** Bars of counts by a whole-number bucket (attempts per commit), as SVG, each bar labelled with its count. */
import { ChartFigure } from './chart-figure';

const WIDTH = 640;
const HEIGHT = 220;
const M = { left: 44, right: 12, top: 16, bottom: 40 };

export interface Bar {
  bucket: number;
  count: number;
  title: string;
}

export function Histogram({
  title,
  xLabel,
  bars,
  testId,
}: {
  title: string;
  xLabel: string;
  bars: readonly Bar[];
  testId: string;
}) {
  if (bars.length === 0) return <p className="muted">No commit landed at this point, so no attempts to count.</p>;
  const sorted = [...bars].sort((a, b) => a.bucket - b.bucket);
  const top = Math.max(...sorted.map((b) => b.count), 1);
  const slot = (WIDTH - M.left - M.right) / sorted.length;
  const h = (n: number) => (n / top) * (HEIGHT - M.top - M.bottom);
  return (
    <ChartFigure title={title} testId={testId} width={WIDTH} height={HEIGHT}>
      <line x1={M.left} x2={WIDTH - M.right} y1={HEIGHT - M.bottom} y2={HEIGHT - M.bottom} stroke="#5d6b7c" />
      {sorted.map((b, i) => {
        const x = M.left + i * slot + slot * 0.15;
        const y = HEIGHT - M.bottom - h(b.count);
        return (
          <g key={b.bucket} data-testid="histogram-bar" data-bucket={b.bucket} data-count={b.count}>
            <rect x={x} y={y} width={slot * 0.7} height={Math.max(h(b.count), 1)} fill="#2456c5">
              <title>{b.title}</title>
            </rect>
            <text x={x + slot * 0.35} y={y - 4} fontSize="11" textAnchor="middle">
              {b.count}
            </text>
            <text x={x + slot * 0.35} y={HEIGHT - M.bottom + 15} fontSize="11" textAnchor="middle" fill="#5d6b7c">
              {b.bucket}
            </text>
          </g>
        );
      })}
      <text x={(M.left + WIDTH - M.right) / 2} y={HEIGHT - 6} fontSize="12" textAnchor="middle">
        {xLabel}
      </text>
    </ChartFigure>
  );
}
