/**
 * The dashboard's server (`node server.mjs -H 127.0.0.1 -p 3000`, in place of `next start`): Next's
 * request handler behind one check Next cannot make. A request that carries a body to anything but
 * /api/graphql, /api/session and /api/uploads/code is refused before Next sees it, and its connection closed:
 * Next copies the body of every request its proxy (proxy.ts) sees and waits for the end of it before answering,
 * so a 128 MiB chunked POST to a page would be read through before any refusal. The pages take no body (the
 * dashboard has no server actions); the three API routes bound their own (app/api/graphql/route.ts,
 * app/api/session/route.ts, app/api/uploads/code/route.ts).
 *
 * Plain JavaScript, as Node runs it without a build step.
 */
import { createServer, STATUS_CODES } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    hostname: { type: 'string', short: 'H', default: '127.0.0.1' },
    port: { type: 'string', short: 'p', default: '3000' },
  },
});
const hostname = values.hostname ?? '127.0.0.1';
const port = Number(values.port);
const started = performance.now();
// As `next start` does: production unless told otherwise, and PORT for the Host checks of lib/request-guard.ts.
process.env.NODE_ENV ??= 'production';
process.env.PORT = String(port);

/** The paths that take a body: the API's proxy, the sign-in with a token, and archives of code to audit. */
const BODY_PATHS = new Set(['/api/graphql', '/api/session', '/api/uploads/code']);

/** Whether the request carries a body: chunked, or a Content-Length above 0. */
function carriesBody(/** @type {import('node:http').IncomingMessage} */ req) {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

const { default: next } = await import('next');
const app = next({ dir: import.meta.dirname, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

/** What a refused client may still send before its connection is reset: more than loopback's socket buffers hold. */
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Answers `status` with `Connection: close` and closes the sending side at once, written on the socket
 * itself: Node's own close after a response resets the connection while the client is still sending,
 * which loses the answer. What arrives after it is discarded up to LINGER_BYTES, then the connection is reset.
 */
function refuse(/** @type {import('node:http').IncomingMessage} */ req, /** @type {number} */ status) {
  const body = JSON.stringify({
    errors: [{ message: "the dashboard's pages take no request body; /api/graphql does" }],
  });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    ...(status === 405 ? ['allow: GET, HEAD'] : []),
    'connection: close',
  ];
  req.socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  let discarded = 0;
  req.on('data', (/** @type {Buffer} */ chunk) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) req.socket.destroy();
  });
}

createServer((req, res) => {
  if (carriesBody(req) && !BODY_PATHS.has(new URL(req.url ?? '/', 'http://dashboard').pathname))
    return refuse(req, req.method === 'GET' || req.method === 'HEAD' ? 413 : 405);
  void handle(req, res);
}).listen(port, hostname, () => {
  console.log(`✓ Ready in ${Math.round(performance.now() - started)}ms on http://${hostname}:${port}`);
});
