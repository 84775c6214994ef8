/**
 * What every request must pass before yoga reads it. The Host must be one of the API's names, so a
 * page whose name was rebound to 127.0.0.1 cannot talk to it (DNS rebinding). A browser's Origin
 * must be the dashboard's, or the API's own for its GraphiQL page, so no other site's page can call
 * it. A body must be JSON, which a plain HTML form cannot send, but on the one upload path (an archive of code,
 * http/upload-route.ts). And the URL and body have a size, checked from the headers before the body is read.
 */
import type { IncomingMessage } from 'node:http';
import { ARCHIVE_BOUNDS } from '@racelab/lab';
import { contentType, UPLOAD_PATH, UPLOAD_TYPES } from './upload-route';

export const MAX_BODY_BYTES = 64 * 1024;
/** GET carries a query in its URL (the dashboard's subscriptions do): bounded like a body, well below it. */
export const MAX_URL_BYTES = 8 * 1024;

export interface EdgeConfig {
  /** Origins whose pages may call the API (CORS), e.g. the dashboard's. */
  corsOrigins: string[];
  /** Host values accepted as they are, besides the loopback names and apiHost at the API's port. */
  allowedHosts: string[];
  apiHost: string;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The names this host always has; a request is "from this host" only when it is sent to one of them. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const LOOPBACK_PEER = /^(127\.|::ffff:127\.|::1$)/;
const JSON_TYPES = new Set(['application/json', 'application/graphql+json']);

const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, message });

export class Edge {
  constructor(
    private readonly cfg: EdgeConfig,
    /** The port the API listens on (known only once it listens: API_PORT may be 0). */
    private readonly port: () => number,
  ) {}

  private loopbackHosts(): string[] {
    return LOOPBACK_NAMES.map((n) => `${n}:${this.port()}`);
  }

  private hostAllowed(host: string): boolean {
    const apiHost = this.cfg.apiHost.includes(':') ? `[${this.cfg.apiHost}]` : this.cfg.apiHost;
    return (
      this.loopbackHosts().includes(host) ||
      host === `${apiHost.toLowerCase()}:${this.port()}` ||
      this.cfg.allowedHosts.includes(host)
    );
  }

  /**
   * Whether the request comes from this host: its peer is loopback and it was sent to a loopback
   * name. A page rebound to 127.0.0.1, or a reverse proxy on this host, does not count.
   */
  loopback(req: IncomingMessage): boolean {
    return LOOPBACK_PEER.test(req.socket.remoteAddress ?? '') && this.loopbackHosts().includes(hostOf(req));
  }

  /** Why the request is refused before yoga sees it, or null. */
  check(req: IncomingMessage): Refusal | null {
    if ((req.url?.length ?? 0) > MAX_URL_BYTES)
      return refusal(414, 'BAD_REQUEST', `URL of ${req.url?.length} bytes; at most ${MAX_URL_BYTES}: send a POST`);
    const host = hostOf(req);
    if (!this.hostAllowed(host))
      return refusal(
        421,
        'MISDIRECTED_REQUEST',
        `this API answers to ${this.loopbackHosts().join(', ')}; set API_ALLOWED_HOSTS for other names`,
      );
    const browser = this.fromOtherSite(req, host);
    if (browser) return browser;
    if (req.method === 'POST') return pathOf(req) === UPLOAD_PATH ? checkUpload(req) : checkBody(req);
    return null;
  }

  /** A browser's request from a page that is neither the dashboard's nor this API's own. */
  private fromOtherSite(req: IncomingMessage, host: string): Refusal | null {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const own = origin === `http://${host}` || origin === `https://${host}`;
      if (own || this.cfg.corsOrigins.includes(origin)) return null;
      return refusal(
        403,
        'FORBIDDEN',
        `requests from pages at ${origin} are refused; API_CORS_ORIGINS lists the allowed`,
      );
    }
    // A cross-site request a browser sends without an Origin (an image, a script, a link followed):
    // only a page navigation passes, and /graphql answers one with a page (GraphiQL), never a result.
    const site = req.headers['sec-fetch-site'];
    if (
      (site === 'cross-site' || site === 'same-site') &&
      !(req.headers['sec-fetch-mode'] === 'navigate' && wantsPage(req))
    )
      return refusal(403, 'FORBIDDEN', 'requests from other sites are refused');
    return null;
  }
}

function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').toLowerCase();
}

/** A browser asking for a page, not a GraphQL result: GraphiQL, or the note that it is off. */
export function wantsPage(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://api').pathname;
}

/** Null when a body's length is declared and at most `max`, else the refusal; `what` names the body, `sent` the request. */
function lengthRefusal(req: IncomingMessage, max: number, what: string, sent: string): Refusal | null {
  const declared = req.headers['content-length'];
  const length = Number(declared);
  if (req.headers['transfer-encoding'] !== undefined || declared === undefined || !Number.isFinite(length))
    return refusal(411, 'BAD_REQUEST', `send the ${sent} with a Content-Length`);
  if (length > max) return refusal(413, 'PAYLOAD_TOO_LARGE', `${what} of ${length} bytes; at most ${max}`);
  return null;
}

function checkBody(req: IncomingMessage): Refusal | null {
  if (!JSON_TYPES.has(contentType(req)))
    return refusal(415, 'BAD_REQUEST', 'send the request body as application/json');
  return lengthRefusal(req, MAX_BODY_BYTES, 'request body', 'request');
}

/** An archive upload: a .zip or .tar.gz by its content type, at most the archive bound (50 MB). */
function checkUpload(req: IncomingMessage): Refusal | null {
  if (UPLOAD_TYPES[contentType(req)] === undefined)
    return refusal(
      415,
      'BAD_REQUEST',
      `send the archive as ${Object.keys(UPLOAD_TYPES).join(' or ')} (a .zip or a .tar.gz)`,
    );
  return lengthRefusal(req, ARCHIVE_BOUNDS.maxInputBytes, 'archive', 'archive');
}
