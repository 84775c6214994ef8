/**
 * The history drawn: one lane per writer, each commit a mark at its time, each concurrent commit joined to the
 * commits it overlapped (recorded solid, inferred dashed; a commit whose concurrency is unknown is a grey mark with
 * no link, never drawn as safe), and under each re-judged commit one square per writer library, in the library's
 * colour: filled when it would have committed under the chosen level, hollow and crossed when it would have
 * conflicted, grey when the log cannot judge it.
 */

import { plural } from '@racelab/contracts';
import {
  type HistoryCommitView,
  type Level,
  LIBRARIES,
  type Mark,
  outcomesAt,
  type RejudgementView,
  timelineLayout,
  utc,
} from '../../lib/history';

const WIDTH = 900;
const LEFT = 220;
const RIGHT = 30;
const LANE = 44;
const TOP = 12;
const SQUARE = 8;
const GREY = '#9aa3ad';
const INK = '#27313d';

const markTitle = (c: HistoryCommitView) =>
  [
    `v${c.version} ${c.operation ?? 'no operation recorded'} at ${utc(c.timestamp)}`,
    c.readVersion === null ? 'no readVersion recorded' : `read v${c.readVersion}`,
    `concurrency ${c.evidence}${c.concurrentWith.length > 0 ? ` with v${c.concurrentWith.join(', v')}` : ''}`,
  ].join('; ');

function Outcomes({
  mark,
  cx,
  cy,
  level,
  rejudgement,
}: {
  mark: Mark;
  cx: number;
  cy: number;
  level: Level;
  rejudgement: RejudgementView | undefined;
}) {
  const outcomes = outcomesAt(rejudgement, level);
  return (
    <g data-testid="history-outcomes" data-version={mark.commit.version}>
      {LIBRARIES.map((lib, i) => {
        const outcome = outcomes[i] ?? null;
        const x = cx - 2 * (SQUARE + 1) + i * (SQUARE + 1);
        const y = cy + 8;
        const judged = outcome === 'commit' || outcome === 'conflict';
        const colour = judged ? lib.colour : GREY;
        return (
          <g key={lib.id} data-library={lib.id} data-outcome={outcome ?? 'not judged'}>
            <rect
              x={x}
              y={y}
              width={SQUARE}
              height={SQUARE}
              fill={outcome === 'conflict' ? 'white' : colour}
              stroke={colour}
            >
              <title>{`v${mark.commit.version} under ${level}, ${lib.label}: ${outcome ?? 'not judged'}${
                outcome === 'cannot-judge' && rejudgement?.cannotJudge ? ` (${rejudgement.cannotJudge})` : ''
              }`}</title>
            </rect>
            {outcome === 'conflict' && (
              <path
                d={`M${x} ${y}L${x + SQUARE} ${y + SQUARE}M${x + SQUARE} ${y}L${x} ${y + SQUARE}`}
                stroke={colour}
              />
            )}
          </g>
        );
      })}
    </g>
  );
}

export function HistoryTimeline({
  commits,
  rejudgements,
  level,
}: {
  commits: readonly HistoryCommitView[];
  rejudgements: readonly RejudgementView[];
  level: Level;
}) {
  if (commits.length === 0) return <p className="muted">No commits were read, so there is nothing to draw.</p>;
  const layout = timelineLayout(commits);
  const height = TOP + layout.lanes.length * LANE + 28;
  const px = (m: Mark) => LEFT + m.x * (WIDTH - LEFT - RIGHT);
  const py = (m: Mark) => TOP + m.lane * LANE + 14;
  const judged = new Map(rejudgements.map((r) => [r.version, r]));
  const axisLabel = (f: number) =>
    layout.axis === 'time'
      ? utc(layout.from + f * (layout.to - layout.from)).slice(5, 19)
      : `v${Math.round(layout.from + f * (layout.to - layout.from))}`;
  return (
    <figure className="chart">
      <svg
        width="100%"
        viewBox={`0 0 ${WIDTH} ${height}`}
        style={{ maxWidth: `${WIDTH}px` }}
        role="img"
        aria-label={`History timeline: ${plural(layout.marks.length, 'commit')} in ${plural(layout.lanes.length, 'writer lane')}, ${plural(layout.links.length, 'concurrency link')}`}
        data-testid="history-timeline"
      >
        {layout.lanes.map((name, i) => (
          <g key={name} data-testid="history-lane">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={TOP + i * LANE + 14} y2={TOP + i * LANE + 14} stroke="#e3e7ec" />
            <text x={LEFT - 8} y={TOP + i * LANE + 18} textAnchor="end" fontSize="12">
              {name.length > 34 ? `${name.slice(0, 33)}…` : name}
              <title>{name}</title>
            </text>
          </g>
        ))}
        {layout.links.map((l) => {
          const [x1, y1, x2, y2] = [px(l.from), py(l.from), px(l.to), py(l.to)];
          const bend = y1 === y2 ? -16 : 0;
          return (
            <path
              key={`${l.from.commit.version}-${l.to.commit.version}`}
              d={`M${x1} ${y1}Q${(x1 + x2) / 2} ${(y1 + y2) / 2 + bend} ${x2} ${y2}`}
              fill="none"
              stroke={INK}
              strokeOpacity={0.6}
              strokeDasharray={l.evidence === 'inferred' ? '4 3' : undefined}
              data-testid="history-link"
              data-evidence={l.evidence}
              data-from={l.from.commit.version}
              data-to={l.to.commit.version}
            >
              <title>{`v${l.from.commit.version} was concurrent with v${l.to.commit.version} (${l.evidence})`}</title>
            </path>
          );
        })}
        {layout.marks.map((m) => {
          const c = m.commit;
          const fill = c.evidence === 'unknown' ? GREY : c.evidence === 'inferred' ? 'white' : INK;
          return (
            <g key={c.version}>
              <circle
                cx={px(m)}
                cy={py(m)}
                r={5}
                fill={fill}
                stroke={c.evidence === 'unknown' ? GREY : INK}
                strokeWidth={1.5}
                data-testid="history-mark"
                data-version={c.version}
                data-evidence={c.evidence}
              >
                <title>{markTitle(c)}</title>
              </circle>
              {c.concurrentWith.length > 0 && (
                <Outcomes mark={m} cx={px(m)} cy={py(m)} level={level} rejudgement={judged.get(c.version)} />
              )}
            </g>
          );
        })}
        {[0, 0.5, 1].map((f) => (
          <text
            key={f}
            x={LEFT + f * (WIDTH - LEFT - RIGHT)}
            y={height - 6}
            fontSize="10"
            fill="#5d6b7c"
            textAnchor={f === 0 ? 'start' : f === 1 ? 'end' : 'middle'}
          >
            {axisLabel(f)}
          </text>
        ))}
      </svg>
      <figcaption className="muted" style={{ fontWeight: 'normal' }}>
        {layout.axis === 'time'
          ? 'Commits at their commitInfo timestamp (UTC).'
          : 'Commits by version: some have no timestamp.'}
        {layout.leftOut > 0 &&
          ` The latest ${layout.marks.length} are drawn; ${layout.leftOut} older ones are in the figures only.`}
      </figcaption>
      <HistoryLegend />
    </figure>
  );
}

export function HistoryLegend() {
  return (
    <ul className="legend" data-testid="history-legend">
      <li>
        <svg width="40" height="10" aria-hidden="true">
          <line x1="0" x2="40" y1="5" y2="5" stroke={INK} />
        </svg>{' '}
        concurrent, recorded (readVersion)
      </li>
      <li>
        <svg width="40" height="10" aria-hidden="true">
          <line x1="0" x2="40" y1="5" y2="5" stroke={INK} strokeDasharray="4 3" />
        </svg>{' '}
        concurrent, inferred (timestamp − execution time)
      </li>
      <li>
        <i style={{ background: GREY, borderRadius: '50%' }} /> unknown: the log cannot say; never counted safe
      </li>
      {LIBRARIES.map((l) => (
        <li key={l.id}>
          <i style={{ background: l.colour }} /> {l.label} would commit (hollow ✕: would conflict)
        </li>
      ))}
      <li>
        <i style={{ background: GREY }} /> cannot judge
      </li>
    </ul>
  );
}
