/**
 * Dashboard sessions over the API's /session, with a real API and worker on a real Postgres: the sign-in
 * link (only the current one) and an API token each make a session; a session runs what its token would,
 * and what it starts records who; sign-out, expiry and revoking the token behind it end it at once, on
 * every API process; sessions and links are stored only as hashes.
 */
import { findFreePort } from '@racelab/pg-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignInLink } from '../src/auth/sessions';
import { createPrisma, type Db } from '../src/db/prisma';
import { gql } from './helpers/client';
import { type Proc, printed, type Stack, spawnTs, startStack, stopProc } from './helpers/stack';

let stack: Stack;
let db: Db;
let base: string;

beforeAll(async () => {
  stack = await startStack();
  db = createPrisma(stack.url, 1);
  base = stack.apiUrl.replace(/\/graphql$/, '');
});
afterAll(async () => {
  await db?.$disconnect();
  await stack?.stop();
});

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

async function session(method: string, init: { body?: unknown; secret?: string } = {}, at = base): Promise<Answer> {
  const res = await fetch(`${at}/session`, {
    method,
    headers: {
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...(init.secret && { authorization: `Session ${init.secret}` }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** The `login` secret of a link made as `npm start` makes it. */
async function currentLink(): Promise<string> {
  const link = new URL(await newSignInLink(db, 'http://127.0.0.1:3000'));
  expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:3000/');
  return link.searchParams.get('login') as string;
}

const VIEWER = '{ viewer { kind id label via tokenId description } }';
const START =
  'mutation { startRace(input: {caseId: "B1", runs: 1, scale: 0.01}) { id startedBy { kind id via label } } }';

describe('signing in', () => {
  it('the current link makes a session that runs mutations and is recorded on what it starts', async () => {
    const login = await currentLink();
    const made = await session('POST', { body: { link: login } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ via: 'link', label: 'the sign-in link' });
    const secret = made.body?.session as string;
    expect(secret).toMatch(/^rl_session_[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(made.body?.expiresAt as string) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const who = await gql<{ viewer: Record<string, unknown> }>(stack.apiUrl, VIEWER, {}, { session: secret });
    expect(who.data?.viewer).toMatchObject({ kind: 'session', id: made.body?.id, via: 'link', tokenId: null });
    const started = await gql<{ startRace: { id: string; startedBy: unknown } }>(
      stack.apiUrl,
      START,
      {},
      { session: secret },
    );
    expect(started.data?.startRace.startedBy).toEqual({
      kind: 'session',
      id: made.body?.id,
      via: 'link',
      label: 'the sign-in link',
    });
    const raceId = started.data?.startRace.id as string;
    const cancelled = await gql<{ cancelRace: { cancelledBy: { kind: string; id: string } } }>(
      stack.apiUrl,
      `mutation { cancelRace(id: "${raceId}") { cancelledBy { kind id } } }`,
      {},
      stack.token,
    );
    expect(cancelled.data?.cancelRace.cancelledBy.kind).toBe('token');

    // Stored only as hashes: neither secret appears in the database.
    const rows = await stack.sql<{ row: string }>(
      `SELECT row_to_json(s)::text AS row FROM "DashboardSession" s UNION ALL SELECT row_to_json(l)::text FROM "DashboardLink" l`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const { row } of rows) {
      expect(row).not.toContain(secret);
      expect(row).not.toContain(login);
    }
  });

  it('a link from an earlier start signs nobody in', async () => {
    const old = await currentLink();
    await currentLink();
    const refused = await session('POST', { body: { link: old } });
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.body)).toMatch(/not the current one/);
  });

  it('refuses a body that is neither a link nor a token, and a wrong token', async () => {
    for (const body of [{}, { link: '' }, { link: 1 }, { password: 'x' }, { link: 'a', token: 'b' }, []]) {
      expect((await session('POST', { body })).status, JSON.stringify(body)).toBe(400);
    }
    const wrong = await session('POST', { body: { token: 'rl_not_a_token_at_all_000000' } });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).toMatch(/API token is not recognised/);
  });
});

describe('ending a session', () => {
  it('sign-out ends it: the API then refuses it, for reads too', async () => {
    const secret = (await session('POST', { body: { link: await currentLink() } })).body?.session as string;
    expect((await session('GET', { secret })).status).toBe(200);
    expect((await session('DELETE', { secret })).status).toBe(204);
    expect((await session('GET', { secret })).status).toBe(401);
    const read = await gql(stack.apiUrl, '{ cases { id } }', {}, { session: secret });
    expect(read.status).toBe(401);
    expect(read.errors?.[0]?.message).toMatch(/^session not recognised/);
    expect((await session('DELETE', { secret })).status).toBe(401);
  });

  it('an expired session is refused', async () => {
    const made = await session('POST', { body: { link: await currentLink() } });
    await stack.sql(`UPDATE "DashboardSession" SET "expiresAt" = now() - interval '1 second' WHERE id = $1`, [
      made.body?.id,
    ]);
    expect((await session('GET', { secret: made.body?.session as string })).status).toBe(401);
  });

  it('revoking a token ends at once, on every API process, the token and the sessions signed in with it', async () => {
    // A second API process on the same database: each must see the revocation on its next request.
    const port = await findFreePort();
    const second: Proc = spawnTs('src/main.ts', { ...stack.env, API_PORT: String(port) });
    try {
      await printed(second, /API on http/);
      const apis = [base, `http://127.0.0.1:${port}`];
      const token = 'rl_revoked_soon_0123456789abcdefghij';
      await stack.sql(
        `INSERT INTO "ApiToken" (id, label, hash) VALUES ('t-revoke', 'laptop', encode(sha256($1::bytea), 'hex'))`,
        [token],
      );
      const made = await session('POST', { body: { token } });
      expect(made.body).toMatchObject({ via: 'token', label: 'laptop' });
      const secret = made.body?.session as string;
      const linked = (await session('POST', { body: { link: await currentLink() } })).body?.session as string;
      for (const api of apis) {
        const viewer = await gql<{ viewer: { tokenId: string } }>(`${api}/graphql`, VIEWER, {}, { session: secret });
        expect(viewer.data?.viewer.tokenId).toBe('t-revoke');
        expect((await gql(`${api}/graphql`, VIEWER, {}, token)).status).toBe(200);
      }
      await stack.sql(`DELETE FROM "ApiToken" WHERE id = 't-revoke'`);
      for (const api of apis) {
        expect((await gql(`${api}/graphql`, VIEWER, {}, token)).status).toBe(401);
        expect((await gql(`${api}/graphql`, VIEWER, {}, { session: secret })).status).toBe(401);
        // A session signed in with the link is not the token's: it goes on.
        expect((await gql(`${api}/graphql`, VIEWER, {}, { session: linked })).status).toBe(200);
      }
    } finally {
      await stopProc(second);
    }
  });
});
