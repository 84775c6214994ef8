/**
 * Faults around a real S3 server: a node:http proxy on 127.0.0.1 in front of radosgw (in
 * `npm run test:s3`) that forwards every request unchanged and, when told, handles the next
 * matching ones itself. This gives the answers a healthy server does not produce on demand: 409
 * ConditionalRequestConflict (radosgw never sends it), 503 SlowDown, and a connection lost before
 * the server saw the write or after it committed it.
 *
 * It can also lie for as long as it is told to (`lie(mode)`), as some S3-compatible stores and
 * emulators do, so the conformance probe and the races have a store that is unsafe for Delta:
 * - `'ignore-if-none-match'`: the header is removed before forwarding, so the server overwrites;
 * - `'precondition-failed-as-ok'`: a 412 from the server reaches the client as 200;
 * - `'lose-answer-after-write'`: every conditional PUT (`If-None-Match`) is forwarded and handled,
 *   then its connection is closed before the answer reaches the client.
 *
 * Nothing the client signed is changed, so SigV4 stays valid: the client signs for the proxy's
 * host:port and the proxy forwards that same Host header. radosgw checks the signature against the
 * Host it receives; with path-style URLs it does not need to be radosgw's own address. The one
 * exception is the header `'ignore-if-none-match'` removes: that request is signed again with the
 * secret key the proxy was given (test/helpers/sigv4-resign.ts says why).
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { withoutSignedHeader } from './sigv4-resign';

/** Which requests a fault applies to; every given field must hold. */
export interface RequestMatch {
  method?: string;
  /** A substring of the path and query as sent, e.g. an object key. */
  pathIncludes?: string;
  /** A request header that must be present, e.g. 'if-none-match' for conditional puts. */
  header?: string;
}

/**
 * What happens to a matching request instead of a plain forward:
 * - `{ status, code }`: the proxy answers with that S3 error; the server never sees the request;
 * - `'drop-before-forwarding'`: the body is read, then the connection closed; nothing is written;
 * - `'drop-after-forwarding'`: the server handles it, then the connection is closed before its
 *   answer reaches the client: the write landed, unseen.
 * - `'hold-until-all-arrive'`: each of the `times` matching requests waits until the last of them has
 *   arrived, then all go on as any request would (lies included): two writers' claims of one version
 *   reach the server together, whatever their processes' timing.
 */
export type Fault =
  | { status: number; code: string }
  | 'drop-before-forwarding'
  | 'drop-after-forwarding'
  | 'hold-until-all-arrive';

/** The ways the proxy can lie about conditional writes, until told `lie(null)`. */
export const LYING_MODES = ['ignore-if-none-match', 'precondition-failed-as-ok', 'lose-answer-after-write'] as const;
export type LyingMode = (typeof LYING_MODES)[number];

export interface ProxiedRequest {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  /** The status the client got; 0 when the connection was closed without an answer. */
  status: number;
}

export interface S3FaultProxy {
  /** `http://127.0.0.1:PORT`: point the S3 client here. */
  readonly endpoint: string;
  /** Every request, in completion order. */
  readonly requests: ProxiedRequest[];
  /** The next `times` (default 1) requests matching `match` get `fault`; earlier calls match first. */
  failNext(match: RequestMatch & { times?: number }, fault: Fault): void;
  /** From now on, every request the mode concerns gets that lie; `null` makes the proxy honest again. */
  lie(mode: LyingMode | null): void;
  /** Closes every connection and the listening socket. */
  stop(): Promise<void>;
}

interface Rule {
  match: RequestMatch;
  left: number;
  fault: Fault;
  /** For 'hold-until-all-arrive': settles when the last matching request has arrived. */
  allArrived?: { promise: Promise<void>; resolve: () => void };
}

const matches = (req: IncomingMessage, m: RequestMatch) =>
  (m.method === undefined || req.method === m.method) &&
  (m.pathIncludes === undefined || (req.url ?? '').includes(m.pathIncludes)) &&
  (m.header === undefined || req.headers[m.header.toLowerCase()] !== undefined);

/** Once the request body has fully arrived (it is discarded). */
const drained = (req: IncomingMessage) => new Promise<void>((resolve) => req.resume().on('end', resolve));

function sendError(req: IncomingMessage, res: ServerResponse, status: number, code: string): void {
  // As S3 does: an XML body whose Code the SDK turns into the error name; HEAD answers carry none.
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>Injected by the S3 fault proxy.</Message></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
  res.end(req.method === 'HEAD' ? undefined : xml);
}

/** The server's answer, unchanged, to the client. */
function pass(answer: IncomingMessage, res: ServerResponse, log: (status: number) => void): void {
  const status = answer.statusCode ?? 0;
  res.writeHead(status, answer.headers);
  // After pipe's own 'end' listener, which ends the answer to the client.
  answer.pipe(res);
  answer.on('end', () => log(status));
}

const conditional = (req: IncomingMessage) => req.headers['if-none-match'] !== undefined;

/**
 * Starts a proxy to `upstream` (e.g. `http://127.0.0.1:7480`) on a free port of 127.0.0.1.
 * `secretKey` (default: AWS_SECRET_ACCESS_KEY) signs again the requests `'ignore-if-none-match'`
 * changes.
 */
export async function startS3FaultProxy(
  upstream: string,
  { secretKey = process.env.AWS_SECRET_ACCESS_KEY }: { secretKey?: string } = {},
): Promise<S3FaultProxy> {
  const target = new URL(upstream);
  let lying: LyingMode | null = null;
  const rules: Rule[] = [];
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  function forward(req: IncomingMessage, onAnswer: (answer: IncomingMessage) => void, onError: () => void): void {
    let headers = req.headers;
    if (lying === 'ignore-if-none-match' && secretKey && conditional(req)) {
      headers = withoutSignedHeader(req.method ?? 'GET', req.url ?? '/', req.headers, 'if-none-match', secretKey);
    }
    const out = request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      onAnswer,
    );
    // The server unreachable: the client sees a dropped connection, as it would without the proxy.
    out.on('error', onError);
    req.pipe(out);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Logged in the same turn as the answer ends or the socket closes, before the client can see it.
    const log = (status: number) => requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status });
    const drop = () => {
      req.socket.destroy();
      log(0);
    };
    // A client gone mid-request leaves nothing to answer.
    req.on('error', () => req.socket.destroy());
    // Decided on arrival, so concurrent requests take the "next n" faults in arrival order.
    const rule = rules.find((r) => r.left > 0 && matches(req, r.match));
    if (rule) rule.left--;
    if (rule?.allArrived) {
      if (rule.left === 0) rule.allArrived.resolve();
      await rule.allArrived.promise;
    }
    const fault = rule?.fault === 'hold-until-all-arrive' ? undefined : rule?.fault;
    if (fault === 'drop-before-forwarding') {
      await drained(req);
      drop();
    } else if (fault === 'drop-after-forwarding') {
      forward(req, (answer) => answer.resume().on('end', drop), drop);
    } else if (fault) {
      await drained(req);
      sendError(req, res, fault.status, fault.code);
      log(fault.status);
    } else if (lying === 'lose-answer-after-write' && req.method === 'PUT' && conditional(req)) {
      forward(req, (answer) => answer.resume().on('end', drop), drop);
    } else if (lying === 'precondition-failed-as-ok') {
      forward(
        req,
        (answer) => {
          if (answer.statusCode !== 412) return pass(answer, res, log);
          // The refusal is read and thrown away; the client gets the empty 200 of a successful put.
          answer.resume().on('end', () => {
            res.writeHead(200, { 'Content-Length': 0, ETag: '"00000000000000000000000000000000"' });
            res.end();
            log(200);
          });
        },
        drop,
      );
    } else {
      forward(req, (answer) => pass(answer, res, log), drop);
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    failNext({ times = 1, ...match }, fault) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      rules.push({
        match,
        left: times,
        fault,
        ...(fault === 'hold-until-all-arrive' && { allArrived: { promise, resolve } }),
      });
    },
    lie(mode) {
      // Refused here rather than on a request, where it could only surface as a dropped connection.
      if (mode === 'ignore-if-none-match' && !secretKey) {
        throw new Error(
          'the S3 fault proxy needs the secret key to drop a signed If-None-Match (AWS_SECRET_ACCESS_KEY)',
        );
      }
      lying = mode;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        for (const s of sockets) s.destroy();
      }),
  };
}
