/**
 * The /history page's layout and form, without a browser: lanes per writer, marks along time (or versions when a
 * commit has no time), links only to commits drawn and styled by the evidence, the latest commits drawn when there
 * are too many, each library's outcome under the chosen level, and the form's fields refused in the API's words.
 */
import { describe, expect, it } from 'vitest';
import {
  type HistoryCommitView,
  historyVariables,
  LIBRARIES,
  laneOf,
  MAX_DRAWN,
  MAX_LINKS,
  outcomesAt,
  type RejudgementView,
  timelineLayout,
} from '../lib/history';

const T0 = Date.UTC(2026, 11, 1, 9);

function commit(version: number, over: Partial<HistoryCommitView> = {}): HistoryCommitView {
  return {
    version,
    timestamp: T0 + version * 1000,
    startedAt: null,
    operation: 'WRITE',
    predicate: null,
    readVersion: null,
    isolationLevel: null,
    isBlindAppend: null,
    isolationProperty: null,
    concurrentWith: [],
    evidence: 'unknown',
    adds: 1,
    removes: 0,
    writer: { library: 'delta-spark', version: '3.2.0', engineInfo: null, appId: null, userMetadata: null },
    ...over,
  };
}

describe('timelineLayout', () => {
  const rs = { library: 'delta-rs', version: '1.6.0', engineInfo: null, appId: 'daily', userMetadata: null };
  const commits = [
    commit(0),
    commit(1, { evidence: 'recorded', readVersion: 0 }),
    commit(2, { evidence: 'recorded', readVersion: 0, concurrentWith: [1] }),
    commit(3, { evidence: 'inferred', concurrentWith: [1, 2], writer: rs }),
    commit(4, { timestamp: T0 + 10_000 }),
  ];

  it('gives each writer a lane in order of its first commit, and places commits along time', () => {
    const l = timelineLayout(commits);
    expect(l.lanes).toEqual(['delta-spark 3.2.0', 'delta-rs 1.6.0 · daily']);
    expect(l.marks.map((m) => m.lane)).toEqual([0, 0, 0, 1, 0]);
    expect(l.axis).toBe('time');
    expect(l.marks.map((m) => m.x)).toEqual([0, 0.1, 0.2, 0.3, 1]);
  });

  it('joins each concurrent commit to what it overlapped, styled by its evidence', () => {
    const links = timelineLayout(commits).links.map((k) => [k.from.commit.version, k.to.commit.version, k.evidence]);
    expect(links).toEqual([
      [2, 1, 'recorded'],
      [3, 1, 'inferred'],
      [3, 2, 'inferred'],
    ]);
  });

  it('places commits by version when one has no time', () => {
    const l = timelineLayout([commit(5), commit(7, { timestamp: null }), commit(9)]);
    expect(l.axis).toBe('version');
    expect(l.marks.map((m) => m.x)).toEqual([0, 0.5, 1]);
  });

  it('draws the latest commits only, and links none to a commit left out', () => {
    const many = Array.from({ length: MAX_DRAWN + 5 }, (_, v) =>
      commit(v, v === MAX_DRAWN + 4 ? { evidence: 'recorded', concurrentWith: [0, MAX_DRAWN + 3] } : {}),
    );
    const l = timelineLayout(many);
    expect(l.marks).toHaveLength(MAX_DRAWN);
    expect(l.marks[0]?.commit.version).toBe(5);
    expect(l.leftOut).toBe(5);
    expect(l.links.map((k) => k.to.commit.version)).toEqual([MAX_DRAWN + 3]);
  });

  it('draws the latest links only when every commit overlaps many', () => {
    const versions = Array.from({ length: 200 }, (_, v) => v);
    const dense = versions.map((v) =>
      commit(v, { evidence: 'recorded', concurrentWith: versions.slice(Math.max(0, v - 40), v) }),
    );
    const l = timelineLayout(dense);
    const all = versions.reduce((n, v) => n + Math.min(v, 40), 0);
    expect(l.links).toHaveLength(MAX_LINKS);
    expect(l.linksLeftOut).toBe(all - MAX_LINKS);
    expect(l.links.at(-1)).toMatchObject({ from: { commit: { version: 199 } }, to: { commit: { version: 198 } } });
  });

  it('names a writer with nothing recorded as such', () => {
    const none = { library: null, version: null, engineInfo: null, appId: null, userMetadata: null };
    expect(laneOf(commit(0, { writer: none }))).toBe('unnamed writer');
  });
});

describe('outcomesAt', () => {
  const r: RejudgementView = {
    version: 3,
    cannotJudge: null,
    judgements: [
      { library: 'delta-rs', level: 'Serializable', outcome: 'conflict', conflict: 'x', message: null },
      { library: 'delta-rs', level: 'WriteSerializable', outcome: 'commit', conflict: null, message: null },
      { library: 'databricks', level: 'Serializable', outcome: 'cannot-judge', conflict: null, message: null },
    ],
  };
  it("gives each library's outcome under the level, in the drawing's order; null where not judged", () => {
    expect(LIBRARIES.map((l) => l.id)).toEqual(['delta-rs', 'delta-rs-legacy', 'delta-spark', 'databricks']);
    expect(outcomesAt(r, 'Serializable')).toEqual(['conflict', null, null, 'cannot-judge']);
    expect(outcomesAt(r, 'WriteSerializable')).toEqual(['commit', null, null, null]);
    expect(outcomesAt(undefined, 'Serializable')).toEqual([null, null, null, null]);
  });
});

describe('historyVariables', () => {
  const empty = { location: '', key: '', since: '', atVersion: '' };
  it('sends only what was filled in, the key split at commas', () => {
    expect(historyVariables({ ...empty, location: ' own/t ', key: 'trip_id, day ,' })).toEqual({
      variables: { location: 'own/t', key: ['trip_id', 'day'] },
    });
    expect(historyVariables({ ...empty, location: 'own/t', since: '2026-12-01T00:00:00Z', atVersion: '4' })).toEqual({
      variables: { location: 'own/t', since: '2026-12-01T00:00:00Z', atVersion: 4 },
    });
  });
  it('refuses what the API would, every problem named', () => {
    expect(historyVariables({ location: ' ', key: '', since: 'yesterday', atVersion: '-1' })).toEqual({
      problems: [
        'location: name a table',
        "since: 'yesterday' is not a date-time; give ISO 8601, e.g. 2026-12-01T00:00:00Z",
        'atVersion: a version, 0 or more',
      ],
    });
  });
});
