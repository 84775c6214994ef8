/**
 * GraphQL from the browser, through the dashboard's own /api/graphql (which sends the person's session on). The
 * documents are written with `graphql()`, which types their results and variables from the API's
 * printed schema (`lib/graphql/graphql-env.d.ts`): a document naming a field the API does not have
 * fails the type check.
 */
import { initGraphQLTada, type TadaDocumentNode } from 'gql.tada';
import { type DocumentNode, print } from 'graphql';
import type { introspection } from './graphql/graphql-env';
import { SIGN_IN_PATH } from './sign-in-path';

/**
 * Fragments are not masked: they share a selection between documents (one engine's reading, in the
 * matrix and in the audits), and the components read their fields directly.
 */
export const graphql = initGraphQLTada<{ introspection: introspection; disableMasking: true }>();
export type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';

export class GqlError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

interface GqlResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { problems?: string[] } }[];
}

/** A document's variables as the caller's arguments: optional when the document needs none. */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

/**
 * Off to the sign-in page, to come back here: the session has ended (expired, signed out elsewhere, or its
 * token revoked). Not from the sign-in page itself, which asks nothing of the API but who is signed in.
 */
function toSignIn(): void {
  const { pathname, search } = window.location;
  if (pathname === SIGN_IN_PATH) return;
  window.location.assign(`${SIGN_IN_PATH}?${new URLSearchParams({ next: `${pathname}${search}` })}`);
}

/** The document's text as it goes over the wire. */
const text = <R, V>(doc: TadaDocumentNode<R, V>) => print(doc as DocumentNode);

export async function gql<R, V>(doc: TadaDocumentNode<R, V>, ...[variables]: VariablesArg<V>): Promise<R> {
  const res = await fetch('/api/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text(doc), variables: variables ?? {} }),
  });
  if (res.status === 401) toSignIn();
  const body = (await res.json().catch(() => ({ errors: [{ message: `HTTP ${res.status}` }] }))) as GqlResponse<R>;
  const first = body.errors?.[0];
  if (first) throw new GqlError(first.message, first.extensions?.problems ?? []);
  if (!body.data) throw new GqlError(`no data (HTTP ${res.status})`);
  return body.data;
}

/**
 * Follows a subscription over server-sent events; returns a function that stops it. Yoga sends
 * named events (`next`, `complete`), so listeners are added by name.
 */
export function subscribe<R, V>(
  doc: TadaDocumentNode<R, V>,
  variables: V,
  onData: (data: R) => void,
  onEnd: (error?: string) => void,
): () => void {
  const params = new URLSearchParams({ query: text(doc), variables: JSON.stringify(variables) });
  const source = new EventSource(`/api/graphql?${params}`);
  let ended = false;
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    source.close();
    onEnd(error);
  };
  source.addEventListener('next', (e) => {
    const payload = JSON.parse((e as MessageEvent<string>).data) as GqlResponse<R>;
    if (payload.errors?.[0]) end(payload.errors[0].message);
    else if (payload.data) onData(payload.data);
  });
  source.addEventListener('complete', () => end());
  source.onerror = () => end('the progress stream was interrupted');
  return () => end();
}
