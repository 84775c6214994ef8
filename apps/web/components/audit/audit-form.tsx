'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { gql, type ResultOf } from '../../lib/gql';
import { AUDIT_TABLES_MUTATION } from '../../lib/isolation';
import { Failed } from '../states';
import { SubmitButton } from '../submit-button';

/** The locations in the box: one per line, blank lines and surrounding spaces dropped, each once. */
export function parseLocations(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((l) => l.trim()))].filter((l) => l !== '');
}

/**
 * Audits the listed tables' `delta.isolationLevel`. A success refreshes the stored audits below
 * (the mutation stays pending until they have reloaded, so the new rows are there when the button
 * comes back); a failure shows the API's message and problems and changes nothing else.
 */
export function AuditForm() {
  const helpId = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const locations = parseLocations(text);
  const audit = useMutation({
    mutationFn: async (locs: string[]) => (await gql(AUDIT_TABLES_MUTATION, { locations: locs })).auditTables,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['audits'] }),
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (locations.length === 0 || audit.isPending) return;
    audit.mutate(locations);
  };

  return (
    <form className="stack" onSubmit={submit}>
      <label>
        Table locations, one per line
        <textarea
          name="locations"
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={helpId}
          placeholder={'lab:flat@1\nlab:partitioned@0.02'}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
        />
      </label>
      <p id={helpId} className="muted" style={{ margin: 0 }}>
        A path under one of the configured roots (a relative path starts from the first), <code>s3://bucket/path</code>{' '}
        for a configured bucket, or one of the lab&apos;s tables by alias, such as <code>lab:flat@1</code> or{' '}
        <code>lab:partitioned@0.02</code> (the number is the scale). Up to 50 at a time.
      </p>
      <div className="row">
        <SubmitButton why={locations.length === 0 ? 'name a table first' : null} busy={audit.isPending}>
          Audit tables
        </SubmitButton>
        <AuditStatus
          pending={audit.isPending}
          count={audit.variables?.length ?? 0}
          done={audit.isSuccess ? audit.data : null}
        />
      </div>
      {audit.isError && <Failed error={audit.error} />}
    </form>
  );
}

function AuditStatus({
  pending,
  count,
  done,
}: {
  pending: boolean;
  count: number;
  done: ResultOf<typeof AUDIT_TABLES_MUTATION>['auditTables'] | null;
}) {
  const plural = (n: number) => (n === 1 ? 'table' : 'tables');
  let text = '';
  if (pending) text = `Auditing ${count} ${plural(count)}…`;
  else if (done) {
    const flagged = done.filter((t) => t.flagged).length;
    text = `Audited ${done.length} ${plural(done.length)}: ${flagged === 0 ? 'none' : flagged} flagged.`;
  }
  return (
    <span role="status" className="muted">
      {text}
    </span>
  );
}
