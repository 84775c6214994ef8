'use client';
/**
 * What the lab measured for the pair beside the prediction: only the runs in which FIRST went first
 * compare with it, so they are counted apart from those that ran the other way (lib/playground/measured.ts).
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { gql } from '../../lib/gql';
import type { TableKind } from '../../lib/playground/lab-tables';
import { MEASURED_QUERY, measuredSummary, measuredVariables, propertiesText } from '../../lib/playground/measured';
import type { RaceProperty } from '../../lib/races';
import { Empty, Failed, Loading } from '../states';

export function MeasuredOutcome({
  kind,
  firstKey,
  secondKey,
  tableProperties,
}: {
  kind: TableKind;
  firstKey: string;
  secondKey: string;
  tableProperties: readonly RaceProperty[];
}) {
  // The default staleness (seconds): coming back from a race started here, its runs are asked for again.
  const measured = useQuery({
    queryKey: ['playground', 'measured', kind, firstKey, secondKey, tableProperties],
    queryFn: () =>
      gql(MEASURED_QUERY, measuredVariables(kind, firstKey, secondKey, tableProperties)).then((d) => d.measuredOutcome),
  });
  let body: ReactNode;
  if (measured.isPending) body = <Loading what="the lab's runs of this pair" />;
  else if (measured.isError) body = <Failed error={measured.error} />;
  else {
    const m = measured.data;
    const summary = measuredSummary(m);
    body =
      summary === null ? (
        <Empty>The lab has not run this pair yet: race it to measure it.</Empty>
      ) : (
        <>
          <p data-testid="measured-summary">
            {summary}
            {m.inOrder.runs === 0 ? '.' : m.inOrder.messages.length > 0 ? '; the loser saw:' : '; no writer failed.'}
          </p>
          {m.inOrder.messages.map((message) => (
            <pre key={message} className="error-text">
              {message}
            </pre>
          ))}
          <p className="muted">
            Runs of races on the {kind} base table (any scale, {propertiesText(tableProperties)}) whose two writers make
            exactly these changes. Only the runs in which FIRST's commit landed first, or SECOND started after FIRST,
            compare with the prediction.
          </p>
        </>
      );
  }
  return (
    <div
      data-testid="measured"
      data-in-order-runs={measured.data?.inOrder.runs}
      data-in-order-second-committed={measured.data?.inOrder.secondCommitted}
    >
      {body}
    </div>
  );
}
