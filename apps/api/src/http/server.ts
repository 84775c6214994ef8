/**
 * The API's HTTP server: yoga on /graphql (GraphiQL outside production, subscriptions as
 * server-sent events), /health for supervisors, a body-size limit checked before yoga reads
 * anything, and the caller's token and host put in the context.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createYoga, type Plugin } from 'graphql-yoga';
import { TokenVerifier } from '../auth/tokens';
import type { ApiContext } from '../graphql/builder';
import { limitsRule } from '../graphql/limits';
import { createLoaders } from '../graphql/loaders';
import { schema } from '../graphql/schema';

export const MAX_BODY_BYTES = 64 * 1024;

export type ServerDeps = Omit<ApiContext, 'token' | 'loopback' | 'loaders'>;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const limits: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(limitsRule);
  },
};

function refuse(res: import('node:http').ServerResponse, status: number, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      errors: [{ message, extensions: { code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST' } }],
    }),
  );
}

export function createApiServer(deps: ServerDeps): Server {
  const tokens = new TokenVerifier(deps.db);
  const yoga = createYoga<{ req: IncomingMessage }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: process.env.NODE_ENV !== 'production',
    landingPage: false,
    plugins: [limits],
    context: async ({ req, request }): Promise<ApiContext> => {
      const token = await tokens.verify(request.headers.get('authorization'));
      return {
        ...deps,
        token,
        loopback: LOOPBACK.has(req.socket.remoteAddress ?? ''),
        loaders: createLoaders(deps.db),
      };
    },
  });
  return createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (req.method === 'POST') {
      const length = Number(req.headers['content-length']);
      if (req.headers['transfer-encoding'] !== undefined || !Number.isFinite(length)) {
        refuse(res, 411, 'send the request with a Content-Length');
        return;
      }
      if (length > MAX_BODY_BYTES) {
        refuse(res, 413, `request body of ${length} bytes; at most ${MAX_BODY_BYTES}`);
        req.resume();
        return;
      }
    }
    void yoga(req, res, { req });
  });
}
