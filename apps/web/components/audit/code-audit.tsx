'use client';
import { agree, plural } from '@racelab/contracts';
/**
 * Auditing code: a folder under LAB_ROOTS by its path, or an archive (.zip, .tar.gz) uploaded through
 * /api/uploads/code; the findings grouped by file, each at `file:line` with its rule, severity, evidence, fix and
 * the code line with the value marked; what was scanned, skipped and could not be parsed; and the past audits.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  AUDIT_CODE,
  CODE_AUDIT_QUERY,
  CODE_AUDITS_KEY,
  CODE_AUDITS_QUERY,
  type CodeAuditResult,
  type CodeAuditSummary,
  type CodeFinding,
  type CodePlace,
  findingsByFile,
  splitAtValue,
  uploadArchive,
} from '../../lib/code-audit';
import { gql } from '../../lib/gql';
import { Failed, listed } from '../states';
import { SubmitButton } from '../submit-button';
import { PastAudits } from './past-audits';

const BADGE: Record<string, string> = { error: 'bad', warning: 'warn', note: 'ok' };

function CodeLine({ place }: { place: CodePlace }) {
  if (place.snippet === null) return null;
  const { before, value, after } = splitAtValue(place.snippet, place.column, place.endColumn);
  return (
    <pre className="code-line" data-testid="code-line">
      {before}
      <mark>{value}</mark>
      {after}
    </pre>
  );
}

function FindingItem({ finding: f }: { finding: CodeFinding }) {
  return (
    <li data-testid="code-finding" data-rule={f.rule} data-at={`${f.at.file}:${f.at.line}`}>
      <code>
        {f.at.file}:{f.at.line}
      </code>{' '}
      <span className={`badge ${BADGE[f.severity] ?? 'warn'}`}>{f.severity}</span> <strong>{f.rule}</strong>:{' '}
      {f.evidence}
      <CodeLine place={f.at} />
      {f.related.map((p) => (
        <div key={`${p.file}:${p.line}:${p.column}`}>
          <span className="muted">
            and <code>{`${p.file}:${p.line}`}</code>
            {p.message ? `: ${p.message}` : ''}
          </span>
          <CodeLine place={p} />
        </div>
      ))}
      <div className="muted">Fix: {f.fix}</div>
    </li>
  );
}

/** One audit: the verdict, the files read, the findings by file, and what was skipped or not parsed. */
export function CodeAuditView({ audit }: { audit: CodeAuditResult }) {
  const { files } = audit;
  return (
    <div data-testid="code-audit" data-failed={String(audit.failed)}>
      <p>
        <span className={`badge ${audit.failed ? 'bad' : 'ok'}`}>{audit.failed ? 'errors found' : 'no error'}</span>{' '}
        <code>{audit.source}</code>: {plural(audit.findings.length, 'finding')},{' '}
        {plural(audit.settings.length, 'setting')} in <span data-testid="code-scanned">{files.scanned}</span>{' '}
        {agree(files.scanned, 'file', 'files')} read; <span data-testid="code-skipped">{files.skipped.length}</span>{' '}
        skipped, <span data-testid="code-unparseable">{files.unparseable.length}</span> not parseable
      </p>
      {findingsByFile(audit.findings).map(([file, findings]) => (
        <section key={file} className="panel" data-testid="code-file" data-file={file}>
          <h4>
            <code>{file}</code>
          </h4>
          <ul>
            {findings.map((f) => (
              <FindingItem key={`${f.rule}:${f.at.line}:${f.at.column}:${f.evidence}`} finding={f} />
            ))}
          </ul>
        </section>
      ))}
      {files.skipped.length > 0 && (
        <details>
          <summary>Skipped ({files.skipped.length})</summary>
          <ul>
            {files.skipped.map((s) => (
              <li key={s.file} data-testid="code-skipped-file">
                <code>{s.file}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {files.unparseable.length > 0 && (
        <details>
          <summary>Not parseable ({files.unparseable.length})</summary>
          <ul>
            {files.unparseable.map((p) => (
              <li key={`${p.file}:${p.line}:${p.column}`}>
                <code>
                  {p.file}:{p.line}
                </code>
                : {p.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function CodeAudit() {
  const [path, setPath] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const queryClient = useQueryClient();
  const audit = useMutation({
    mutationFn: async (source: { path: string } | { file: File }) =>
      'path' in source
        ? gql(AUDIT_CODE, { path: source.path })
        : gql(AUDIT_CODE, { upload: await uploadArchive(source.file) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [CODE_AUDITS_KEY] }),
  });
  const result = audit.data?.auditCode;
  return (
    <>
      <form
        className="stack"
        aria-label="Audit a folder"
        onSubmit={(e) => {
          e.preventDefault();
          audit.mutate({ path: path.trim() });
        }}
      >
        <label>
          A folder under LAB_ROOTS
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="team/jobs" name="code-path" />
        </label>
        <div>
          <SubmitButton why={path.trim() === '' ? 'name a folder first' : null} busy={audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Audit folder'}
          </SubmitButton>
        </div>
      </form>
      <form
        className="stack"
        aria-label="Audit an archive"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) audit.mutate({ file });
        }}
      >
        <label>
          Or an archive of the code (.zip or .tar.gz, at most 50 MB)
          <input
            type="file"
            name="code-archive"
            accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <div>
          <SubmitButton why={file === null ? 'choose an archive first' : null} busy={audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Upload and audit'}
          </SubmitButton>
        </div>
      </form>
      {audit.error && <Failed error={audit.error} />}
      {result && <CodeAuditView audit={result} />}
    </>
  );
}

/** The API's most per request. */
const SHOWN = 50;

export function CodeAuditHistory() {
  const audits = useQuery({
    queryKey: [CODE_AUDITS_KEY, SHOWN],
    queryFn: async () => (await gql(CODE_AUDITS_QUERY, { first: SHOWN })).codeAudits,
  });
  const list = listed(audits, 'code audits', ['No code audits yet', 'Audit a folder or an archive above.']);
  if ('state' in list) return list.state;
  return (
    <PastAudits
      kind="code"
      subject="Code"
      items={list.items}
      subjectOf={(a: CodeAuditSummary) => <code>{a.source}</code>}
      load={loadCodeAudit}
      view={(a) => <CodeAuditView audit={a} />}
    />
  );
}

const loadCodeAudit = async (id: string) => (await gql(CODE_AUDIT_QUERY, { id })).codeAudit;
