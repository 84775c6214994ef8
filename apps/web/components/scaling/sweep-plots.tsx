'use client';
import { plural } from '@racelab/contracts';
/**
 * The picked sweeps drawn: success per attempt vs N (one line per sweep, so several policies of one operation
 * overlay, each with its forecast's dashed line and stated error), commits/s vs N, the compactor's success vs the
 * append rate it competes with (compaction sweeps), and the attempts histogram of one chosen point.
 */
import { useState } from 'react';
import { compactionSeries, type StoredSweep, successSeries, sweepLabel, throughputSeries } from '../../lib/sweeps';
import { Histogram } from '../charts/histogram';
import { LineChart } from '../charts/line-chart';

const percent = (y: number) => `${Math.round(100 * y)}%`;

function AttemptsOfPoint({ sweeps }: { sweeps: readonly StoredSweep[] }) {
  const [sweepId, setSweepId] = useState<string | null>(null);
  const [writers, setWriters] = useState<number | null>(null);
  const sweep = sweeps.find((s) => s.id === sweepId) ?? sweeps[0];
  if (!sweep) return null;
  const points = sweep.results.points;
  const point = points.find((p) => p.writers === writers) ?? points.at(-1);
  if (!point) return null;
  return (
    <section aria-labelledby="attempts-heading">
      <h3 id="attempts-heading">Attempts per landed commit</h3>
      <div className="row">
        <label>
          Sweep
          <select
            name="histogram-sweep"
            value={sweep.id}
            onChange={(e) => {
              setSweepId(e.target.value);
              setWriters(null);
            }}
          >
            {sweeps.map((s) => (
              <option key={s.id} value={s.id}>
                {sweepLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          N
          <select name="histogram-writers" value={point.writers} onChange={(e) => setWriters(Number(e.target.value))}>
            {points.map((p) => (
              <option key={p.writers} value={p.writers}>
                {p.writers}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Histogram
        testId="attempts-histogram"
        title={`${sweepLabel(sweep)}, N=${point.writers}: ${plural(point.commits.acknowledged, 'commit')} landed in ${plural(point.attempts.total, 'attempt')}`}
        xLabel="attempts a landed commit took"
        bars={point.attempts.histogram.map((b) => ({
          bucket: b.attempts,
          count: b.commits,
          title: `${b.commits} commit(s) took ${b.attempts} attempt(s)`,
        }))}
      />
    </section>
  );
}

export function SweepPlots({ sweeps }: { sweeps: readonly StoredSweep[] }) {
  const operations = [...new Set(sweeps.map((s) => s.input.operation))];
  const compaction = compactionSeries(sweeps);
  return (
    <div className="stack">
      {operations.map((op) => {
        const of = sweeps.filter((s) => s.input.operation === op);
        return (
          <div key={op} className="chart-pair" data-testid="operation-plots" data-operation={op}>
            <LineChart
              testId="success-chart"
              title={`${op}: success per attempt vs writers`}
              xLabel="writers (N)"
              yLabel="success per attempt"
              yMax={1}
              yFormat={percent}
              series={successSeries(of)}
            />
            <LineChart
              testId="throughput-chart"
              title={`${op}: commits/s vs writers`}
              xLabel="writers (N)"
              yLabel="commits/s"
              series={throughputSeries(of)}
            />
          </div>
        );
      })}
      {compaction.length > 0 && (
        <LineChart
          testId="compaction-chart"
          title="compaction: the compactor's success per attempt vs the append rate"
          xLabel="appends per second, all writers (N × rate)"
          yLabel="compactor success per attempt"
          xScale="linear"
          yMax={1}
          yFormat={percent}
          series={compaction}
        />
      )}
      <AttemptsOfPoint sweeps={sweeps} />
    </div>
  );
}
