/** GraphQL from the browser, through the dashboard's own /api/graphql (which adds the token). */

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

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch('/api/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json().catch(() => ({ errors: [{ message: `HTTP ${res.status}` }] }))) as GqlResponse<T>;
  const first = body.errors?.[0];
  if (first) throw new GqlError(first.message, first.extensions?.problems ?? []);
  if (!body.data) throw new GqlError(`no data (HTTP ${res.status})`);
  return body.data;
}

/**
 * Follows a subscription over server-sent events; returns a function that stops it. Yoga sends
 * named events (`next`, `complete`), so listeners are added by name.
 */
export function subscribe<T>(
  query: string,
  variables: Record<string, unknown>,
  onData: (data: T) => void,
  onEnd: (error?: string) => void,
): () => void {
  const params = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  const source = new EventSource(`/api/graphql?${params}`);
  let ended = false;
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    source.close();
    onEnd(error);
  };
  source.addEventListener('next', (e) => {
    const payload = JSON.parse((e as MessageEvent<string>).data) as GqlResponse<T>;
    if (payload.errors?.[0]) end(payload.errors[0].message);
    else if (payload.data) onData(payload.data);
  });
  source.addEventListener('complete', () => end());
  source.onerror = () => end('the progress stream was interrupted');
  return () => end();
}
