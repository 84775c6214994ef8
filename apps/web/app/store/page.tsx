'use client';
import { useState } from 'react';
import { ProbeForm } from '../../components/store/probe-form';
import { ProbeHistory } from '../../components/store/probe-history';
import { ProbeReport } from '../../components/store/probe-report';
import type { StoreProbeView } from '../../lib/store-probe';

export default function StorePage() {
  const [shown, setShown] = useState<StoreProbeView | null>(null);
  return (
    <>
      <h1>Object store</h1>
      <p className="lead">
        A Delta commit is only as safe as the store&apos;s put-if-absent. The probe checks what concurrent writers rely
        on: a conditional PUT on an existing key is refused, concurrent conditional PUTs to one new key have exactly one
        winner, a refused PUT leaves the winner&apos;s bytes, and a new key is listed and readable at once. A store that
        fails one is unsafe, and the report says what that does to a table.
      </p>
      <section className="panel" aria-labelledby="probe-form-heading">
        <h2 id="probe-form-heading">Probe a store</h2>
        <ProbeForm onProbed={setShown} />
      </section>
      {shown && (
        <section className="panel" aria-labelledby="probe-report-heading">
          <h2 id="probe-report-heading">Report</h2>
          <ProbeReport probe={shown} />
        </section>
      )}
      <section className="panel" aria-labelledby="probe-history-heading">
        <h2 id="probe-history-heading">Past probes</h2>
        <ProbeHistory open={shown?.id ?? null} onOpen={setShown} />
      </section>
    </>
  );
}
