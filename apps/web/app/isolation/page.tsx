'use client';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ComparisonTable } from '../../components/isolation/comparison';
import { IsolationMatrix } from '../../components/isolation/matrix';
import { SpellingAdvice } from '../../components/isolation/spelling-advice';
import { TopFlag } from '../../components/isolation/top-flag';
import { TryValue } from '../../components/isolation/try-value';
import { Failed, Loading } from '../../components/states';
import { gql } from '../../lib/gql';
import { fetchInterpretations, MATRIX_QUERY, rankFlags, valuesToCompare } from '../../lib/isolation';

export default function IsolationPage() {
  const matrix = useQuery({
    queryKey: ['isolationMatrix'],
    queryFn: async () => (await gql(MATRIX_QUERY)).isolationMatrix,
  });
  // The standard spellings plus whatever the stored races used; asked once the matrix has answered
  // (or failed: the standard spellings are worth showing regardless).
  const values = useMemo(() => valuesToCompare(matrix.data), [matrix.data]);
  const readings = useQuery({
    queryKey: ['isolationInterpretations', values],
    queryFn: () => fetchInterpretations(values),
    enabled: !matrix.isPending,
  });
  const flags = useMemo(() => (readings.data ? rankFlags(values, readings.data) : []), [values, readings.data]);
  const flaggedValues = useMemo(() => new Set(flags.map((f) => f.value)), [flags]);

  return (
    <>
      <h1>Isolation settings</h1>
      <p className="lead">
        The table property <code>delta.isolationLevel</code> decides which of two concurrent writes to a Delta table may
        both commit. Every engine reads its value in its own way, and a spelling one engine understands another may
        silently ignore and replace with its default. Before a job goes to production, check the value it sets: what the
        lab&apos;s races measured, what each engine makes of each spelling, and how they read yours.
      </p>
      <TopFlag flags={flags} />
      <section className="panel" aria-labelledby="spelling-heading">
        <h2 id="spelling-heading">The spelling to write</h2>
        <SpellingAdvice />
      </section>
      <div>
        <section className="panel" aria-labelledby="try-heading">
          <h2 id="try-heading">Try a value</h2>
          <TryValue />
        </section>
        <section className="panel" aria-labelledby="matrix-heading">
          <h2 id="matrix-heading">What the races measured</h2>
          {matrix.data ? (
            <IsolationMatrix cells={matrix.data} flaggedValues={flaggedValues} />
          ) : matrix.isError ? (
            <Failed error={matrix.error} />
          ) : (
            <Loading what="the measurements" />
          )}
        </section>
      </div>
      <section className="panel" aria-labelledby="comparison-heading">
        <h2 id="comparison-heading">How each engine reads each spelling</h2>
        {readings.data ? (
          <ComparisonTable values={values} byValue={readings.data} flags={flags} />
        ) : readings.isError ? (
          <Failed error={readings.error} />
        ) : (
          <Loading what="each engine's reading" />
        )}
      </section>
    </>
  );
}
