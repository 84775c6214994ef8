/**
 * The dashboard's pages and its /api/graphql answer only a signed-in person, and /api/graphql only the
 * dashboard's own pages. Each attack here worked before: a mutation from any local process with no
 * session at all, a mutation from another origin, a text/plain form, DNS rebinding (a foreign name that
 * resolves to loopback), a 128 MiB body read whole into memory. Every refusal is checked through the API
 * itself: no race was created. Real processes, real HTTP, real Chromium, signing in as a person does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './helpers/browser';
import { type E2eStack, signInCookie, startE2eStack } from './helpers/stack';

const MiB = 1024 * 1024;
const START_RACE = JSON.stringify({
  query: 'mutation { startRace(input: {caseId: "B1", runs: 1, scale: 0.01}) { id } }',
});
/** A mutation that needs the token but changes nothing: the API answers "not found" only past the token check. */
const NO_SUCH_RACE = '00000000-0000-0000-0000-000000000000';
const CANCEL = JSON.stringify({ query: `mutation { cancelRace(id: "${NO_SUCH_RACE}") { id } }` });
/** A second name for the dashboard, given through WEB_ALLOWED_HOSTS (as behind a reverse proxy). */
const EXTRA_HOST = 'dash.racelab.test';

let stack: E2eStack;
let port: string;
/** The session cookie of a person signed in with the link, as `name=value`. */
let cookie: string;
/** JSON with the session: what the dashboard's own pages send. */
let signedIn: Record<string, string>;

beforeAll(async () => {
  stack = await startE2eStack({ WEB_ALLOWED_HOSTS: EXTRA_HOST });
  port = new URL(stack.webUrl).port;
  cookie = await signInCookie(stack);
  signedIn = { 'content-type': 'application/json', cookie };
});
afterAll(async () => {
  await stack?.stop();
});

interface Answer {
  status: number;
  body: string;
  location?: string;
  setCookie?: string;
}

/** One request over node:http, which (unlike fetch) sends the Host header a test gives it. */
function send(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack.webUrl}${path}`, { method: init.method ?? 'POST', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          ...(res.headers.location && { location: res.headers.location }),
          ...(res.headers['set-cookie'] && { setCookie: res.headers['set-cookie'].join('\n') }),
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const json = { 'content-type': 'application/json' };

/** The races the API holds, asked of the API itself with the token. */
async function raceCount(): Promise<number> {
  const res = await fetch(stack.apiUrl, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${stack.token}` },
    body: JSON.stringify({ query: '{ races(first: 100) { edges { node { id } } } }' }),
  });
  const body = (await res.json()) as { data: { races: { edges: unknown[] } } };
  return body.data.races.edges.length;
}

/** A refusal is `{errors: [{message}]}` with a message that says why, and nothing of the token. */
function expectRefused(answer: Answer, status: number, message: RegExp): void {
  expect(answer.status, answer.body).toBe(status);
  const body = JSON.parse(answer.body) as { errors: { message: string }[] };
  expect(Object.keys(body)).toEqual(['errors']);
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]?.message).toMatch(message);
  expect(answer.body).not.toContain(stack.token);
}

describe('what the dashboard itself sends goes through', () => {
  it('forwards a same-origin JSON mutation with the session, and one with no Origin (curl, scripts)', async () => {
    for (const headers of [{ ...signedIn, origin: stack.webUrl, 'sec-fetch-site': 'same-origin' }, signedIn]) {
      const answer = await send('/api/graphql', { headers, body: CANCEL });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`race ${NO_SUCH_RACE} not found`);
    }
  });

  it('answers to localhost, [::1] and the names in WEB_ALLOWED_HOSTS', async () => {
    for (const host of [`localhost:${port}`, `[::1]:${port}`, EXTRA_HOST]) {
      const origin = host === EXTRA_HOST ? `https://${EXTRA_HOST}` : `http://${host}`;
      const answer = await send('/api/graphql', { headers: { ...signedIn, host, origin }, body: CANCEL });
      expect(answer.status, host).toBe(200);
      expect(answer.body).toContain('not found');
      expect((await send('/races', { method: 'GET', headers: { host, cookie } })).status, host).toBe(200);
    }
  });

  it('forwards a query over GET', async () => {
    const answer = await send(`/api/graphql?${new URLSearchParams({ query: '{ cases { id } }' })}`, {
      method: 'GET',
      headers: { accept: 'application/json', 'sec-fetch-site': 'same-origin', cookie },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.cases).toContainEqual({ id: 'B1' });
  });
});

const START_SWEEP = JSON.stringify({
  query: 'mutation { startSweep(input: {operation: "append", writers: [1], commitsPerWriter: 1}) { id } }',
});
const FORGED = 'racelab_session=rl_session_forged0123456789abcdefghijklmnopqrstuvwxyz01';

describe('without a session, nothing is reached', () => {
  it.each([
    ['startRace', START_RACE],
    ['startSweep', START_SWEEP],
    ['cancelRace', CANCEL],
  ])('a local process POSTing %s with only Content-Type gets 401, and nothing runs', async (_, body) => {
    expectRefused(await send('/api/graphql', { headers: json, body }), 401, /^not signed in: open the sign-in link/);
    expectRefused(
      await send('/api/graphql', { headers: { ...json, cookie: FORGED }, body }),
      401,
      /^session not recognised/,
    );
    expect(await raceCount()).toBe(0);
  });

  it('reads are refused too, over POST and GET: the API would answer loopback reads without a token', async () => {
    const query = JSON.stringify({ query: '{ races(first: 1) { edges { node { id } } } }' });
    expectRefused(await send('/api/graphql', { headers: json, body: query }), 401, /^not signed in/);
    const get = new URLSearchParams({ query: '{ cases { id } }' });
    expectRefused(await send(`/api/graphql?${get}`, { method: 'GET', headers: {} }), 401, /^not signed in/);
  });

  it('every page sends the person to sign in, and back afterwards; the sign-in page itself is open', async () => {
    for (const path of ['/', '/races', '/audit?tab=jobs', '/playground', '/scaling']) {
      for (const headers of [{}, { cookie: FORGED }] as Record<string, string>[]) {
        const answer = await send(path, { method: 'GET', headers });
        expect(answer.status, path).toBe(303);
        expect(answer.location, path).toBe(`/signin?${new URLSearchParams({ next: path })}`);
      }
    }
    expect((await send('/signin', { method: 'GET', headers: {} })).status).toBe(200);
  });

  it('the link sets an HttpOnly, SameSite=Strict cookie and drops its secret from the URL; a stale link signs nobody in', async () => {
    const res = await fetch(stack.loginLink, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const attributes = (res.headers.get('set-cookie') ?? '').split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(attributes.find((a) => a.startsWith('max-age='))).toMatch(/^max-age=86\d{3}$/);
    const stale = new URL(stack.loginLink);
    stale.searchParams.set('login', 'rl_login_not_the_current_one_0123456789abcdef');
    const refused = await fetch(stale, { redirect: 'manual' });
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/signin?refused=link');
    expect(refused.headers.get('set-cookie')).toBeNull();
  });

  it('an API token signs in through /api/session; a wrong one does not; signing out ends the session', async () => {
    const wrong = await send('/api/session', {
      headers: json,
      body: JSON.stringify({ token: 'rl_wrong_token_000000000' }),
    });
    expectRefused(wrong, 401, /API token is not recognised/);
    const res = await fetch(`${stack.webUrl}/api/session`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token: stack.token }),
    });
    expect(res.status).toBe(200);
    const own = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(own).toMatch(/^racelab_session=rl_session_/);
    const mine = { ...json, cookie: own };
    expect((await send('/api/graphql', { headers: mine, body: CANCEL })).body).toContain('not found');
    const out = await send('/api/session', { method: 'DELETE', headers: { cookie: own } });
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/^racelab_session=; Max-Age=0/);
    expectRefused(await send('/api/graphql', { headers: mine, body: CANCEL }), 401, /^session not recognised/);
    expect((await send('/races', { method: 'GET', headers: { cookie: own } })).status).toBe(303);
  });

  it('another site cannot sign a visitor in (login CSRF): /api/session takes JSON from its own pages only', async () => {
    const body = JSON.stringify({ token: stack.token });
    expect((await send('/api/session', { headers: { ...json, origin: 'http://evil.example' }, body })).status).toBe(
      403,
    );
    expect((await send('/api/session', { headers: { 'content-type': 'text/plain' }, body })).status).toBe(415);
  });
});

describe('another page cannot run mutations through the proxy', () => {
  it.each([
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['Origin null (a sandboxed frame)', { origin: 'null' }],
    ['another port on loopback', { origin: 'http://127.0.0.1:1' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a mutation with %s (403) and creates no race', async (_, headers: Record<string, string>) => {
    const answer = await send('/api/graphql', { headers: { ...signedIn, ...headers }, body: START_RACE });
    expectRefused(answer, 403, /^cross-origin request refused: .*only from its own pages/);
    expect(await raceCount()).toBe(0);
  });

  it('refuses a text/plain body, as an HTML form sends it (415), and creates no race', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await send('/api/graphql', { headers: { 'content-type': type, cookie }, body: START_RACE });
      expectRefused(answer, 415, /^only application\/json is accepted/);
    }
    expectRefused(await send('/api/graphql', { headers: { cookie }, body: START_RACE }), 415, /application\/json/);
    expect(await raceCount()).toBe(0);
  });

  it('refuses a mutation over GET (405) and creates no race', async () => {
    const query = new URLSearchParams({ query: 'mutation { startRace(input: {caseId: "B1"}) { id } }' });
    const answer = await send(`/api/graphql?${query}`, {
      method: 'GET',
      headers: { accept: 'text/event-stream', cookie },
    });
    expectRefused(answer, 405, /^a mutation must be POSTed/);
    expect(await raceCount()).toBe(0);
  });

  it('refuses a GET from another origin (403)', async () => {
    const query = new URLSearchParams({ query: '{ cases { id } }' });
    const answer = await send(`/api/graphql?${query}`, {
      method: 'GET',
      headers: { origin: 'http://evil.example', cookie },
    });
    expectRefused(answer, 403, /^cross-origin request refused/);
  });
});

describe('DNS rebinding: a foreign name that resolves to loopback', () => {
  it('refuses the proxy, for POST and GET, and the pages (403), and creates no race', async () => {
    const host = `evil.example:${port}`;
    const origin = `http://${host}`;
    expectRefused(
      await send('/api/graphql', {
        headers: { ...signedIn, host, origin, 'sec-fetch-site': 'same-origin' },
        body: START_RACE,
      }),
      403,
      /^host 'evil\.example:\d+' is not one of this dashboard's names/,
    );
    const query = new URLSearchParams({ query: '{ races(first: 1) { edges { node { id } } } }' });
    expectRefused(await send(`/api/graphql?${query}`, { method: 'GET', headers: { host, cookie } }), 403, /^host /);
    expectRefused(await send('/races', { method: 'GET', headers: { host, cookie } }), 403, /^host /);
    expect(await raceCount()).toBe(0);
  });
});

/** VmRSS and VmHWM (the peak since the last reset) of a process, in bytes. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * POSTs 128 MiB to the proxy, chunked or with its Content-Length in `headers`, and stops sending
 * once the server has answered; resolves with the answer's status.
 */
function postHuge(headers: Record<string, string>): Promise<number> {
  const total = 128 * MiB;
  const chunk = Buffer.alloc(MiB, ' ');
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      `${stack.webUrl}/api/graphql`,
      { method: 'POST', headers: { ...signedIn, ...headers } },
      (res) => {
        answered = true;
        res.resume();
        res.on('end', () => {
          req.destroy();
          resolve(res.statusCode ?? 0);
        });
      },
    );
    // Once the server has answered it may close the connection under bytes still in flight.
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    let sent = 0;
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (sent === total) req.end(chunk);
        else if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

interface PacedAnswer {
  status: number;
  /** Bytes of the body written before the answer's head arrived. */
  sentBeforeAnswer: number;
  /** Whether the server closed the connection once it had answered (the client never ends the body). */
  closedByServer: boolean;
}

/**
 * POSTs 128 MiB chunked to `path` in 64 KiB chunks, each written once the one before has left (its
 * write callback) and the client has looked at what arrived, and stops writing once the answer's head
 * arrives. Resolves when the server has closed the connection, or when the answer ends without
 * `Connection: close` (the server keeps the connection).
 */
function postPaced(path: string, headers: Record<string, string>): Promise<PacedAnswer> {
  const total = 128 * MiB;
  const chunk = Buffer.alloc(64 * 1024, ' ');
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answer: { status: number; sentBeforeAnswer: number } | null = null;
    const req = request(`${stack.webUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'transfer-encoding': 'chunked' },
    });
    const settle = (closedByServer: boolean) => {
      if (!answer) return void reject(new Error(`connection closed unanswered after ${sent} bytes`));
      resolve({ ...answer, closedByServer });
      req.destroy();
    };
    req.on('response', (res) => {
      answer = { status: res.statusCode ?? 0, sentBeforeAnswer: sent };
      res.resume();
      if (res.headers.connection !== 'close') res.on('end', () => settle(false));
    });
    // Closed by the server: the socket ends, or a write meets the closed connection.
    req.on('close', () => settle(true));
    req.on('error', () => settle(true));
    const pump = () => {
      if (answer) return;
      if (sent >= total) return void req.end();
      sent += chunk.length;
      // The next chunk waits for this one to leave and for pending I/O (the answer) to be seen.
      req.write(chunk, () => setImmediate(pump));
    };
    pump();
  });
}

describe('a huge body is refused before it is read', () => {
  // The server loads a route's code on its first request (about 45 MiB of resident growth, seen
  // here), so load it first: the growth measured below is then the body's alone. A body held in
  // memory would grow the server by at least its 128 MiB; half of that is the bound, clear of the
  // few MiB the garbage collector's timing moves it by (34 MiB was once seen against a bound of 32).
  beforeAll(async () => {
    const answer = await send('/api/graphql', { headers: signedIn, body: ' '.repeat(64 * 1024 + 1) });
    expect(answer.status).toBe(413);
  });

  it.each([
    ['chunked, with no Content-Length', {}],
    ['with a Content-Length of 128 MiB', { 'content-length': String(128 * MiB) }],
  ])('refuses 128 MiB %s (413), and the server grows by less than 64 MiB', async (_, headers) => {
    // Writing 5 resets the process's peak resident size (VmHWM) to its current size.
    writeFileSync(`/proc/${stack.webPid}/clear_refs`, '5');
    const before = memory(stack.webPid);
    expect(await postHuge(headers)).toBe(413);
    const after = memory(stack.webPid);
    expect(after.peak - before.rss).toBeLessThan(64 * MiB);
    expect(await raceCount()).toBe(0);
  });

  it('says what the limit is', async () => {
    const answer = await send('/api/graphql', { headers: signedIn, body: ' '.repeat(64 * 1024 + 1) });
    expectRefused(answer, 413, /^request body over 65536 bytes/);
  });

  it.each([
    ['/', 'application/json'],
    ['/races', 'text/plain'],
    ['/playground', 'application/x-www-form-urlencoded'],
    ['/audit', 'multipart/form-data; boundary=x'],
  ])(
    'a chunked POST to the page %s (%s) is answered before 16 MiB of it is sent, and the connection closed',
    async (path, type) => {
      writeFileSync(`/proc/${stack.webPid}/clear_refs`, '5');
      const before = memory(stack.webPid);
      const answer = await postPaced(path, { 'content-type': type });
      expect([405, 413]).toContain(answer.status);
      // What is sent before the answer arrives includes what both sockets' buffers hold (a few MiB on
      // loopback): read through, it would be all 128 MiB.
      expect(answer.sentBeforeAnswer).toBeLessThan(16 * MiB);
      expect(answer.closedByServer).toBe(true);
      expect(memory(stack.webPid).peak - before.rss).toBeLessThan(16 * MiB);
    },
  );
});

/** A page of another site, served from a second loopback server. */
function serve(html: string): Promise<Server> {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('in Chromium', () => {
  let browser: Browser;
  let attacker: Server;

  beforeAll(async () => {
    // evil.example resolves to loopback, as it does for a victim of DNS rebinding.
    browser = await launch(['--host-resolver-rules=MAP evil.example 127.0.0.1']);
    // The classic text/plain trick: the form encodes `name=value`, which here makes valid JSON.
    // `pad` is a variable the mutation does not declare, which GraphQL ignores.
    const [name, value] = [`${START_RACE.slice(0, -1)},"variables":{"pad":"`, '"}}'];
    attacker = await serve(`<!doctype html>
      <form method="POST" action="${stack.webUrl}/api/graphql" enctype="text/plain">
        <input type="hidden" name='${name}' value='${value}'><button>win a prize</button>
      </form>`);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => attacker?.close(r));
  });

  it('a person signs in with a token on the sign-in page, sees who they are, and signs out', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl });
    const page = await context.newPage();
    await page.goto('/playground');
    await page.waitForURL('**/signin?next=%2Fplayground');
    await page.locator('#token').fill('rl_wrong_token_000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByTestId('sign-in-failure').textContent()).toMatch(/API token is not recognised/);
    await page.locator('#token').fill(stack.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/playground');
    expect(await page.getByTestId('signed-in').textContent()).toMatch(/^Signed in with token 'LAB_API_TOKEN'/);
    // HttpOnly: no script on the page can read the session.
    expect(await page.evaluate(() => document.cookie)).not.toContain('racelab_session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await page.goto('/races');
    await page.waitForURL('**/signin?next=%2Fraces');
    await context.close();
  });

  it('a form on another site posting text/plain to the proxy starts no race', async () => {
    const page = await browser.newPage();
    const address = attacker.address();
    await page.goto(`http://evil.example:${typeof address === 'object' ? address?.port : ''}/`);
    const [answer] = await Promise.all([
      page.waitForResponse(`${stack.webUrl}/api/graphql`),
      page.getByRole('button', { name: 'win a prize' }).click(),
    ]);
    expect(answer.request().postData()).toBe(`${START_RACE.slice(0, -1)},"variables":{"pad":"="}}\r\n`);
    expect(answer.status()).toBe(403);
    expect(await raceCount()).toBe(0);
    await page.close();
  });

  it('a page under a rebound name can neither load the dashboard nor use its proxy', async () => {
    const page = await browser.newPage();
    const loaded = await page.goto(`http://evil.example:${port}/races`);
    expect(loaded?.status()).toBe(403);
    // The attacker's script runs on its own origin, which the browser now sends to the dashboard.
    const answer = await page.evaluate(async (body) => {
      const res = await fetch('/api/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: await res.text() };
    }, START_RACE);
    expectRefused(answer, 403, /^host 'evil\.example:\d+' is not one of this dashboard's names/);
    expect(await raceCount()).toBe(0);
    await page.close();
  });
});
