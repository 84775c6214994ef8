'use client';
/**
 * Starts a probe of an S3 location in a configured bucket. Numbers outside the API's bounds are
 * refused here before anything is sent; whatever the API refuses (a bucket not configured, a local
 * path) is shown as it said it. A probe takes seconds to tens of seconds: the button says so. With no bucket
 * configured (the API's storeBuckets is empty) the form is disabled and says why.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { gql } from '../../lib/gql';
import {
  PROBE_FORM_LIMITS,
  PROBE_STORE_MUTATION,
  probeFormBlocked,
  STORE_BUCKETS_QUERY,
  STORE_PROBES_KEY,
  type StoreProbeView,
} from '../../lib/store-probe';
import { Failed } from '../states';
import { SubmitButton } from '../submit-button';

/** The form's numbers, or the problems with them, in the API's words. */
export function formProblems(rounds: number, writers: number): string[] {
  return (['rounds', 'writers'] as const).flatMap((name) => {
    const v = name === 'rounds' ? rounds : writers;
    const { min, max } = PROBE_FORM_LIMITS[name];
    return Number.isInteger(v) && v >= min && v <= max ? [] : [`${name}: a whole number from ${min} to ${max}`];
  });
}

export function ProbeForm({ onProbed }: { onProbed: (probe: StoreProbeView) => void }) {
  const helpId = useId();
  const blockedId = useId();
  const queryClient = useQueryClient();
  const [location, setLocation] = useState('');
  const [rounds, setRounds] = useState('200');
  const [writers, setWriters] = useState('8');
  const [refused, setRefused] = useState<string[]>([]);
  const buckets = useQuery({
    queryKey: ['store-buckets'],
    queryFn: async () => (await gql(STORE_BUCKETS_QUERY, {})).storeBuckets,
  });
  // Without a configured bucket there is nothing to probe: the form is disabled and says why.
  const blocked = buckets.isError ? null : probeFormBlocked(buckets.data);
  const probe = useMutation({
    mutationFn: async (v: { location: string; rounds: number; writers: number }) =>
      (await gql(PROBE_STORE_MUTATION, v)).probeStore,
    onSuccess: async (p) => {
      onProbed(p);
      await queryClient.invalidateQueries({ queryKey: [STORE_PROBES_KEY] });
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (probe.isPending || blocked !== null) return;
    const numbers = { rounds: Number(rounds), writers: Number(writers) };
    const problems = formProblems(numbers.rounds, numbers.writers);
    setRefused(problems);
    if (problems.length === 0) probe.mutate({ location: location.trim(), ...numbers });
  };

  return (
    <form className="stack" onSubmit={submit} aria-describedby={blocked === null ? undefined : blockedId}>
      {blocked !== null && (
        <p id={blockedId} className="state" role="note" data-testid="probe-form-blocked">
          {blocked}
        </p>
      )}
      <fieldset className="stack" disabled={blocked !== null} style={{ border: 0, padding: 0, margin: 0 }}>
        <label>
          S3 location
          <input
            name="location"
            value={location}
            onChange={(e) => setLocation(e.target.value)}
            aria-describedby={helpId}
            placeholder="s3://bucket/prefix"
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
          />
        </label>
        <p id={helpId} className="muted" style={{ margin: 0 }}>
          A prefix in one of the API&apos;s configured buckets (<code>LAB_S3_BUCKETS</code>). The probe writes only
          under a new sub-prefix of it and removes that afterwards.
        </p>
        <div className="row">
          <label>
            Rounds
            <input
              name="rounds"
              inputMode="numeric"
              value={rounds}
              onChange={(e) => setRounds(e.target.value)}
              size={5}
            />
          </label>
          <label>
            Writers per round
            <input
              name="writers"
              inputMode="numeric"
              value={writers}
              onChange={(e) => setWriters(e.target.value)}
              size={4}
            />
          </label>
          <SubmitButton
            why={blocked === null && location.trim() === '' ? 'name an s3:// location first' : null}
            busy={probe.isPending}
          >
            Probe the store
          </SubmitButton>
          <span role="status" className="muted">
            {probe.isPending ? 'Probing… (about 25 s at 200 rounds on a local store)' : ''}
          </span>
        </div>
      </fieldset>
      {refused.length > 0 && <Failed error={{ message: 'Not accepted', problems: refused }} />}
      {probe.isError && <Failed error={probe.error} />}
    </form>
  );
}
