/**
 * Lines through points on two axes, as SVG: measured series with a marker per point, forecasts as dashed lines
 * without markers, a legend under it. Writer counts double from point to point (1, 2, 4 … 64), so the x axis can
 * be logarithmic (base 2), which spaces them evenly. Every point and line carries data- attributes the tests read.
 */
import type { Series } from '../../lib/sweeps';
import { ChartFigure } from './chart-figure';

const WIDTH = 640;
const HEIGHT = 300;
const M = { left: 56, right: 16, top: 14, bottom: 42 };

export interface LineChartProps {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  xScale?: 'log2' | 'linear';
  /** The top of the y axis; by default a little above the highest point. */
  yMax?: number;
  yFormat?: (y: number) => string;
  testId: string;
}

/** About five round steps from 0 to `top`. */
function niceTicks(top: number): number[] {
  if (top <= 0) return [0];
  const raw = top / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw) as number;
  const ticks: number[] = [];
  for (let v = 0; v <= top + step / 1000; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

export function LineChart({
  title,
  xLabel,
  yLabel,
  series,
  xScale = 'log2',
  yMax,
  yFormat = (y) => String(y),
  testId,
}: LineChartProps) {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return <p className="muted">Nothing to plot: {title.toLowerCase()} needs a point.</p>;
  const tx = (x: number) => (xScale === 'log2' ? Math.log2(Math.max(x, 1e-9)) : x);
  const xs = all.map((p) => tx(p.x));
  const xMin = xScale === 'log2' ? Math.min(...xs) : Math.min(0, ...xs);
  const xMax = Math.max(...xs, xMin + 1);
  const top = yMax ?? Math.max(...all.map((p) => p.y), 1e-9) * 1.1;
  const yTicks = yMax === undefined ? niceTicks(top) : niceTicks(yMax);
  const yTop = Math.max(top, yTicks.at(-1) ?? top);
  const px = (x: number) => M.left + ((tx(x) - xMin) / (xMax - xMin)) * (WIDTH - M.left - M.right);
  const py = (y: number) => HEIGHT - M.bottom - (Math.min(y, yTop) / yTop) * (HEIGHT - M.top - M.bottom);
  // Ticks at the measured xs on a log axis (the Ns run), else round steps.
  const xTicks =
    xScale === 'log2'
      ? [...new Set(series.filter((s) => !s.forecast).flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b)
      : niceTicks(Math.max(...all.map((p) => p.x)));
  return (
    <ChartFigure
      title={title}
      testId={testId}
      width={WIDTH}
      height={HEIGHT}
      after={
        <ul className="legend">
          {series.map((s) => (
            <li key={s.id}>
              <svg width="28" height="10" aria-hidden="true">
                <line
                  x1="0"
                  x2="28"
                  y1="5"
                  y2="5"
                  stroke={s.colour}
                  strokeWidth="2"
                  strokeDasharray={s.forecast ? '6 4' : undefined}
                />
              </svg>{' '}
              {s.label}
            </li>
          ))}
        </ul>
      }
    >
      {yTicks.map((y) => (
        <g key={`y${y}`}>
          <line x1={M.left} x2={WIDTH - M.right} y1={py(y)} y2={py(y)} stroke="#e6e9ee" />
          <text x={M.left - 6} y={py(y) + 4} fontSize="11" textAnchor="end" fill="#5d6b7c">
            {yFormat(y)}
          </text>
        </g>
      ))}
      {xTicks.map((x) => (
        <text key={`x${x}`} x={px(x)} y={HEIGHT - M.bottom + 16} fontSize="11" textAnchor="middle" fill="#5d6b7c">
          {x}
        </text>
      ))}
      <line x1={M.left} x2={WIDTH - M.right} y1={py(0)} y2={py(0)} stroke="#5d6b7c" />
      <line x1={M.left} x2={M.left} y1={M.top} y2={py(0)} stroke="#5d6b7c" />
      <text x={(M.left + WIDTH - M.right) / 2} y={HEIGHT - 6} fontSize="12" textAnchor="middle">
        {xLabel}
      </text>
      <text
        x={14}
        y={(M.top + HEIGHT - M.bottom) / 2}
        fontSize="12"
        textAnchor="middle"
        transform={`rotate(-90 14 ${(M.top + HEIGHT - M.bottom) / 2})`}
      >
        {yLabel}
      </text>
      {series.map((s) => (
        <g key={s.id} data-testid="chart-series" data-series={s.id} data-kind={s.forecast ? 'forecast' : 'measured'}>
          <polyline
            fill="none"
            stroke={s.colour}
            strokeWidth={s.forecast ? 1.5 : 2}
            strokeDasharray={s.forecast ? '6 4' : undefined}
            points={s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')}
          />
          {!s.forecast &&
            s.points.map((p) => (
              <circle
                key={p.x}
                data-testid="chart-point"
                data-x={p.x}
                data-y={p.y}
                cx={px(p.x)}
                cy={py(p.y)}
                r={4}
                fill="#fff"
                stroke={s.colour}
                strokeWidth={2}
              >
                <title>{p.title}</title>
              </circle>
            ))}
        </g>
      ))}
    </ChartFigure>
  );
}
