'use client';
import { plural } from '@racelab/contracts';
/**
 * Auditing jobs: a manifest in; findings grouped by job (job-findings.tsx); and, per table, the
 * forecast for every ordered pair of jobs as a grid (pair-grid.tsx).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../lib/gql';
import { AUDIT_JOBS, JOB_AUDITS_KEY, type JobAuditResult } from '../../lib/jobs';
import { Failed } from '../states';
import { SubmitButton } from '../submit-button';
import { JobFindings } from './job-findings';
import { PairGrid } from './pair-grid';

/** One audit's result: the verdict, what was not checked, the findings by job and a pair grid per table. */
export function JobAuditView({ audit }: { audit: JobAuditResult }) {
  return (
    <div data-testid="jobs-audit" data-failed={String(audit.failed)}>
      <p>
        <span className={`badge ${audit.failed ? 'bad' : 'ok'}`}>{audit.failed ? 'errors found' : 'no error'}</span>{' '}
        {plural(audit.findings.length, 'finding')} for {plural(audit.jobs.length, 'job')}
      </p>
      {audit.skipped.map((s) => (
        <p key={s.check} className="muted" data-testid="audit-skipped">
          <span className="badge warn">not checked</span> {s.note}
        </p>
      ))}
      <h3>Findings by job</h3>
      <JobFindings audit={audit} />
      <h3>Forecast for every pair of jobs</h3>
      {[...new Set(audit.jobs.map((j) => j.table))].map((t) => (
        <PairGrid key={t} audit={audit} table={t} />
      ))}
    </div>
  );
}

export function JobsAudit() {
  const [manifest, setManifest] = useState('');
  const queryClient = useQueryClient();
  const audit = useMutation({
    mutationFn: () => gql(AUDIT_JOBS, { manifest }),
    // The past audits list the new one at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [JOB_AUDITS_KEY] }),
  });
  const result = audit.data?.auditJobs;
  return (
    <>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          audit.mutate();
        }}
      >
        <label>
          Jobs manifest (YAML or JSON)
          <textarea
            rows={12}
            value={manifest}
            onChange={(e) => setManifest(e.target.value)}
            placeholder={
              'jobs:\n  - name: nightly-tips\n    table: lab:flat@1\n    engine: delta-rs 1.6.6\n    operation: update\n    predicate: VendorID = 1'
            }
          />
        </label>
        <p className="muted">
          The shape is docs/jobs-manifest.example.yaml&apos;s: name, table, engine, operation, and optionally predicate,
          tableProperties, commitProperties, onCommitFailed, checksTableBeforeAppend, schedule.
        </p>
        <div>
          <SubmitButton why={manifest.trim() === '' ? 'paste or load a manifest first' : null} busy={audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Audit jobs'}
          </SubmitButton>
        </div>
      </form>
      {audit.error && <Failed error={audit.error} />}
      {result && <JobAuditView audit={result} />}
    </>
  );
}
