'use client';
/**
 * Asks for a table's history: its location (under LAB_ROOTS, lab:…, or s3://…), and optionally the key columns
 * whose values should be unique, a time to read from and a version to look for duplicates in. What the form can
 * tell is wrong is refused here in the API's words; whatever the API refuses is shown as it said it.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { gql } from '../../lib/gql';
import { type HistoryVariables, type HistoryView, historyVariables, TABLE_HISTORY_QUERY } from '../../lib/history';
import { Failed } from '../states';
import { SubmitButton } from '../submit-button';

export function HistoryForm({ onRead }: { onRead: (history: HistoryView) => void }) {
  const helpId = useId();
  const [form, setForm] = useState({ location: '', key: '', since: '', atVersion: '' });
  const [refused, setRefused] = useState<string[]>([]);
  // A query, sent on demand: each press reads the log again, as it is now.
  const read = useMutation({
    mutationFn: async (v: HistoryVariables) => (await gql(TABLE_HISTORY_QUERY, v)).tableHistory,
    onSuccess: onRead,
  });
  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
    spellCheck: false,
    autoCapitalize: 'off',
    autoCorrect: 'off',
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (read.isPending) return;
    const checked = historyVariables(form);
    setRefused('problems' in checked ? checked.problems : []);
    if ('variables' in checked) read.mutate(checked.variables);
  };

  return (
    <form className="stack" onSubmit={submit}>
      <label>
        Table location
        <input
          {...field('location')}
          aria-describedby={helpId}
          placeholder="own/events, lab:flat@0.01, s3://bucket/t"
        />
      </label>
      <p id={helpId} className="muted">
        A table under <code>LAB_ROOTS</code>, a lab table, or a prefix in a bucket of <code>LAB_S3_BUCKETS</code>. Only
        its <code>_delta_log</code> is read, and its data files only for duplicate keys.
      </p>
      <div className="row">
        <label>
          Key columns (comma-separated)
          <input {...field('key')} placeholder="trip_id" size={18} />
        </label>
        <label>
          Since (ISO 8601)
          <input {...field('since')} placeholder="2026-12-01T00:00:00Z" size={22} />
        </label>
        <label>
          Duplicates at version
          <input {...field('atVersion')} inputMode="numeric" placeholder="latest" size={8} />
        </label>
        <SubmitButton why={form.location.trim() === '' ? 'name a table first' : null} busy={read.isPending}>
          Read the history
        </SubmitButton>
        <span role="status" className="muted">
          {read.isPending ? 'Reading the log…' : ''}
        </span>
      </div>
      {refused.length > 0 && <Failed error={{ message: 'Not accepted', problems: refused }} />}
      {read.isError && <Failed error={read.error} />}
    </form>
  );
}
