/**
 * GraphiQL from the product itself. Yoga's default page loads its scripts from a CDN, so it was blank
 * on a machine without the internet; @graphql-yoga/render-graphiql carries them (about 9 MB, inlined
 * in one page), loaded only when GraphiQL is on. When it is off, a browser gets a note saying so.
 */
import type { GraphiQLOptions } from 'graphql-yoga';

let page: Promise<string> | null = null;

/** The page for yoga's `renderGraphiQL`: rendered once, as its options never change. */
export function offlineGraphiQL(options?: GraphiQLOptions): Promise<string> {
  page ??= import('@graphql-yoga/render-graphiql').then((m) => m.renderGraphiQL(options));
  return page;
}

export const GRAPHIQL_OFF = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>racelab API</title></head>
<body><h1>racelab API</h1>
<p>GraphiQL is off: it is not served in production unless <code>API_GRAPHIQL=1</code> is set.</p>
<p>Send GraphQL as a POST of <code>application/json</code> to this URL.</p>
</body></html>`;
