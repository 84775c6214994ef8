/**
 * The table history's GraphQL document and shapes (the /history page), and how its timeline is laid out: one lane
 * per writer, each commit a mark at its time (at its version when some commit has no time), each concurrency a link
 * to the commits it overlapped, and the re-judged outcomes of one isolation level per writer library.
 */
import { graphql, type ResultOf, type VariablesOf } from './gql';

export const TABLE_HISTORY_QUERY = graphql(`query TableHistory($location: String!, $since: String, $key: [String!],
  $atVersion: Int) {
  tableHistory(location: $location, since: $since, key: $key, atVersion: $atVersion) {
    location failed range { fromVersion latestVersion oldestKept since }
    summary { commits writers concurrentCommits inferredConcurrentCommits unknownConcurrency duplicateKeys
      longestConcurrentChain commitsPerHour busiestHour { start commits concurrentCommits } }
    commits { version timestamp startedAt operation predicate readVersion isolationLevel isBlindAppend
      isolationProperty concurrentWith evidence adds removes
      writer { library version engineInfo appId userMetadata } }
    rejudgements { version cannotJudge judgements { library level outcome conflict message } }
    duplicates { key atVersion distinct truncated
      keys { values { key value } count addedBy { version rows concurrent writer { library version appId } } } }
    findings { rule severity versions evidence fix } } }`);

export type HistoryView = ResultOf<typeof TABLE_HISTORY_QUERY>['tableHistory'];
export type HistoryCommitView = HistoryView['commits'][number];
export type RejudgementView = HistoryView['rejudgements'][number];
export type HistoryVariables = VariablesOf<typeof TABLE_HISTORY_QUERY>;

/** The libraries re-judged, in the order their marks are drawn, each with its colour and name. */
export const LIBRARIES = [
  { id: 'delta-rs', label: 'delta-rs 1.2–1.6.x', colour: '#d9822b' },
  { id: 'delta-rs-legacy', label: 'delta-rs ≤ 1.1.4', colour: '#8a5a00' },
  { id: 'delta-spark', label: 'Delta Spark', colour: '#2f6fd6' },
  { id: 'databricks', label: 'Databricks', colour: '#c0398a' },
] as const;

export const LEVELS = ['Serializable', 'WriteSerializable', 'SnapshotIsolation'] as const;
export type Level = (typeof LEVELS)[number];

/** At most this many commits are drawn, the latest; the table of findings and the figures cover them all. */
export const MAX_DRAWN = 2_000;
/** At most this many concurrency links are drawn (the latest commits'): many writers at once link every pair. */
export const MAX_LINKS = 5_000;
/** At most this many rows of concurrent commits are listed, the latest. */
export const MAX_ROWS = 500;

/** A writer's lane name: its library and version, and its job when recorded; "unnamed writer" when none is. */
export function laneOf(c: HistoryCommitView): string {
  const w = c.writer;
  const who = [w.library ?? w.engineInfo, w.version].filter((x) => x !== null && x !== '').join(' ');
  const name = who === '' ? 'unnamed writer' : who;
  return w.appId ? `${name} · ${w.appId}` : name;
}

/** The form's fields as the query's variables, or the problems with them (said as the API would). */
export function historyVariables(form: {
  location: string;
  key: string;
  since: string;
  atVersion: string;
}): { variables: HistoryVariables } | { problems: string[] } {
  const problems: string[] = [];
  const location = form.location.trim();
  if (location === '') problems.push('location: name a table');
  const key = form.key
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const since = form.since.trim();
  if (since !== '' && Number.isNaN(new Date(since).getTime()))
    problems.push(`since: '${since}' is not a date-time; give ISO 8601, e.g. 2026-12-01T00:00:00Z`);
  const at = form.atVersion.trim();
  if (at !== '' && !/^\d+$/.test(at)) problems.push('atVersion: a version, 0 or more');
  if (problems.length > 0) return { problems };
  return {
    variables: {
      location,
      ...(key.length > 0 && { key }),
      ...(since !== '' && { since }),
      ...(at !== '' && { atVersion: Number(at) }),
    },
  };
}

export interface Mark {
  commit: HistoryCommitView;
  lane: number;
  x: number;
}

export interface Link {
  from: Mark;
  to: Mark;
  evidence: string;
}

export interface TimelineLayout {
  lanes: string[];
  marks: Mark[];
  links: Link[];
  /** Whether x is time (every drawn commit has one) or the version. */
  axis: 'time' | 'version';
  from: number;
  to: number;
  /** Commits left out of the drawing (the oldest), beyond MAX_DRAWN. */
  leftOut: number;
  /** Links left out of the drawing (the oldest commits'), beyond MAX_LINKS. */
  linksLeftOut: number;
}

/** Places the latest MAX_DRAWN commits: x from 0 to 1 along the axis, a lane per writer in order of first commit. */
export function timelineLayout(commits: readonly HistoryCommitView[]): TimelineLayout {
  const drawn = [...commits].sort((a, b) => a.version - b.version).slice(-MAX_DRAWN);
  const axis = drawn.every((c) => c.timestamp !== null) ? 'time' : 'version';
  const at = (c: HistoryCommitView) => (axis === 'time' ? (c.timestamp as number) : c.version);
  const from = Math.min(...drawn.map(at));
  const to = Math.max(...drawn.map(at), from + 1);
  const lanes: string[] = [];
  const marks = drawn.map((commit) => {
    const name = laneOf(commit);
    if (!lanes.includes(name)) lanes.push(name);
    return { commit, lane: lanes.indexOf(name), x: (at(commit) - from) / (to - from) };
  });
  const byVersion = new Map(marks.map((m) => [m.commit.version, m]));
  const all = marks.flatMap((m) =>
    m.commit.concurrentWith.flatMap((v) => {
      const other = byVersion.get(v);
      return other ? [{ from: m, to: other, evidence: m.commit.evidence }] : [];
    }),
  );
  const links = all.slice(-MAX_LINKS);
  return {
    lanes,
    marks,
    links,
    axis,
    from,
    to,
    leftOut: commits.length - drawn.length,
    linksLeftOut: all.length - links.length,
  };
}

/** What each library would have done with a commit under `level`: commit, conflict or cannot-judge; null: not judged. */
export function outcomesAt(r: RejudgementView | undefined, level: Level): (string | null)[] {
  return LIBRARIES.map((l) => r?.judgements.find((j) => j.library === l.id && j.level === level)?.outcome ?? null);
}

/** A time as the page shows it: UTC, to the second. */
export const utc = (ms: number | null) =>
  ms === null ? '—' : `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
