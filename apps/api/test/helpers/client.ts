/** A GraphQL client over plain HTTP, and a reader of server-sent subscription events. */

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: { code?: string; problems?: string[] } }[];
}

export async function gql<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  /** An API token (sent as Bearer), or a dashboard session's secret (sent as Session, as the dashboard does). */
  token?: string | { session: string },
): Promise<GqlResult<T>> {
  const authorization = typeof token === 'object' ? `Session ${token.session}` : token && `Bearer ${token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as Omit<GqlResult<T>, 'status'>;
  return { status: res.status, ...body };
}

/** The `data` of every `next` event of a subscription, until the server completes it. */
export async function* subscribe<T>(url: string, query: string, variables: Record<string, unknown>): AsyncGenerator<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
  });
  if (!res.body) throw new Error(`no event stream (HTTP ${res.status})`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === 'complete') return;
      if (event === 'next' && data) {
        const parsed = JSON.parse(data) as { data?: T; errors?: { message: string }[] };
        if (parsed.errors) throw new Error(parsed.errors.map((e) => e.message).join('; '));
        yield parsed.data as T;
      }
    }
  }
}
