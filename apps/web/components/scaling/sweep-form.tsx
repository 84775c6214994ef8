'use client';
/**
 * Starts a sweep: the N list, K, the operation, and a retry policy (a preset or numbers of one's own). The input
 * is checked here with the contracts' checkSweepInput (the same the API and the CLI use) before it is sent, so a
 * sweep beyond the bounds is refused with the API's own words; whatever the API refuses besides is shown as it
 * said it. Once started, the sweep's progress streams into a bar until it ends.
 */
import {
  checkSweepInput,
  DEFAULT_SWEEP_APPEND_RATE,
  DEFAULT_SWEEP_COMMITS,
  DEFAULT_SWEEP_WRITERS,
  JITTERS,
  RETRY_POLICIES,
  SWEEP_OPERATIONS,
} from '@racelab/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { gql, subscribe, type VariablesOf } from '../../lib/gql';
import { START_SWEEP, SWEEP_PROGRESS, SWEEPS_KEY } from '../../lib/sweeps';
import { Failed } from '../states';

type StartInput = VariablesOf<typeof START_SWEEP>['input'];
const PRESETS = Object.keys(RETRY_POLICIES);

export interface SweepDraft {
  writers: string;
  commits: string;
  operation: string;
  appendRate: string;
  policy: string;
  maxCommitRetries: string;
  appTries: string;
  backoffBaseMs: string;
  backoffCapMs: string;
  jitter: string;
}

export const EMPTY_DRAFT: SweepDraft = {
  writers: DEFAULT_SWEEP_WRITERS.join(','),
  commits: String(DEFAULT_SWEEP_COMMITS),
  operation: 'append-row',
  appendRate: String(DEFAULT_SWEEP_APPEND_RATE),
  policy: 'delta-rs',
  maxCommitRetries: '15',
  appTries: '3',
  backoffBaseMs: '',
  backoffCapMs: '',
  jitter: 'full',
};

/** A field as typed: a number when it reads as one, else the text itself, so the check names what was given. */
const numberOr = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** The draft as the sweep's input (what checkSweepInput and, reshaped, the API take). */
export function draftInput(d: SweepDraft): Record<string, unknown> {
  const custom = d.policy === 'custom';
  const backoff =
    d.backoffBaseMs.trim() === '' && d.backoffCapMs.trim() === ''
      ? null
      : { baseMs: numberOr(d.backoffBaseMs), capMs: numberOr(d.backoffCapMs), jitter: d.jitter };
  return {
    writers: d.writers
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map(numberOr),
    commitsPerWriter: numberOr(d.commits),
    operation: d.operation,
    ...(d.operation === 'compaction' && { appendRatePerSec: numberOr(d.appendRate) }),
    policy: custom
      ? { name: 'custom', maxCommitRetries: numberOr(d.maxCommitRetries), appTries: numberOr(d.appTries), backoff }
      : d.policy,
  };
}

/** The draft's problems in the API's words, or the GraphQL input to send. */
export function checkDraft(d: SweepDraft): { problems: string[] } | { input: StartInput } {
  const given = draftInput(d);
  const checked = checkSweepInput(given);
  if (!checked.ok) return { problems: checked.problems };
  const v = checked.value;
  return {
    input: {
      writers: v.writers,
      commitsPerWriter: v.commitsPerWriter,
      operation: v.operation,
      ...(v.appendRatePerSec !== undefined && { appendRatePerSec: v.appendRatePerSec }),
      policy:
        v.policy.name === 'custom'
          ? {
              name: 'custom',
              maxCommitRetries: v.policy.maxCommitRetries,
              appTries: v.policy.appTries,
              backoff: v.policy.backoff,
            }
          : { name: v.policy.name },
    },
  };
}

interface Progress {
  id: string;
  status: string;
  done: number;
  total: number;
  writers: number | null;
  reason: string | null;
}

/** The started sweep's progress until it ends; the list is re-read when it does. */
function useSweepProgress(id: string | null, onEnded: (id: string) => void) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [streamError, setStreamError] = useState<string | null>(null);
  useEffect(() => {
    if (id === null) return;
    setProgress(null);
    setStreamError(null);
    return subscribe(
      SWEEP_PROGRESS,
      { id },
      (d) => setProgress(d.sweepProgress),
      (error) => {
        if (error) setStreamError(error);
        void client.invalidateQueries({ queryKey: [SWEEPS_KEY] });
        onEnded(id);
      },
    );
  }, [id, client, onEnded]);
  return { progress, streamError };
}

export function SweepForm({ onEnded }: { onEnded: (id: string) => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<SweepDraft>(EMPTY_DRAFT);
  const [refused, setRefused] = useState<string[]>([]);
  const start = useMutation({
    mutationFn: async (input: StartInput) => (await gql(START_SWEEP, { input })).startSweep,
    onSuccess: () => client.invalidateQueries({ queryKey: [SWEEPS_KEY] }),
  });
  const startedId = start.data?.id ?? null;
  const { progress, streamError } = useSweepProgress(startedId, onEnded);
  const set = (key: keyof SweepDraft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (start.isPending) return;
    const checked = checkDraft(draft);
    setRefused('problems' in checked ? checked.problems : []);
    if ('input' in checked) start.mutate(checked.input);
  };
  const live = progress !== null && (progress.status === 'QUEUED' || progress.status === 'RUNNING');

  return (
    <form className="stack" onSubmit={submit} data-testid="sweep-form">
      <div className="row">
        <label>
          Writers (N list)
          <input name="writers" value={draft.writers} onChange={set('writers')} size={18} spellCheck={false} />
        </label>
        <label>
          Commits per writer (K)
          <input name="commits" inputMode="numeric" value={draft.commits} onChange={set('commits')} size={4} />
        </label>
        <label>
          Operation
          <select name="operation" value={draft.operation} onChange={set('operation')}>
            {SWEEP_OPERATIONS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        {draft.operation === 'compaction' && (
          <label>
            Appends/s per writer
            <input
              name="appendRate"
              inputMode="decimal"
              value={draft.appendRate}
              onChange={set('appendRate')}
              size={5}
            />
          </label>
        )}
        <label>
          Retry policy
          <select name="policy" value={draft.policy} onChange={set('policy')}>
            {[...PRESETS, 'custom'].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
      </div>
      {draft.policy === 'custom' && (
        <div className="row">
          <label>
            Commit retries (engine loop)
            <input
              name="maxCommitRetries"
              inputMode="numeric"
              value={draft.maxCommitRetries}
              onChange={set('maxCommitRetries')}
              size={8}
            />
          </label>
          <label>
            App tries
            <input name="appTries" inputMode="numeric" value={draft.appTries} onChange={set('appTries')} size={4} />
          </label>
          <label>
            Backoff base ms
            <input
              name="backoffBaseMs"
              inputMode="numeric"
              value={draft.backoffBaseMs}
              onChange={set('backoffBaseMs')}
              size={6}
            />
          </label>
          <label>
            Backoff cap ms
            <input
              name="backoffCapMs"
              inputMode="numeric"
              value={draft.backoffCapMs}
              onChange={set('backoffCapMs')}
              size={6}
            />
          </label>
          <label>
            Jitter
            <select name="jitter" value={draft.jitter} onChange={set('jitter')}>
              {JITTERS.map((j) => (
                <option key={j}>{j}</option>
              ))}
            </select>
          </label>
        </div>
      )}
      <p className="muted" style={{ margin: 0 }}>
        At most 64 writers per point, 50 commits per writer and 2,000 commits in all. Pauses happen only in the app loop
        (reopen, redo), never inside the engine&apos;s commit loop; leave the backoff empty for none.
      </p>
      <div className="row">
        <button type="submit" disabled={start.isPending || live}>
          Start the sweep
        </button>
        {progress && (
          <span className="sweep-progress" data-testid="sweep-progress" data-status={progress.status}>
            <span
              className="progress"
              role="progressbar"
              aria-label="Sweep progress"
              aria-valuemin={0}
              aria-valuemax={progress.total}
              aria-valuenow={progress.done}
            >
              <span style={{ width: `${(100 * progress.done) / Math.max(progress.total, 1)}%` }} />
            </span>
            <span className="muted">
              {progress.done} of {progress.total} commits
              {progress.writers !== null && ` · N=${progress.writers} running`} · {progress.status.toLowerCase()}
              {progress.reason && `: ${progress.reason}`}
            </span>
          </span>
        )}
      </div>
      {refused.length > 0 && <Failed error={{ message: 'Not accepted', problems: refused }} />}
      {start.isError && <Failed error={start.error} />}
      {streamError && <Failed error={{ message: streamError }} />}
    </form>
  );
}
