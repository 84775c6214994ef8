/**
 * One run's writers on a time axis (ms from the run's start): starting the writer process (light),
 * opening the table and preparing (grey), waiting at the barrier (hatched), then the change until
 * it committed (green), failed (red) or had nothing to commit (grey). The axis starts where the first writer had its table open,
 * so the race itself gets the width; a dashed line marks the barrier's release.
 */
import { nothingToCommitWords } from '@racelab/contracts';
import type { WriterRow } from '../../lib/races';

const ROW = 28;
const LEFT = 90;
const RIGHT = 50;
const WIDTH = 720;

type Timed = WriterRow & { timings: NonNullable<WriterRow['timings']> };

/** How a writer ended, in its bar's colour, in words and as the bar's label. */
function ended(w: WriterRow): { colour: string; word: string; label: string } {
  if (w.outcome === 'COMMITTED')
    return { colour: '#2e9b55', word: `committed version ${w.version}`, label: `v${w.version}` };
  if (w.outcome === 'NOTHING_TO_COMMIT')
    return { colour: '#5d6b7c', word: nothingToCommitWords(w.operation), label: 'nothing' };
  return { colour: '#d2453b', word: `failed (${w.errorClass})`, label: 'failed' };
}

export function Timeline({ writers, run }: { writers: WriterRow[]; run: number }) {
  const timed = writers.filter((w): w is Timed => w.timings !== null);
  if (timed.length === 0) return <p className="muted">No timings recorded for this run.</p>;
  const from = Math.min(...timed.map((w) => w.timings.opened));
  const to = Math.max(...timed.map((w) => w.timings.finished), from + 1);
  const x = (ms: number) => LEFT + ((Math.max(ms, from) - from) / (to - from)) * (WIDTH - LEFT - RIGHT);
  const barrier = Math.min(...timed.map((w) => w.timings.released));
  const height = timed.length * ROW + 34;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(from + f * (to - from)));
  return (
    <svg
      width="100%"
      viewBox={`0 0 ${WIDTH} ${height}`}
      style={{ maxWidth: `${WIDTH}px` }}
      role="img"
      aria-label={`Timeline of run ${run}: ${timed
        .map((w) => `${w.name} ${ended(w).word} at ${Math.round(w.timings.finished)} ms`)
        .join(', ')}`}
      data-testid={`timeline-${run}`}
    >
      <defs>
        <pattern id={`wait-${run}`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#e8eefb" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#9fb4e6" strokeWidth="2" />
        </pattern>
      </defs>
      {timed.map((w, i) => {
        const t = w.timings;
        const y = i * ROW + 4;
        const { colour, word, label } = ended(w);
        return (
          <g key={w.name}>
            <text x={LEFT - 8} y={y + 15} textAnchor="end" fontSize="12">
              {w.name}
            </text>
            <rect x={x(t.opened)} y={y + 4} width={Math.max(1, x(t.prepared) - x(t.opened))} height={14} fill="#c9d0da">
              <title>{`${w.name}: table open at ${Math.round(t.opened)} ms, change prepared by ${Math.round(t.prepared)} ms`}</title>
            </rect>
            <rect
              x={x(t.prepared)}
              y={y + 4}
              width={Math.max(1, x(t.released) - x(t.prepared))}
              height={14}
              fill={`url(#wait-${run})`}
            >
              <title>{`${w.name}: held at the barrier until ${Math.round(t.released)} ms`}</title>
            </rect>
            <rect
              x={x(t.released)}
              y={y + 4}
              width={Math.max(2, x(t.finished) - x(t.released))}
              height={14}
              fill={colour}
            >
              <title>{`${w.name}: ${word} at ${Math.round(t.finished)} ms`}</title>
            </rect>
            <text x={x(t.finished) + 4} y={y + 15} fontSize="11" fill={colour}>
              {label}
            </text>
          </g>
        );
      })}
      <line x1={x(barrier)} x2={x(barrier)} y1={0} y2={height - 20} stroke="#5d6b7c" strokeDasharray="3 3" />
      <text x={x(barrier) + 3} y={height - 22} fontSize="10" fill="#5d6b7c">
        barrier
      </text>
      {ticks.map((ms) => (
        <text key={ms} x={x(ms)} y={height - 6} fontSize="10" fill="#5d6b7c" textAnchor="middle">
          {ms} ms
        </text>
      ))}
    </svg>
  );
}
