'use client';
/**
 * Auditing jobs: a manifest in; findings grouped by job (a finding about several jobs once, marked
 * shared), each with its evidence and fix; and, per table, the forecast for every ordered pair of
 * jobs as a grid, each cell SECOND's fate under every
 * engine (its own engine marked). A pair on a lab table can be raced with one click, to see the
 * delta-rs forecast measured.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { groupFindings } from '../../lib/finding-groups';
import { gql } from '../../lib/gql';
import { AUDIT_JOBS, JOB_AUDITS_KEY, type JobAuditResult, type JobPair, raceInput } from '../../lib/jobs';
import { EngineForecasts } from '../engine-forecasts';
import { useStartRace } from '../races/use-start-race';
import { Failed } from '../states';

/** The API's severities (a string there, so that it may add one: shown as a warning). */
const BADGE: Record<string, string> = { error: 'bad', warning: 'warn', info: 'ok' };

type AuditFinding = JobAuditResult['findings'][number];

/** One rule may find twice for the same jobs (an isolation value per value): its evidence tells them apart. */
const findingKey = (f: AuditFinding) => `${f.rule}\n${f.evidence}`;

function FindingItem({ finding: f }: { finding: AuditFinding }) {
  return (
    <li data-rule={f.rule}>
      <span className={`badge ${BADGE[f.severity] ?? 'warn'}`}>{f.severity}</span> <strong>{f.rule}</strong>:{' '}
      {f.evidence}
      <div className="muted">Fix: {f.fix}</div>
    </li>
  );
}

/**
 * Each job's own findings under it; a finding naming several jobs once, under those jobs together and
 * marked shared, with a pointer to it from each of them, so it is never repeated as every job's error.
 */
function Findings({ audit }: { audit: JobAuditResult }) {
  const anchor = useId();
  const names = audit.jobs.map((j) => j.name);
  const { own, shared } = groupFindings(audit.findings, names);
  const sharedId = (i: number) => `${anchor}-shared-${i}`;
  return (
    <>
      {audit.jobs.map((job) => {
        const mine = own.get(job.name) ?? [];
        const withOthers = shared.flatMap((g, i) => (g.jobs.includes(job.name) ? [{ g, id: sharedId(i) }] : []));
        return (
          <section key={job.name} data-testid="job-findings" data-job={job.name} className="panel">
            <h4>
              {job.name}{' '}
              <span className="muted">
                ({job.operation} on {job.table}, {job.engine})
              </span>
            </h4>
            {mine.length === 0 && withOthers.length === 0 && <p className="muted">No finding.</p>}
            {mine.length > 0 && (
              <ul>
                {mine.map((f) => (
                  <FindingItem key={findingKey(f)} finding={f} />
                ))}
              </ul>
            )}
            {withOthers.map(({ g, id }) => (
              <p key={id} className="muted">
                Shared with {g.jobs.filter((n) => n !== job.name).join(', ')}:{' '}
                {g.findings.map((f, k) => (
                  <span key={findingKey(f)}>
                    {k > 0 && ', '}
                    <a href={`#${id}`} data-shared-rule={f.rule}>
                      {f.rule}
                    </a>
                  </span>
                ))}
              </p>
            ))}
          </section>
        );
      })}
      {shared.length > 0 && <h3>Findings shared by several jobs</h3>}
      {shared.map((g, i) => (
        <section
          key={sharedId(i)}
          id={sharedId(i)}
          data-testid="shared-findings"
          data-jobs={g.jobs.join(',')}
          className="panel"
        >
          <h4>
            {g.jobs.length > 0 ? g.jobs.join(' + ') : g.findings[0]?.table}{' '}
            <span className="badge status-queued">shared</span>
          </h4>
          <ul>
            {g.findings.map((f) => (
              <FindingItem key={findingKey(f)} finding={f} />
            ))}
          </ul>
        </section>
      ))}
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
          {table}: row = FIRST (commits first, written by its own engine), column = SECOND (both read the same version),
          judged by each engine&apos;s checker under the table properties the two jobs declare. Forecast by the
          engine&apos;s conflict simulation from the table&apos;s data; a race runs delta-rs writers.
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
                    ) : (
                      <EngineForecasts entries={p.byEngine} own={p.secondEngine} />
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

/** One audit's result: the verdict, what was not checked, the findings by job and a pair grid per table. */
export function JobAuditView({ audit }: { audit: JobAuditResult }) {
  return (
    <div data-testid="jobs-audit" data-failed={String(audit.failed)}>
      <p>
        <span className={`badge ${audit.failed ? 'bad' : 'ok'}`}>{audit.failed ? 'errors found' : 'no error'}</span>{' '}
        {audit.findings.length} findings for {audit.jobs.length} jobs
      </p>
      {audit.skipped.map((s) => (
        <p key={s.check} className="muted" data-testid="audit-skipped">
          <span className="badge warn">not checked</span> {s.note}
        </p>
      ))}
      <h3>Findings by job</h3>
      <Findings audit={audit} />
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
          <button type="submit" disabled={manifest.trim() === '' || audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Audit jobs'}
          </button>
        </div>
      </form>
      {audit.error && <Failed error={audit.error} />}
      {result && <JobAuditView audit={result} />}
    </>
  );
}
