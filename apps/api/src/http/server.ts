/**
 * The API's HTTP server: yoga on /graphql (GraphiQL when configured, subscriptions as server-sent
 * events), /health for supervisors, the edge checks (http/edge.ts) before yoga reads anything, and
 * the caller's token and whether it is on this host put in the context.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga } from 'graphql-yoga';
import { operationGuard } from '../auth/operation-guard';
import { TokenVerifier } from '../auth/tokens';
import { AuthError, TOKEN_NOT_RECOGNISED } from '../errors/client-errors';
import type { ApiContext } from '../graphql/builder';
import { createLoaders } from '../graphql/loaders';
import { schema } from '../graphql/schema';
import { type ApiConfig, loadConfig } from '../process/config';
import { documentGuard } from './document-guard';
import { Edge, type Refusal, wantsPage } from './edge';
import { GRAPHIQL_OFF, offlineGraphiQL } from './graphiql';

export type ServerDeps = Omit<ApiContext, 'token' | 'loopback' | 'loaders'>;

function refuse(res: ServerResponse, { status, code, message }: Refusal) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

export function createApiServer(
  deps: ServerDeps,
  cfg: Pick<ApiConfig, 'corsOrigins' | 'allowedHosts' | 'apiHost' | 'graphiql'> = loadConfig(),
): Server {
  const tokens = new TokenVerifier(deps.db);
  const edge = new Edge(cfg, () => (server.address() as AddressInfo).port);
  const yoga = createYoga<{ req: IncomingMessage }>({
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
    // Whatever NODE_ENV says, an unexpected error reaches the client as "Unexpected error." only;
    // yoga logs the real one, stack and all.
    maskedErrors: { isDev: false },
    // Document checks first (no resolver runs for a refused document), then who may run the operation.
    plugins: [documentGuard, operationGuard],
    context: async ({ req, request }): Promise<ApiContext> => {
      const token = await tokens.verify(request.headers.get('authorization'));
      // A token that was sent but is not known is an error, not an anonymous request.
      if (token.kind === 'unrecognised') throw new AuthError(TOKEN_NOT_RECOGNISED);
      return {
        ...deps,
        token: token.kind === 'known' ? token.label : null,
        loopback: edge.loopback(req),
        loaders: createLoaders(deps.db),
      };
    },
  });
  const server = createServer((req, res) => {
    const refused = edge.check(req);
    if (refused) {
      refuse(res, refused);
      req.resume();
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
    void yoga(req, res, { req });
  });
  return server;
}
