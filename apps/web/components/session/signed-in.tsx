'use client';
/**
 * Who is signed in, at the foot of the navigation, with the button that signs out. Nothing on the sign-in
 * page, where nobody is yet.
 */
import { useQuery } from '@tanstack/react-query';
import { usePathname } from 'next/navigation';
import { gql, graphql } from '../../lib/gql';
import { SIGN_IN_PATH } from '../../lib/sign-in-path';

const VIEWER = graphql(`
  query Viewer {
    viewer { kind label via description }
  }
`);

async function signOut() {
  await fetch('/api/session', { method: 'DELETE' }).catch(() => null);
  window.location.assign(SIGN_IN_PATH);
}

export function SignedIn() {
  const path = usePathname();
  const viewer = useQuery({
    queryKey: ['viewer'],
    queryFn: async () => (await gql(VIEWER)).viewer,
    enabled: path !== SIGN_IN_PATH,
  });
  if (path === SIGN_IN_PATH || !viewer.data) return null;
  const how = viewer.data.via === 'token' ? `with token '${viewer.data.label}'` : 'with the sign-in link';
  return (
    <div className="nav-session" data-testid="signed-in">
      <span>Signed in {how}</span>
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </div>
  );
}
