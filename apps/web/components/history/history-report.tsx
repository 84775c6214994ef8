'use client';
/**
 * A table's history as read: its figures (named as the API names them), the timeline, the findings under it, the
 * concurrent commits with what each writer library would have done under the chosen level, and the keys present
 * more than once with the commits that added them.
 */
import { useState } from 'react';
import { type HistoryView, LEVELS, type Level, LIBRARIES, laneOf, MAX_ROWS, outcomesAt, utc } from '../../lib/history';
import { HistoryTimeline } from './history-timeline';

const BADGE: Record<string, string> = { error: 'bad', warning: 'warn', info: 'ok' };

function Figures({ history: h }: { history: HistoryView }) {
  const s = h.summary;
  const figures: [string, string, string | number][] = [
    ['commits', 'commits read', s.commits],
    ['writers', 'writers', s.writers],
    ['concurrentCommits', 'concurrent commits', s.concurrentCommits],
    ['inferredConcurrentCommits', 'of them inferred', s.inferredConcurrentCommits],
    ['unknownConcurrency', 'concurrency unknown', s.unknownConcurrency],
    ['longestConcurrentChain', 'longest concurrent chain', s.longestConcurrentChain],
    ['commitsPerHour', 'commits per hour', s.commitsPerHour === null ? '—' : s.commitsPerHour.toFixed(1)],
    [
      'busiestHour',
      'busiest hour (UTC)',
      s.busiestHour === null
        ? '—'
        : `${s.busiestHour.start.slice(0, 13).replace('T', ' ')}h: ${s.busiestHour.concurrentCommits} concurrent`,
    ],
    ['duplicateKeys', 'duplicate keys', s.duplicateKeys ?? '— (no key)'],
  ];
  return (
    <dl className="figures" data-testid="history-summary">
      {figures.map(([id, label, value]) => (
        <div key={id} data-testid={`summary-${id}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Findings({ findings }: { findings: HistoryView['findings'] }) {
  if (findings.length === 0) return <p className="muted">No findings: nothing in this log needs attention.</p>;
  return (
    <div className="table-scroll">
      <table className="data" data-testid="history-findings">
        <caption>Findings</caption>
        <thead>
          <tr>
            <th>rule</th>
            <th>severity</th>
            <th>versions</th>
            <th>evidence</th>
            <th>fix</th>
          </tr>
        </thead>
        <tbody>
          {findings.map((f) => (
            <tr key={`${f.rule}:${f.versions.join(',')}`} data-testid="history-finding" data-rule={f.rule}>
              <td>
                <code>{f.rule}</code>
              </td>
              <td>
                <span className={`badge ${BADGE[f.severity] ?? 'warn'}`}>{f.severity}</span>
              </td>
              <td>{f.versions.map((v) => `v${v}`).join(', ')}</td>
              <td>{f.evidence}</td>
              <td>{f.fix}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ConcurrentCommits({ history: h, level }: { history: HistoryView; level: Level }) {
  const all = h.commits.filter((c) => c.concurrentWith.length > 0 || c.evidence === 'unknown');
  if (all.length === 0) return null;
  const concurrent = all.slice(-MAX_ROWS);
  const judged = new Map(h.rejudgements.map((r) => [r.version, r]));
  return (
    <div className="table-scroll">
      <table className="data" data-testid="history-concurrent">
        <caption>
          Concurrent commits and those whose concurrency is unknown, re-judged under {level}
          {all.length > concurrent.length ? `: the latest ${concurrent.length} of ${all.length}` : ''}
        </caption>
        <thead>
          <tr>
            <th>version</th>
            <th>writer</th>
            <th>at</th>
            <th>evidence</th>
            <th>concurrent with</th>
            {LIBRARIES.map((l) => (
              <th key={l.id}>{l.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {concurrent.map((c) => {
            const r = judged.get(c.version);
            return (
              <tr key={c.version} data-testid="history-concurrent-row" data-version={c.version}>
                <td>v{c.version}</td>
                <td>{laneOf(c)}</td>
                <td>{utc(c.timestamp)}</td>
                <td>{c.evidence}</td>
                <td>{c.concurrentWith.length > 0 ? c.concurrentWith.map((v) => `v${v}`).join(', ') : '—'}</td>
                {outcomesAt(r, level).map((o, i) => (
                  <td key={LIBRARIES[i]?.id} title={o === 'cannot-judge' ? (r?.cannotJudge ?? undefined) : undefined}>
                    {o ?? 'not judged'}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Duplicates({ duplicates: d }: { duplicates: HistoryView['duplicates'] }) {
  if (d === null) return null;
  const key = d.key.join(', ');
  if (d.keys.length === 0)
    return (
      <p className="muted">
        No value of ({key}) is present more than once at version {d.atVersion}.
      </p>
    );
  return (
    <div className="table-scroll">
      <table className="data" data-testid="history-duplicates">
        <caption>
          Keys ({key}) present more than once at version {d.atVersion}: {d.distinct}
          {d.truncated ? `, the first ${d.keys.length} listed` : ''}
        </caption>
        <thead>
          <tr>
            <th>key</th>
            <th>rows</th>
            <th>added by</th>
          </tr>
        </thead>
        <tbody>
          {d.keys.map((k) => (
            <tr key={JSON.stringify(k.values)}>
              <td>
                <code>{k.values.map((v) => v.value ?? 'NULL').join(', ')}</code>
              </td>
              <td>{k.count}</td>
              <td>
                {k.addedBy
                  .map(
                    (a) =>
                      `v${a.version} (${a.rows} row${a.rows === 1 ? '' : 's'}, ${a.writer.library ?? 'unnamed writer'}${a.concurrent ? ', concurrent' : ''})`,
                  )
                  .join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function HistoryReport({ history: h }: { history: HistoryView }) {
  const [level, setLevel] = useState<Level>('WriteSerializable');
  const r = h.range;
  const range = r.latestVersion < r.fromVersion ? 'no commits read' : `versions ${r.fromVersion} to ${r.latestVersion}`;
  return (
    <div className="stack" data-testid="history-report">
      <p>
        <code>{h.location}</code>, {range}
        {h.failed && (
          <>
            {' '}
            <span className="badge bad">error findings</span>
          </>
        )}
      </p>
      {r.since !== null && <p className="muted">Commits from {r.since} on.</p>}
      <Figures history={h} />
      <div className="row">
        <label>
          Re-judged under{' '}
          <select value={level} onChange={(e) => setLevel(e.target.value as Level)} name="level">
            {LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
      </div>
      <HistoryTimeline commits={h.commits} rejudgements={h.rejudgements} level={level} />
      <Findings findings={h.findings} />
      <ConcurrentCommits history={h} level={level} />
      <Duplicates duplicates={h.duplicates} />
    </div>
  );
}
