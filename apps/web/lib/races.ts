/** The races' GraphQL documents, the shapes derived from them, and the words and tones that sum up a race's outcome. */
import { outcomePattern, propertyProblems, type WriterOutcomeKind } from '@racelab/contracts';
import { graphql, type ResultOf, type VariablesOf } from './gql';

export const RACES = graphql(`query Races($after: String, $caseId: String, $status: RaceStatus) {
  races(first: 20, after: $after, caseId: $caseId, status: $status) {
    edges { node { id caseId title status createdAt finishedAt runsRequested scale tableLocation reason verdictSummary verdictStatus
      runs { index status writers { name operation committed outcome } } } }
    pageInfo { hasNextPage endCursor }
  }
}`);

export const RACE = graphql(`query Race($id: ID!) {
  race(id: $id) {
    id caseId title spec status createdAt startedAt finishedAt runsRequested scale tableLocation reason worker verdictSummary verdictStatus
    warnings realLibrary
    startedBy { description } cancelledBy { description }
    tableProperties { key value }
    runs {
      index status durationMs reason
      verdict { status order summary rowsDuplicated rowsMissing rowsExtra writers { name notApplied appliedTwice }
        examples { kind row { key value } } failedWriters { name rowsTouched untouched summary }
        nothingToCommit { name summary } }
      commitLog { position writer version operation }
      writers { name operation committed outcome version attempts commitRetries errorClass errorMessage readVersion
        filesWritten bytesWritten library libraryVersion run timings { opened prepared released finished } }
      table { version rows distinctTripIds dataFilesOnDisk dataFilesInLog stagingFilesOnDisk tempLogFilesOnDisk
        tripsOnDay { key value } tipDeltaByVendor { key value } }
    }
  }
}`);

export const CASES = graphql(
  'query Cases { cases { id title description engine writers takesTableProperties group store needsS3TableRoot } }',
);

/** The libraries a race can run in for real, and which of them the server has installed. */
export const REAL_LIBRARIES = graphql(
  'query RealLibraries { realLibraries { name version tableFormat installed reason } }',
);

export const START_RACE = graphql('mutation StartRace($input: StartRaceInput!) { startRace(input: $input) { id } }');
export const CANCEL_RACE = graphql('mutation CancelRace($id: ID!) { cancelRace(id: $id) { id status } }');
export const PROGRESS = graphql(
  'subscription Progress($id: ID!) { raceProgress(id: $id) { sequence runIndex status message at } }',
);

/** A race as the race list shows it; the verdict fields are null while no run has a verdict. */
export type RaceSummary = ResultOf<typeof RACES>['races']['edges'][number]['node'];
export type RaceDetail = NonNullable<ResultOf<typeof RACE>['race']>;
export type RunRow = RaceDetail['runs'][number];
export type WriterRow = RunRow['writers'][number];
/** The serial-replay oracle's verdict on a run (the API's RunVerdict); example rows as column/value text. */
export type VerdictRow = NonNullable<RunRow['verdict']>;
export type ProgressEvent = ResultOf<typeof PROGRESS>['raceProgress'];
/** startRace's input and its writers, as the API's schema declares them. */
export type StartRaceInput = VariablesOf<typeof START_RACE>['input'];
export type WriterInput = NonNullable<StartRaceInput['writers']>[number];
export type RaceProperty = NonNullable<StartRaceInput['tableProperties']>[number];

/** `set` as the form takes it, one "column = expression" a line, as the API's key/value pairs. */
export function setPairs(text: string): { key: string; value: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.indexOf('=');
      return { key: l.slice(0, at).trim(), value: l.slice(at + 1).trim() };
    });
}

/** Of `pairs` (table properties as key/value), those a race can set on its copy, a later value of a key winning. */
export function settableProperties(pairs: readonly { key: string; value: string | null }[]): RaceProperty[] {
  const settable = new Map<string, string>();
  for (const { key, value } of pairs) {
    if (value !== null && propertyProblems({ [key]: value }).length === 0) settable.set(key, value);
  }
  return [...settable].map(([key, value]) => ({ key, value }));
}

/** "real delta-rs 1.6.6", or "emulated delta-rs" (the engine ran it as the library would); null when not recorded. */
export function libraryRunLabel(w: Pick<WriterRow, 'library' | 'libraryVersion' | 'run'>): string | null {
  if (w.library === null || w.run === null) return null;
  return w.run === 'REAL' ? `real ${w.library} ${w.libraryVersion ?? ''}`.trimEnd() : `emulated ${w.library}`;
}

export const isLive = (status: string) => status === 'QUEUED' || status === 'RUNNING';

/** "one commits, one fails" for a run's writers; a writer with nothing to commit is neither (outcomePattern). */
export const runPattern = (writers: readonly { operation: string; outcome: string }[]): string =>
  outcomePattern(
    writers.map((w) => ({
      operation: w.operation,
      outcome: w.outcome.toLowerCase().replaceAll('_', '-') as WriterOutcomeKind,
    })),
  );

/** "one commits, one fails · 5 of 5" — each pattern with the runs that showed it, most frequent first. */
export function outcomeSummary(race: Pick<RaceSummary, 'runs' | 'runsRequested'>): string {
  const done = race.runs.filter((r) => r.status === 'DONE');
  if (done.length === 0) return '';
  const counts = new Map<string, number>();
  for (const r of done) counts.set(runPattern(r.writers), (counts.get(runPattern(r.writers)) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([pattern, n]) => `${pattern} · ${n} of ${race.runsRequested}`)
    .join('; ');
}

/** How a verdict looks: a serial result is good, another serial order is allowed but worth a look, else bad. */
export function verdictTone(status: string): 'ok' | 'warn' | 'bad' {
  return status === 'serializable' ? 'ok' : status === 'reordered' ? 'warn' : 'bad';
}

export const VERDICT_LABEL: Record<string, string> = {
  serializable: 'serializable',
  reordered: 'reordered',
  'not-serializable': 'not serializable',
};

export function runsDone(race: Pick<RaceSummary, 'runs'>): number {
  return race.runs.filter((r) => r.status === 'DONE').length;
}

export function ago(iso: string, now = Date.now()): string {
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 60) return `${Math.max(0, s)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export const formatBytes = (n: number | null) =>
  n === null ? '–' : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`;

/** A count as the run card shows it: grouped digits, or a dash when it was not measured. */
export const countOrDash = (v: number | null | undefined) =>
  v === null || v === undefined ? '–' : v.toLocaleString('en-US');
