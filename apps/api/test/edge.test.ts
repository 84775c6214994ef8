/**
 * The API's HTTP edge under attack, over real HTTP against the real API process: small
 * documents that used to stall it, other sites' pages and rebound names, NUL bytes, wrong tokens,
 * internals in errors, and GraphiQL offline in Debian's Chromium. The API runs with
 * NODE_ENV=development, where yoga used to put the real error and its stack in the response.
 */
import { getIntrospectionQuery } from 'graphql';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from '../../web/test/helpers/browser';
import { MAX_MERGE_STEPS } from '../src/graphql/limits';
import { NUL_REFUSED, TOO_LONG, TOO_REPETITIVE } from '../src/http/document-guard';
import { MAX_URL_BYTES } from '../src/http/edge';
import { aliased, fragmentBomb, SCHEMA_FRAGMENT } from './helpers/attacks';
import { gql } from './helpers/client';
import { postGql, rawHttp } from './helpers/raw-http';
import { type Stack, startStack, stopProc } from './helpers/stack';

const DASHBOARD = 'http://127.0.0.1:3999';
const NOT_RECOGNISED = /^token not recognised/;
const START = 'mutation($input: StartRaceInput!) { startRace(input: $input) { id } }';

let stack: Stack;
let port: string;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack({ NODE_ENV: 'development', WEB_PORT: '3999', API_ALLOWED_HOSTS: 'rebound.example' });
  port = new URL(stack.apiUrl).port;
  browser = await launch(['--host-resolver-rules=MAP rebound.example 127.0.0.1, MAP evil.example 127.0.0.1']);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const races = async () => Number((await stack.sql<{ n: string }>(`SELECT count(*)::text AS n FROM "Race"`))[0]?.n);

describe('small documents that stalled the API are refused before any resolver runs', () => {
  it('a fragment bomb (2^22 paths in 897 bytes), aliased __schema, repeated expensive resolvers', async () => {
    expect((await gql(stack.apiUrl, fragmentBomb(22))).errors?.[0]?.message).toBe(
      'query too costly: at least 65536 fields, at most 60000',
    );
    const schemas = (n: number) => gql(stack.apiUrl, aliased(n, '__schema { ...S }', SCHEMA_FRAGMENT));
    expect((await schemas(1000)).errors?.[0]?.message).toBe(TOO_LONG);
    expect((await schemas(150)).errors?.[0]?.message).toBe('query has 150 aliases, at most 100');
    expect((await schemas(10)).errors?.[0]?.message).toMatch(/^query too costly: at least \d+ fields/);
    expect((await schemas(1)).data).toHaveProperty('a0.types');
    const layouts = await gql(stack.apiUrl, aliased(100, 'tableLayout(location: "lab:flat@0.01") { version }'));
    expect(layouts.errors?.[0]?.message).toBe(
      'query calls tableLayout 2 times, at most 1 per request: send them separately',
    );
    const matrices = await gql(stack.apiUrl, aliased(2, 'isolationMatrix { runs }'));
    expect(matrices.errors?.[0]?.message).toBe(
      'query calls isolationMatrix 2 times, at most 1 per request: send them separately',
    );
    // GraphiQL's own introspection fits.
    const full = await gql(stack.apiUrl, getIntrospectionQuery());
    expect(full.errors).toBeUndefined();
  });

  it('a field repeated past graphql\'s merge budget is refused naming that budget, not "Validation aborted."', async () => {
    const repeated = (n: number) => gql(stack.apiUrl, `{ ${'__typename '.repeat(n)}}`);
    const over = await repeated(1000);
    // Refused like the other limits: GraphQL over HTTP answers a validation error in application/json with a 200.
    const aliases = await gql(stack.apiUrl, aliased(150, '__typename'));
    expect(aliases.errors).toEqual([
      { message: 'query has 150 aliases, at most 100', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    ]);
    expect(over.status).toBe(aliases.status);
    expect(over.errors).toEqual([{ message: TOO_REPETITIVE, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
    expect(TOO_REPETITIVE).toContain(`at most ${MAX_MERGE_STEPS}`);
    // 700 copies fit: the budget, not the repetition itself, refuses.
    expect((await repeated(700)).data).toEqual({ __typename: 'Query' });
  });

  it('bounds the document before validating it: tokens, and the URL of a GET', async () => {
    const long = await gql(stack.apiUrl, `{ ${'a '.repeat(5000)} }`);
    expect(long.status).toBe(400);
    expect(long.errors?.[0]?.message).toBe(TOO_LONG);
    const url = `${stack.apiUrl}?query=${encodeURIComponent(`{ ${'engineInfo '.repeat(800)} }`)}`;
    const get = await rawHttp(url);
    expect(get.status).toBe(414);
    expect(get.body).toMatch(`at most ${MAX_URL_BYTES}: send a POST`);
  });
});

describe('GET runs queries and subscriptions, never mutations', () => {
  it('a mutation over GET is refused even with a token, and stores nothing', async () => {
    const q = encodeURIComponent('mutation { startRace(input: { caseId: "A1", runs: 1, scale: 0.01 }) { id } }');
    const res = await rawHttp(`${stack.apiUrl}?query=${q}`, { headers: { authorization: `Bearer ${stack.token}` } });
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body).errors[0].message).toBe('Can only perform a mutation operation from a POST request.');
    expect(await races()).toBe(0);
  });

  it('a query, and a subscription as server-sent events (the dashboard follows races this way)', async () => {
    const query = await rawHttp(`${stack.apiUrl}?query=${encodeURIComponent('{ cases { id } }')}`);
    expect(JSON.parse(query.body).data.cases).toHaveLength(26);
    const sub = encodeURIComponent('subscription { raceProgress(id: "no-such-race") { status } }');
    const events = await rawHttp(`${stack.apiUrl}?query=${sub}`, { headers: { accept: 'text/event-stream' } });
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(events.body).toMatch('race no-such-race not found');
  });
});

describe("browsers: only the dashboard's pages and the API's own", () => {
  const evil = { origin: 'http://evil.example' };

  it('another origin gets no CORS headers: its preflight and its POST are refused', async () => {
    const preflight = await rawHttp(stack.apiUrl, {
      method: 'OPTIONS',
      headers: { ...evil, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const post = await postGql(stack.apiUrl, '{ cases { id } }', evil);
    expect(post.status).toBe(403);
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
    expect(post.data).toBeUndefined();
    const sandboxed = await postGql(stack.apiUrl, '{ cases { id } }', { origin: 'null' });
    expect(sandboxed.status).toBe(403);
  });

  it("the dashboard's origin gets CORS headers without credentials; the API's own page needs none", async () => {
    for (const origin of [DASHBOARD, 'http://localhost:3999']) {
      const preflight = await rawHttp(stack.apiUrl, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      const post = await postGql(stack.apiUrl, '{ cases { id } }', { origin });
      expect(post.headers['access-control-allow-origin']).toBe(origin);
      expect(post.headers['access-control-allow-credentials']).toBeUndefined();
      expect(post.data?.cases).toHaveLength(26);
    }
    const own = await postGql(stack.apiUrl, '{ cases { id } }', { origin: `http://127.0.0.1:${port}` });
    expect(own.data?.cases).toHaveLength(26);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a form cannot post GraphQL, and a cross-site image or script cannot GET it', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const form = await rawHttp(stack.apiUrl, { headers: { 'content-type': type }, body: 'query={cases{id}}' });
      expect(form.status, type).toBe(415);
    }
    const img = await rawHttp(`${stack.apiUrl}?query=${encodeURIComponent('{ isolationMatrix { runs } }')}`, {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', accept: 'image/*' },
    });
    expect(img.status).toBe(403);
    // A link followed from another site gets the page (GraphiQL), which never runs the query itself.
    const link = await rawHttp(`${stack.apiUrl}?query=${encodeURIComponent('{ cases { id } }')}`, {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    });
    expect(link.status).toBe(200);
    expect(link.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('names: the API answers to its own, and only its loopback names count as this host', () => {
  it('a Host that is not one of its names is refused before yoga runs', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      const res = await postGql(stack.apiUrl, '{ cases { id } }', { host });
      expect(res.status, host).toBe(421);
      expect(res.error).toMatch(`this API answers to 127.0.0.1:${port}, localhost:${port}, [::1]:${port}`);
    }
    // Node refuses a request without a Host itself.
    expect((await postGql(stack.apiUrl, '{ cases { id } }', { host: '' })).status).toBe(400);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await postGql(stack.apiUrl, '{ cases { id } }', { host })).data?.cases, host).toHaveLength(26);
    }
  });

  it('a name rebound to 127.0.0.1 reads nothing without a token, even when allowed', async () => {
    const anonymous = await postGql(stack.apiUrl, '{ cases { id } }', { host: 'rebound.example' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.error).toBe('reads from other hosts need an API token too');
    const withToken = await postGql(stack.apiUrl, '{ cases { id } }', {
      host: 'rebound.example',
      authorization: `Bearer ${stack.token}`,
    });
    expect(withToken.data?.cases).toHaveLength(26);
  });

  it('Chromium, with evil.example resolving to 127.0.0.1, gets a refusal, not the API', async () => {
    const page = await browser.newPage();
    try {
      const res = await page.goto(`http://evil.example:${port}/graphql`);
      expect(res?.status()).toBe(421);
      expect(await page.textContent('body')).toMatch('this API answers to');
    } finally {
      await page.close();
    }
  });
});

describe('NUL bytes and tokens', () => {
  it('a NUL byte in variables, operationName or the query is refused with a 400, and nothing is stored', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await rawHttp(stack.apiUrl, {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(res.body).errors[0].message).toBe(NUL_REFUSED);
    };
    await refused({ query: START, variables: { input: { caseId: 'A\u00001', runs: 1, scale: 0.01 } } });
    await refused({ query: START, variables: { input: { 'caseId\u0000': 'A1' } } });
    await refused({ query: '{ race(id: "a") { id } }', operationName: 'a\u0000' });
    await refused({ query: 'mutation { cancelRace(id: "a\\u0000b") { id } }' });
    await refused({ query: '{ race(id: "a\u0000b") { id } }' });
    expect(await races()).toBe(0);
  });

  it('a wrong token is told it is not recognised, even on a read from this host; no token is told it needs one', async () => {
    for (const authorization of ['Bearer rl_not_a_token_we_issued', 'Basic dXNlcjpwYXNz', 'Bearer x']) {
      const read = await postGql(stack.apiUrl, '{ cases { id } }', { authorization });
      expect(read.status, authorization).toBe(401);
      expect(read.error, authorization).toMatch(NOT_RECOGNISED);
    }
    const none = await gql(stack.apiUrl, START, { input: { caseId: 'A1', runs: 1, scale: 0.01 } });
    expect(none.errors?.[0]?.message).toBe('this needs an API token: send Authorization: Bearer <token>');
    expect(await races()).toBe(0);
  });
});

describe('GraphiQL and errors', () => {
  it('GraphiQL renders in Chromium with no request leaving 127.0.0.1', async () => {
    const context = await browser.newContext();
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    try {
      const page = await context.newPage();
      const introspected = page.waitForResponse(
        (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('__schema'),
      );
      await page.goto(stack.apiUrl);
      expect((await introspected).status()).toBe(200);
      await page.locator('.graphiql-execute-button').waitFor();
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an unexpected error is "Unexpected error." with an id in development too, and the real one is logged under it', async () => {
    await stack.sql('ALTER TABLE "Race" RENAME TO "Race_hidden"');
    try {
      const res = await rawHttp(stack.apiUrl, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ races { edges { node { id } } } }' }),
      });
      const error = JSON.parse(res.body).errors[0];
      expect(error.message).toBe('Unexpected error.');
      expect(error.extensions).toEqual({
        code: 'INTERNAL_SERVER_ERROR',
        errorId: expect.stringMatching(/^[0-9a-f]{8}$/),
      });
      expect(res.body).not.toMatch(/originalError|stack|Race_hidden|prisma|\.ts:\d+|\/work\//i);
      const log = stack.api.output.join('');
      expect(log).toMatch(
        new RegExp(`unexpected error ${error.extensions.errorId} \\(GraphQL\\):[^]*public\\.Race.*does not exist`),
      );
    } finally {
      await stack.sql('ALTER TABLE "Race_hidden" RENAME TO "Race"');
    }
  });

  it('in production GraphiQL is off unless API_GRAPHIQL=1, and a browser is told so', async () => {
    await stopProc(stack.api);
    stack.env.NODE_ENV = 'production';
    await stack.startApi();
    const page = await rawHttp(stack.apiUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.body).toMatch('GraphiQL is off: it is not served in production unless <code>API_GRAPHIQL=1</code>');
    expect((await gql(stack.apiUrl, '{ cases { id } }')).data).toHaveProperty('cases');
  });
});
