/**
 * Server-side checks on who is asking, for the dashboard's /api/graphql (which adds the API token to
 * what it forwards) and, through proxy.ts, for its pages. A request must name one of the dashboard's
 * own hosts, so a page on a foreign name that DNS rebinding points at 127.0.0.1 reaches nothing;
 * and a request to the API proxy must come from the dashboard's own pages (Origin, Sec-Fetch-Site),
 * so another site cannot make a visitor's browser run mutations with the token.
 */

/**
 * The `Host` values the dashboard answers to: loopback under the port the dashboard listens on
 * (server.mjs puts it in PORT), plus the comma-separated WEB_ALLOWED_HOSTS
 * (`host` or `host:port`, as the browser sends it: e.g. `dash.example.com` behind a reverse proxy).
 */
function allowedHosts(): Set<string> {
  const port = process.env.PORT ?? '3000';
  const extra = (process.env.WEB_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...extra]);
}

/** The `{errors: [{message}]}` answer every refusal gives, never cached. */
export function refusal(status: number, message: string): Response {
  return Response.json({ errors: [{ message }] }, { status, headers: { 'cache-control': 'no-store' } });
}

/** A 403 when the request's Host is not one of the dashboard's names, else null. */
export function hostRefusal(request: Request): Response | null {
  const host = request.headers.get('host')?.toLowerCase() ?? '';
  if (allowedHosts().has(host)) return null;
  return refusal(403, `host '${host}' is not one of this dashboard's names; add it to WEB_ALLOWED_HOSTS to serve it`);
}

function isOwnOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false; // `null` from sandboxed frames, file: pages and some redirects
  const url = new URL(origin);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && allowedHosts().has(url.host)
  );
}

/**
 * A 403 when a browser says the request comes from another origin, else null. Both headers are
 * checked when present: Origin names the page's origin, and Sec-Fetch-Site also catches another
 * port on loopback (same-site, not same-origin) if Origin were stripped. A request with neither
 * is let through: every browser sends Origin on a POST from another origin, and a client that is
 * not a browser (curl, a script) could send any header it likes, so refusing it would stop nobody.
 */
export function crossOriginRefusal(request: Request): Response | null {
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  const why =
    site !== null && site !== 'same-origin' && site !== 'none'
      ? `Sec-Fetch-Site is ${site}`
      : origin !== null && !isOwnOrigin(origin)
        ? `Origin ${origin} is not this dashboard`
        : null;
  if (why === null) return null;
  return refusal(403, `cross-origin request refused: ${why}; /api/graphql takes requests only from its own pages`);
}
