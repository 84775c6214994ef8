'use client';
import { useState } from 'react';
import { HistoryForm } from '../../components/history/history-form';
import { HistoryReport } from '../../components/history/history-report';
import type { HistoryView } from '../../lib/history';

export default function HistoryPage() {
  const [shown, setShown] = useState<HistoryView | null>(null);
  return (
    <>
      <h1>Table history</h1>
      <p className="lead">
        What really happened on a table, from its own log: which commits were made concurrently (recorded from their
        readVersion, inferred from their timing, or unknown), who made them, what every writer library would have done
        with them under each isolation level, and which keys the table now holds more than once.
      </p>
      <section className="panel" aria-labelledby="history-form-heading">
        <h2 id="history-form-heading">Read a table&apos;s history</h2>
        <HistoryForm onRead={setShown} />
      </section>
      {shown && (
        <section className="panel" aria-labelledby="history-report-heading">
          <h2 id="history-report-heading">History</h2>
          <HistoryReport history={shown} />
        </section>
      )}
    </>
  );
}
