'use client';
import { AuditForm } from '../../components/audit/audit-form';
import { AuditHistory } from '../../components/audit/audit-history';
import { CodeAudit, CodeAuditHistory } from '../../components/audit/code-audit';
import { JobAuditHistory } from '../../components/audit/job-audit-history';
import { JobsAudit } from '../../components/audit/jobs-audit';

export default function AuditPage() {
  return (
    <>
      <h1>Audit</h1>
      <p className="lead">
        Checks the <code>delta.isolationLevel</code> property of tables that already exist. For each table you list, it
        reads the value from the table&apos;s log and shows whether any engine (delta-rs, Delta Spark, Databricks) would
        ignore it, reject it or read it differently than its author most likely meant. Every audit is kept, so the list
        below is also a history of what was checked and when.
      </p>
      <section className="panel" aria-labelledby="audit-form-heading">
        <h2 id="audit-form-heading">Check tables</h2>
        <AuditForm />
      </section>
      <section className="panel" aria-labelledby="jobs-audit-heading">
        <h2 id="jobs-audit-heading">Check jobs</h2>
        <p className="muted">
          Describe the jobs that write your tables; the audit reports each of the lesson&apos;s mistakes it finds, with
          the evidence and the fix, and forecasts every pair of jobs on a table from the table&apos;s own data.
        </p>
        <JobsAudit />
      </section>
      <section className="panel" aria-labelledby="job-audit-history-heading">
        <h2 id="job-audit-history-heading">Past job audits</h2>
        <JobAuditHistory />
      </section>
      <section className="panel" aria-labelledby="code-audit-heading">
        <h2 id="code-audit-heading">Code</h2>
        <p className="muted">
          Reads the settings that decide how concurrent commits behave from your team&apos;s own code (SQL, Python,
          Scala, Java, notebooks, shell scripts, job specs and dbt configs), each at its file and line, and judges them
          per writer library. Name a folder under LAB_ROOTS, or upload an archive of the code.
        </p>
        <CodeAudit />
      </section>
      <section className="panel" aria-labelledby="code-audit-history-heading">
        <h2 id="code-audit-history-heading">Past code audits</h2>
        <CodeAuditHistory />
      </section>
      <section className="panel" aria-labelledby="audit-history-heading">
        <h2 id="audit-history-heading">Results and history</h2>
        <AuditHistory />
      </section>
    </>
  );
}
