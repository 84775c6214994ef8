'use client';
/**
 * Auditing jobs: a manifest in; findings grouped by job, each with its evidence and fix; and, per
 * table, the forecast for every ordered pair of jobs as a grid. A pair on a lab table can be raced
 * with one click, to see the forecast measured.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../lib/gql';
import { AUDIT_JOBS, type JobAuditResult, type JobPair, raceInput } from '../../lib/jobs';
import { useStartRace } from '../races/use-start-race';
import { Failed } from '../states';

/** The API's severities (a string there, so that it may add one: shown as a warning). */
const BADGE: Record<string, string> = { error: 'bad', warning: 'warn', info: 'ok' };

function Findings({ audit }: { audit: JobAuditResult }) {
  return (
    <>
      {audit.jobs.map((job) => {
        const mine = audit.findings.filter((f) => f.jobs.includes(job.name));
        return (
          <section key={job.name} data-testid="job-findings" data-job={job.name} className="panel">
            <h4>
              {job.name}{' '}
              <span className="muted">
                ({job.operation} on {job.table}, {job.engine})
              </span>
            </h4>
            {mine.length === 0 ? (
              <p className="muted">No finding.</p>
            ) : (
              <ul>
                {mine.map((f) => (
                  <li key={`${f.rule}-${f.jobs.join()}`} data-rule={f.rule}>
                    <span className={`badge ${BADGE[f.severity] ?? 'warn'}`}>{f.severity}</span>{' '}
                    <strong>{f.rule}</strong>: {f.evidence}
                    <div className="muted">Fix: {f.fix}</div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </>
  );
}

function PairGrid({ audit, table }: { audit: JobAuditResult; table: string }) {
  const race = useStartRace();
  const names = audit.jobs.filter((j) => j.table === table).map((j) => j.name);
  const cell = (first: string, second: string): JobPair | undefined =>
    audit.pairs.find((p) => p.table === table && p.first === first && p.second === second);
  return (
    <>
      <table className="data" data-testid="pair-matrix" data-table={table}>
        <caption>
          {table}: row = FIRST (commits first), column = SECOND (both read the same version). Forecast by the engine's
          conflict simulation from the table&apos;s data.
        </caption>
        <thead>
          <tr>
            <th>FIRST \ SECOND</th>
            {names.map((n) => (
              <th key={n}>{n}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {names.map((first) => (
            <tr key={first}>
              <th>{first}</th>
              {names.map((second) => {
                const p = cell(first, second);
                if (!p)
                  return (
                    <td key={second} className="muted">
                      –
                    </td>
                  );
                const input = raceInput(p, audit.jobs);
                return (
                  <td
                    key={second}
                    data-first={first}
                    data-second={second}
                    data-commits={p.secondCommits === null ? 'unknown' : String(p.secondCommits)}
                    title={p.message ?? p.skipped ?? 'SECOND commits'}
                  >
                    {p.secondCommits === null ? (
                      <span className="muted">{p.skipped}</span>
                    ) : p.secondCommits ? (
                      <span className="badge ok">commits</span>
                    ) : (
                      <span className="badge bad">fails: {p.failedCheck}</span>
                    )}
                    {input && (
                      <div>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => race.mutate(input)}
                          disabled={race.isPending}
                        >
                          Race {first} then {second}
                        </button>
                      </div>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {race.error && <Failed error={race.error} />}
    </>
  );
}

export function JobsAudit() {
  const [manifest, setManifest] = useState('');
  const audit = useMutation({
    mutationFn: () => gql(AUDIT_JOBS, { manifest }),
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
          <button type="submit" disabled={manifest.trim() === '' || audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Audit jobs'}
          </button>
        </div>
      </form>
      {audit.error && <Failed error={audit.error} />}
      {result && (
        <div data-testid="jobs-audit" data-failed={String(result.failed)}>
          <p>
            <span className={`badge ${result.failed ? 'bad' : 'ok'}`}>
              {result.failed ? 'errors found' : 'no error'}
            </span>{' '}
            {result.findings.length} findings for {result.jobs.length} jobs
          </p>
          {result.skipped.map((s) => (
            <p key={s.check} className="muted" data-testid="audit-skipped">
              <span className="badge warn">not checked</span> {s.note}
            </p>
          ))}
          <h3>Findings by job</h3>
          <Findings audit={result} />
          <h3>Forecast for every pair of jobs</h3>
          {[...new Set(result.jobs.map((j) => j.table))].map((t) => (
            <PairGrid key={t} audit={result} table={t} />
          ))}
        </div>
      )}
    </>
  );
}
