'use client';
/**
 * Scaling: many writers on one table. Start a sweep, pick stored ones, and read how success per
 * attempt, throughput and retries change with N under each retry policy, with the forecast's lines through the
 * measured points and the table checks of every point.
 */
import { useQueries } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { SweepForm } from '../../components/scaling/sweep-form';
import { SweepPicker } from '../../components/scaling/sweep-picker';
import { SweepPlots } from '../../components/scaling/sweep-plots';
import { SweepTable } from '../../components/scaling/sweep-table';
import { Failed, Loading } from '../../components/states';
import { gql } from '../../lib/gql';
import { type StoredSweep, SWEEP_QUERY } from '../../lib/sweeps';

export default function ScalingPage() {
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = useCallback(
    (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id])),
    [],
  );
  // A sweep started here is plotted as soon as it ends.
  const onEnded = useCallback((id: string) => setPicked((p) => (p.includes(id) ? p : [...p, id])), []);
  const queries = useQueries({
    queries: picked.map((id) => ({
      queryKey: ['sweep', id],
      queryFn: async () => (await gql(SWEEP_QUERY, { id })).sweep,
      staleTime: Number.POSITIVE_INFINITY, // a finished sweep never changes
    })),
  });
  const failed = queries.find((q) => q.isError);
  const sweeps = queries.flatMap((q) => (q.data?.results ? [q.data as StoredSweep] : []));
  return (
    <>
      <h1>Scaling</h1>
      <p className="lead">
        Many writers, one table. A sweep releases N writer processes at once for each N, each making K commits under one
        retry policy, and records how many attempts a commit took, how many failed and with what message, commits per
        second, and whether every acknowledged commit is in the table exactly once. The dashed lines are the
        forecast&apos;s, from N, the measured commit latency and the arrival rate.
      </p>
      <section className="panel" aria-labelledby="sweep-form-heading">
        <h2 id="sweep-form-heading">Start a sweep</h2>
        <SweepForm onEnded={onEnded} />
      </section>
      <section className="panel" aria-labelledby="sweeps-heading">
        <h2 id="sweeps-heading">Stored sweeps</h2>
        <SweepPicker picked={picked} onToggle={toggle} />
      </section>
      {picked.length > 0 && (
        <section className="panel" aria-labelledby="plots-heading">
          <h2 id="plots-heading">Plots</h2>
          {failed && <Failed error={failed.error} />}
          {queries.some((q) => q.isPending) && <Loading what="the sweeps" />}
          {sweeps.length > 0 && <SweepPlots sweeps={sweeps} />}
          <h2>Numbers</h2>
          {sweeps.map((s) => (
            <SweepTable key={s.id} sweep={s} />
          ))}
        </section>
      )}
    </>
  );
}
