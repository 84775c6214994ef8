'use client';
import { plural } from '@racelab/contracts';
/** One race: its state and verdict, live progress while it runs, and every run's verdict, writers, timeline and checks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { gql, subscribe } from '../../lib/gql';
import { CANCEL_RACE, isLive, outcomeSummary, PROGRESS, type ProgressEvent, RACE, runsDone } from '../../lib/races';
import { writerCommands } from '../../lib/writer-commands';
import { Empty, Failed, Loading, StatusBadge } from '../states';
import { RunCard } from './run-card';
import { RunsProgress } from './runs-progress';
import { VerdictSummary } from './verdict';

/** The race's progress events while it is live; the race is re-read whenever a run ends. */
function useProgress(id: string, live: boolean) {
  const client = useQueryClient();
  const [events, setEvents] = useState<ProgressEvent[]>([]);
  const [streamError, setStreamError] = useState<string | null>(null);
  useEffect(() => {
    if (!live) return;
    setEvents([]);
    return subscribe(
      PROGRESS,
      { id },
      ({ raceProgress: e }) => {
        setEvents((all) => (all.some((x) => x.sequence === e.sequence) ? all : [...all, e]));
        if (/ done: /.test(e.message) || !isLive(e.status)) void client.invalidateQueries({ queryKey: ['race', id] });
      },
      (error) => {
        if (error) setStreamError(error);
        // The race has ended (or the stream broke): its page and the race list both change.
        void client.invalidateQueries({ queryKey: ['race', id] });
        void client.invalidateQueries({ queryKey: ['races'] });
      },
    );
  }, [id, live, client]);
  return { events, streamError };
}

export function RaceDetail({ id }: { id: string }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['race', id], queryFn: () => gql(RACE, { id }) });
  const race = q.data?.race ?? null;
  const live = race !== null && isLive(race.status);
  const { events, streamError } = useProgress(id, live);
  const cancel = useMutation({
    mutationFn: () => gql(CANCEL_RACE, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['race', id] }),
  });

  if (q.isPending) return <Loading what="the race" />;
  if (q.error) return <Failed error={q.error} />;
  if (!race) {
    return (
      <Empty>
        No race {id}. <Link href="/races">All races</Link>
      </Empty>
    );
  }
  const done = runsDone(race);
  const commands = writerCommands(race.spec);
  return (
    <>
      <p>
        <Link href="/races">← All races</Link>
      </p>
      <h1>
        {race.caseId ?? 'Custom race'}: {race.title}
      </h1>
      <div className="row">
        <span data-testid="race-status" data-status={race.status}>
          <StatusBadge status={race.status} />
        </span>
        <span className="muted">
          {race.tableLocation ? `copies of ${race.tableLocation}` : `scale ${race.scale}`} ·{' '}
          {plural(race.runsRequested, 'run')} · started {new Date(race.createdAt).toLocaleString()}
          {race.startedBy && <span data-testid="started-by"> by {race.startedBy.description}</span>}
          {race.worker && ` · worker ${race.worker}`}
          {race.realLibrary && <span data-testid="real-library"> · in the real {race.realLibrary}</span>}
          {race.tableProperties.length > 0 && ` · ${race.tableProperties.map((p) => `${p.key}=${p.value}`).join(', ')}`}
        </span>
        {live && (
          <button type="button" className="secondary" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
            {cancel.isPending ? 'Cancelling…' : 'Cancel race'}
          </button>
        )}
      </div>
      {race.reason && <p className="error-text">{race.reason}</p>}
      {race.warnings.length > 0 && (
        <div className="muted" data-testid="race-warnings">
          Said when the race was submitted:
          <ul>
            {race.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      {race.cancelledBy && (
        <p className="muted" data-testid="cancelled-by">
          Cancelled by {race.cancelledBy.description}.
        </p>
      )}
      {cancel.error && <Failed error={cancel.error} />}
      <section className="panel" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Outcome</h2>
        {race.verdictSummary && (
          <p>
            <VerdictSummary race={race} />
          </p>
        )}
        <p data-testid="outcome-summary">{outcomeSummary(race) || 'No run has finished yet.'}</p>
        <RunsProgress done={done} total={race.runsRequested} label="runs done" />
        {live && (
          <div className="events" aria-live="polite" data-testid="events">
            <ol>
              {events.map((e) => (
                <li key={e.sequence}>
                  {new Date(e.at).toLocaleTimeString()} {e.message}
                </li>
              ))}
            </ol>
            {events.length === 0 && <span>waiting for the worker…</span>}
          </div>
        )}
        {streamError && <p className="muted">{streamError}; the page still refreshes when runs end.</p>}
      </section>
      <h2>Runs</h2>
      {race.runs.length === 0 ? (
        <Empty>No run has started yet.</Empty>
      ) : (
        race.runs.map((run) => <RunCard key={run.index} run={run} commands={commands} />)
      )}
    </>
  );
}
