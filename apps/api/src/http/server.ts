/**
 * The API's HTTP server: yoga on /graphql (GraphiQL when configured, subscriptions as server-sent
 * events), /health for supervisors, /metrics for Prometheus (http/metrics-route.ts), /session for the
 * dashboard's sign-in (http/session-route.ts), /uploads/code for archives of code to audit
 * (http/upload-route.ts), the edge checks (http/edge.ts) before anything reads the request, and the caller
 * (a token or a dashboard session) and whether it is on this host put in the context.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga } from 'graphql-yoga';
import { type CallerCheck, CallerVerifier } from '../auth/callers';
import { SESSION_NOT_RECOGNISED, TOKEN_NOT_RECOGNISED } from '../errors/client-errors';
import { answerUnexpected, maskError } from '../errors/unexpected';
import type { ApiContext } from '../graphql/builder';
import { createLoaders } from '../graphql/loaders';
import { schema } from '../graphql/schema';
import { metricsScraper } from '../metrics/scrape';
import { type ApiConfig, loadConfig } from '../process/config';
import { documentGuard } from './document-guard';
import { Edge, type Refusal, wantsPage } from './edge';
import { GRAPHIQL_OFF, offlineGraphiQL } from './graphiql';
import { listensOnLoopback, METRICS_PATH, metricsRoute } from './metrics-route';
import { operationGuard } from './operation-guard';
import { SESSION_PATH, sessionRoute } from './session-route';
import { UPLOAD_PATH, uploadRoute } from './upload-route';

export type ServerDeps = Omit<ApiContext, 'actor' | 'loopback' | 'loaders'>;

function refuse(res: ServerResponse, { status, code, message }: Refusal) {
  // A body refused for its size is not read through: the connection closes after the answer (discardThenClose).
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 413 && { connection: 'close' }) });
  res.end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

export function createApiServer(
  deps: ServerDeps,
  cfg: Pick<ApiConfig, 'corsOrigins' | 'allowedHosts' | 'apiHost' | 'graphiql' | 'sessionHours'> = loadConfig(),
): Server {
  const callers = new CallerVerifier(deps.db);
  const scrape = metricsScraper(deps.db);
  const loopbackOnly = listensOnLoopback(cfg.apiHost);
  const edge = new Edge(cfg, () => (server.address() as AddressInfo).port);
  const yoga = createYoga<{ req: IncomingMessage; caller: CallerCheck }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: cfg.graphiql && { title: 'racelab API' },
    renderGraphiQL: offlineGraphiQL,
    landingPage: false,
    // Forms post multipart, urlencoded or text/plain without a preflight; the edge accepts JSON only.
    multipart: false,
    // Only the configured origins get CORS headers (the edge refuses other origins), never credentials.
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (origin === null || !cfg.corsOrigins.includes(origin)) return false;
      return {
        origin: [origin],
        credentials: false,
        methods: ['GET', 'POST'],
        allowedHeaders: ['content-type', 'authorization', 'accept'],
      };
    },
    // Whatever NODE_ENV says, an unexpected error reaches the client as "Unexpected error." and an id only;
    // the log has the real one under that id, stack and all.
    maskedErrors: { isDev: false, maskError },
    // Document checks first (no resolver runs for a refused document), then who may run the operation.
    plugins: [documentGuard, operationGuard],
    context: ({ req, caller }): ApiContext => ({
      ...deps,
      actor: caller.kind === 'known' ? caller.actor : null,
      loopback: edge.loopback(req),
      loaders: createLoaders(deps.db),
    }),
  });
  /**
   * The caller, checked before yoga reads the request: a credential that was sent but is not known (a revoked
   * token, an ended session) is refused here, so it gets no further than an anonymous request would, not even
   * a document's validation errors.
   */
  async function withCaller(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = await callers.verify(req.headers.authorization ?? null);
    if (caller.kind === 'unrecognised') {
      const message = caller.scheme === 'Session' ? SESSION_NOT_RECOGNISED : TOKEN_NOT_RECOGNISED;
      refuse(res, { status: 401, code: 'UNAUTHENTICATED', message });
      req.resume();
      return;
    }
    await yoga(req, res, { req, caller });
  }
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const refused = edge.check(req);
    if (refused) {
      refuse(res, refused);
      if (refused.status === 413) discardThenClose(req);
      else req.resume();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://api').pathname;
    if (path === SESSION_PATH) {
      sessionRoute(req, res, deps.db, cfg).catch((e: unknown) => answerUnexpected(res, e, SESSION_PATH));
      return;
    }
    if (path === UPLOAD_PATH) {
      callers
        .verify(req.headers.authorization ?? null)
        .then((caller) => uploadRoute(req, res, caller, deps.locations.workDir))
        .catch((e: unknown) => answerUnexpected(res, e, UPLOAD_PATH));
      return;
    }
    if (path === METRICS_PATH) {
      callers
        .verify(req.headers.authorization ?? null)
        .then((caller) => metricsRoute(req, res, caller, loopbackOnly && edge.loopback(req), scrape))
        .catch((e: unknown) => answerUnexpected(res, e, METRICS_PATH));
      return;
    }
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (!cfg.graphiql && wantsPage(req)) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(GRAPHIQL_OFF);
      return;
    }
    withCaller(req, res).catch((e: unknown) => answerUnexpected(res, e, 'checking the caller'));
  }
  const server = createServer(handle);
  // A client that asks before sending its body (`Expect: 100-continue`, as curl does for a large upload) is told
  // to go on only when the edge would take the request: a refused one never sends its body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (edge.check(req) === null) res.writeContinue();
    handle(req, res);
  });
  return server;
}

/** What a refused client may still send, discarded, before its connection is reset. */
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A body refused for its size: the answer goes out with `Connection: close` while what the client is still
 * sending is read and dropped, up to LINGER_BYTES (closing at once would reset the connection under the client
 * and lose the answer); past that the connection is cut.
 */
function discardThenClose(req: IncomingMessage): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > LINGER_BYTES) req.socket.destroy();
  });
}
