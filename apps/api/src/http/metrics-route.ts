/**
 * `GET /metrics`: the whole product's metrics in Prometheus's text format (metrics/), for one scrape target
 * whichever API process answers. The edge (http/edge.ts) has already checked Host and Origin. A scrape needs the
 * API's token (`Authorization: Bearer <token>`, which Prometheus sends with `authorization.credentials`), or a
 * dashboard session, unless it comes from this host (a loopback peer that sent it to a loopback name) while the
 * API listens on loopback only: an API exposed on a network serves its metrics to tokens alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallerCheck } from '../auth/callers';
import { SESSION_NOT_RECOGNISED, TOKEN_NOT_RECOGNISED } from '../errors/client-errors';
import type { Scraped } from '../metrics/scrape';

export const METRICS_PATH = '/metrics';

/** Why a scrape without a token was refused: said so a person who runs Prometheus knows what to configure. */
export const METRICS_NEED_TOKEN =
  'metrics need an API token: send Authorization: Bearer <token> (a scrape from this host needs none while the API listens on loopback)';

/** Whether API_HOST is a loopback address or name, so that only this host can reach the API at all. */
export function listensOnLoopback(apiHost: string): boolean {
  const host = apiHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

export async function metricsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  caller: CallerCheck,
  /** The request comes from this host and the API listens on loopback only. */
  local: boolean,
  scrape: () => Promise<Scraped>,
): Promise<void> {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return refuse(res, 405, 'BAD_REQUEST', `${METRICS_PATH} takes GET`);
  }
  if (caller.kind === 'unrecognised') {
    const message = caller.scheme === 'Session' ? SESSION_NOT_RECOGNISED : TOKEN_NOT_RECOGNISED;
    return refuse(res, 401, 'UNAUTHENTICATED', message);
  }
  if (caller.kind === 'none' && !local) return refuse(res, 401, 'UNAUTHENTICATED', METRICS_NEED_TOKEN);
  const { contentType, text } = await scrape();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}
