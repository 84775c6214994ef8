/**
 * One store probe drawn: the verdict and its line, each deciding check (passed, failed, not run)
 * with what was seen and what its failure does to a Delta table, the informational checks, and the
 * latency of each call kind as bars (p50 solid, p99 the lighter bar behind it).
 */
import { CALL_WORDS, latencyScale, type StoreProbeView, VERDICT_WORDS } from '../../lib/store-probe';

const OUTCOME_TONE: Record<string, string> = { passed: 'ok', failed: 'bad', 'not-run': 'warn' };
const INFO_TONE: Record<string, string> = { honoured: 'ok', ignored: 'bad', 'non-standard': 'warn' };

export function ProbeReport({ probe }: { probe: StoreProbeView }) {
  const verdict = VERDICT_WORDS[probe.verdict] ?? { text: probe.verdict, tone: 'warn' as const };
  return (
    <article className="stack" data-testid="store-probe" data-probe-id={probe.id} data-verdict={probe.verdict}>
      <p>
        <span className={`badge ${verdict.tone}`} data-testid="probe-verdict">
          {verdict.text}
        </span>{' '}
        <code>{probe.location}</code>{' '}
        <span className="muted">
          {probe.rounds} rounds of {probe.writers} writers, {(probe.durationMs / 1000).toFixed(1)} s
        </span>
      </p>
      <p data-testid="probe-summary">{probe.summary}</p>
      <table className="data" aria-label="Checks that decide the verdict">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Outcome</th>
            <th scope="col">Seen</th>
            <th scope="col">If it fails, a Delta table gets</th>
          </tr>
        </thead>
        <tbody>
          {probe.checks.map((c) => (
            <tr key={c.id} data-testid="probe-check" data-check={c.id} data-outcome={c.outcome}>
              <td>{c.title}</td>
              <td>
                <span className={`badge ${OUTCOME_TONE[c.outcome] ?? 'warn'}`}>{c.outcome.replace('-', ' ')}</span>
                {c.tries > 0 && (
                  <span className="muted">
                    {' '}
                    {c.failures}/{c.tries} failed
                  </span>
                )}
              </td>
              <td>{c.detail}</td>
              <td className="muted">{c.onDelta}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Informational</h3>
      <ul data-testid="probe-informational">
        {probe.informational.map((c) => (
          <li key={c.id} data-check={c.id} data-outcome={c.outcome}>
            <span className={`badge ${INFO_TONE[c.outcome] ?? 'words'}`}>{c.outcome}</span> {c.title}:{' '}
            <span className="muted">{c.detail}</span>
          </li>
        ))}
      </ul>
      <h3>Latency</h3>
      <LatencyBars probe={probe} />
      {probe.leftover > 0 && (
        <p className="state failed" role="alert">
          The clean-up left {probe.leftover} objects under the probe&apos;s sub-prefix.
        </p>
      )}
      {probe.leftover < 0 && (
        <p className="muted">
          The clean-up could not list the probe&apos;s sub-prefix afterwards: whatever reached the store may still be
          there.
        </p>
      )}
    </article>
  );
}

const ROW = 26;
const LABEL = 190;
const WIDTH = 640;

function LatencyBars({ probe }: { probe: StoreProbeView }) {
  if (probe.latency.length === 0)
    return <p className="muted">No call was timed: the probe stopped before its first.</p>;
  const { at, top } = latencyScale(probe.latency);
  const span = WIDTH - LABEL - 110;
  const height = probe.latency.length * ROW + 24;
  return (
    <svg
      role="img"
      aria-label={`Latency by call kind, p50 and p99, up to ${top.toFixed(0)} ms`}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: WIDTH }}
      data-testid="probe-latency"
    >
      {probe.latency.map((l, i) => {
        const y = i * ROW + 4;
        return (
          <g key={l.call} data-call={l.call}>
            <title>{`${CALL_WORDS[l.call] ?? l.call}: ${l.count} calls, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms`}</title>
            <text x={LABEL - 8} y={y + 14} textAnchor="end" fontSize="12" fill="currentColor">
              {CALL_WORDS[l.call] ?? l.call}
            </text>
            <rect x={LABEL} y={y + 2} width={Math.max(1, at(l.p99Ms) * span)} height={ROW - 10} fill="var(--warn-bg)" />
            <rect x={LABEL} y={y + 2} width={Math.max(1, at(l.p50Ms) * span)} height={ROW - 10} fill="var(--ok)" />
            <text x={LABEL + at(l.p99Ms) * span + 6} y={y + 14} fontSize="11" fill="currentColor">
              {l.p50Ms.toFixed(1)} / {l.p99Ms.toFixed(1)} ms
            </text>
          </g>
        );
      })}
      <text x={LABEL} y={height - 4} fontSize="11" fill="currentColor" opacity="0.7">
        p50 (solid) and p99 (light), ms, 0 to {top.toFixed(0)}
      </text>
    </svg>
  );
}
