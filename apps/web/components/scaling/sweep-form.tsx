'use client';
/**
 * Starts a sweep: the table format (Delta, or Iceberg with its SQL catalog), the N list, K, the operation, and a retry policy (a preset or numbers of one's own). The draft
 * is checked before it is sent (lib/sweep-draft.ts), so a sweep beyond the bounds is refused with the API's own
 * words; whatever the API refuses besides is shown as it said it. Once started, the sweep's progress streams into
 * a bar until it ends (use-sweep-progress.ts).
 */
import {
  JITTERS,
  MAX_SWEEP_COMMITS,
  MAX_SWEEP_COMMITS_PER_WRITER,
  MAX_SWEEP_WRITERS,
  RETRY_POLICIES,
  SWEEP_CATALOGS,
  SWEEP_OPERATIONS,
  SWEEP_TABLE_FORMATS,
} from '@racelab/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { gql } from '../../lib/gql';
import { checkDraft, EMPTY_DRAFT, type StartInput, type SweepDraft } from '../../lib/sweep-draft';
import { START_SWEEP, SWEEPS_KEY } from '../../lib/sweeps';
import { ProgressBar } from '../progress-bar';
import { Failed } from '../states';
import { SubmitButton } from '../submit-button';
import { useSweepProgress } from './use-sweep-progress';

const PRESETS = Object.keys(RETRY_POLICIES);

/** A labelled text field of the draft; what is typed is checked only on submit (checkDraft). */
function DraftInput({
  label,
  name,
  field,
  mode,
  size,
  draft,
  set,
}: {
  label: string;
  name: string;
  field: keyof SweepDraft;
  mode?: 'numeric' | 'decimal';
  size: number;
  draft: SweepDraft;
  set: (key: keyof SweepDraft) => (e: { target: { value: string } }) => void;
}) {
  return (
    <label>
      {label}
      <input
        name={name}
        {...(mode && { inputMode: mode })}
        value={draft[field]}
        onChange={set(field)}
        size={size}
        spellCheck={false}
      />
    </label>
  );
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
          Table format
          <select name="tableFormat" value={draft.tableFormat} onChange={set('tableFormat')}>
            {SWEEP_TABLE_FORMATS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        {draft.tableFormat === 'iceberg' && (
          <label>
            Catalog
            <select name="catalog" value={draft.catalog} onChange={set('catalog')}>
              {SWEEP_CATALOGS.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        <DraftInput label="Writers (N list)" name="writers" field="writers" size={18} draft={draft} set={set} />
        <DraftInput
          label="Commits per writer (K)"
          name="commits"
          field="commits"
          mode="numeric"
          size={4}
          draft={draft}
          set={set}
        />
        <label>
          Operation
          <select name="operation" value={draft.operation} onChange={set('operation')}>
            {SWEEP_OPERATIONS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        {draft.operation === 'compaction' && (
          <DraftInput
            label="Appends/s per writer"
            name="appendRate"
            field="appendRate"
            mode="decimal"
            size={5}
            draft={draft}
            set={set}
          />
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
          <DraftInput
            label="Commit retries (engine loop)"
            name="maxCommitRetries"
            field="maxCommitRetries"
            mode="numeric"
            size={8}
            draft={draft}
            set={set}
          />
          <DraftInput
            label="App tries"
            name="appTries"
            field="appTries"
            mode="numeric"
            size={4}
            draft={draft}
            set={set}
          />
          <DraftInput
            label="Backoff base ms"
            name="backoffBaseMs"
            field="backoffBaseMs"
            mode="numeric"
            size={6}
            draft={draft}
            set={set}
          />
          <DraftInput
            label="Backoff cap ms"
            name="backoffCapMs"
            field="backoffCapMs"
            mode="numeric"
            size={6}
            draft={draft}
            set={set}
          />
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
        At most {MAX_SWEEP_WRITERS} writers per point, {MAX_SWEEP_COMMITS_PER_WRITER} commits per writer and{' '}
        {MAX_SWEEP_COMMITS.toLocaleString('en-US')} commits in all. Pauses happen only in the app loop (reopen, redo),
        never inside the engine&apos;s commit loop; leave the backoff empty for none.
      </p>
      <div className="row">
        <SubmitButton why={live ? 'this sweep is still running: wait for it to end' : null} busy={start.isPending}>
          Start the sweep
        </SubmitButton>
        {progress && (
          <span className="sweep-progress" data-testid="sweep-progress" data-status={progress.status}>
            <ProgressBar done={progress.done} total={progress.total} label="Sweep progress" />
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
