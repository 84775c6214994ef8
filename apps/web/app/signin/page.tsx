'use client';
/**
 * The sign-in page, the one page served without a session: open the link `npm start` printed, or give an
 * API token here. On success it goes back to the page that sent the person here (a path on this dashboard only).
 */
import { useSearchParams } from 'next/navigation';
import { type FormEvent, Suspense, useState } from 'react';
import { SubmitButton } from '../../components/submit-button';

/** `next` when it is a path on this dashboard, else the races: never another site (`//evil.example`, `/\evil`). */
function safeNext(next: string | null): string {
  return next !== null && /^\/(?![/\\])/.test(next) ? next : '/races';
}

function SignInForm() {
  const params = useSearchParams();
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    const res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    }).catch(() => null);
    if (res?.ok) return window.location.assign(safeNext(params.get('next')));
    const body = (await res?.json().catch(() => null)) as { errors?: { message: string }[] } | null;
    setFailure(body?.errors?.[0]?.message ?? 'the dashboard did not answer');
    setBusy(false);
  }

  return (
    <>
      {params.get('refused') === 'link' && (
        <div className="state failed" role="alert">
          That sign-in link is not the current one: <code>npm start</code> makes a new one each time it starts. Open the
          one it printed last.
        </div>
      )}
      <form className="panel" onSubmit={submit} aria-labelledby="token-heading">
        <h2 id="token-heading">Sign in with an API token</h2>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder="rl_…"
        />
        <SubmitButton why={token.trim() === '' ? 'paste a token first' : null} busy={busy}>
          Sign in
        </SubmitButton>
        {failure && (
          <p className="state failed" role="alert" data-testid="sign-in-failure">
            {failure}
          </p>
        )}
      </form>
    </>
  );
}

export default function SignInPage() {
  return (
    <>
      <h1>Sign in</h1>
      <p className="lead">
        Open the sign-in link <code>npm start</code> printed when it started (it keeps the link in{' '}
        <code>var/dashboard-login</code>, readable by you alone), or sign in with an API token (
        <code>npm run token -- create</code> makes one). A session lasts a day, or until you sign out.
      </p>
      <Suspense>
        <SignInForm />
      </Suspense>
    </>
  );
}
