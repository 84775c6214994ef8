/**
 * Who may run what, field by field, over real HTTP against the real API process: every field of the
 * served schema's Mutation type, called without a token, is refused and changes no row; every field
 * of Query and Subscription, called without a token from another host (an allowed name that is not
 * loopback), is refused. The fields are read from the built schema, so one added later is walked too.
 */
import { request } from 'node:http';
import {
  astFromValue,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isRequiredInputField,
  print,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema';
import { rawHttp } from './helpers/raw-http';
import { type Stack, startStack } from './helpers/stack';

const OTHER_HOST = 'rebound.example';
const NEEDS_TOKEN = 'this needs an API token: send Authorization: Bearer <token>';
const READS_NEED_TOKEN = 'reads from other hosts need an API token too';
/** A queued race with one event and a queued sweep, neither with a job, so no worker takes them: what ID arguments name. */
const RACE_ID = '00000000-0000-4000-8000-0000000000a1';

/**
 * Arguments that would make these mutations store something if they ran: a race, an audit, a jobs
 * audit (a cancel gets the queued race through its ID). Any other argument gets a minimal value of its type.
 */
const EFFECTIVE: Record<string, Record<string, unknown>> = {
  startRace: { input: { caseId: 'A1', runs: 1, scale: 0.01 } },
  startSweep: { input: { writers: [1], commitsPerWriter: 1, operation: 'append-row' } },
  auditTables: { locations: ['lab:flat@0.01'] },
  auditJobs: {
    manifest:
      'jobs:\n  - name: a\n    table: lab:flat@0.01\n    engine: delta-rs 1.6.6\n    operation: update\n    predicate: VendorID = 1\n',
  },
};

/** A minimal value of `type`: required input fields only, one list element, the first enum value. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter(isRequiredInputField)
        .map((f) => [f.name, sample(f.type)]),
    );
  return { ID: RACE_ID, Int: 1, Float: 0.01, Boolean: false }[type.name] ?? 'x';
}

/** `field` called with its required arguments written as literals, so validation checks them before anything runs. */
function call(field: GraphQLField<unknown, unknown>): string {
  const given = EFFECTIVE[field.name] ?? {};
  const args = field.args
    .filter((a) => isNonNullType(a.type) || a.name in given)
    .map((a) => {
      const literal = astFromValue(a.name in given ? given[a.name] : sample(a.type), a.type);
      if (!literal) throw new Error(`no literal for ${field.name}(${a.name})`);
      return `${a.name}: ${print(literal)}`;
    });
  const selection = isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${selection}`;
}

const fieldsOf = (type: GraphQLObjectType | null | undefined) => Object.values(type?.getFields() ?? {});
const MUTATIONS = fieldsOf(schema.getMutationType());
const QUERIES = fieldsOf(schema.getQueryType());
const SUBSCRIPTIONS = fieldsOf(schema.getSubscriptionType());

interface Answer {
  status: number;
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}

let stack: Stack;
let port: string;
beforeAll(async () => {
  stack = await startStack({ API_ALLOWED_HOSTS: OTHER_HOST });
  port = new URL(stack.apiUrl).port;
  await stack.sql(
    `INSERT INTO "Race" (id, title, spec, "runsRequested", scale) VALUES ($1, 'seeded for the auth walk', '{}', 1, 0.01)`,
    [RACE_ID],
  );
  await stack.sql(`INSERT INTO "RaceEvent" ("raceId", status, message) VALUES ($1, 'QUEUED', 'queued')`, [RACE_ID]);
  await stack.sql(`INSERT INTO "Sweep" (id, input, total) VALUES ($1, '{}', 1)`, [RACE_ID]);
});
afterAll(async () => {
  await stack?.stop();
});

/** `host` absent: sent to 127.0.0.1, which counts as this host. */
async function post(document: string, { host, token }: { host?: string; token?: boolean } = {}): Promise<Answer> {
  const res = await rawHttp(stack.apiUrl, {
    headers: {
      'content-type': 'application/json',
      ...(host && { host }),
      ...(token && { authorization: `Bearer ${stack.token}` }),
    },
    body: JSON.stringify({ query: document }),
  });
  return { status: res.status, ...(JSON.parse(res.body) as Omit<Answer, 'status'>) };
}

/** The first result of a subscription's event stream; the stream is closed once it has come. */
function firstEvent(document: string, host: string): Promise<Omit<Answer, 'status'>> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query: document });
    const req = request(stack.apiUrl, {
      method: 'POST',
      headers: {
        host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        accept: 'text/event-stream',
      },
    });
    req.on('response', (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const data = /^event: next\ndata: (.*)$/m.exec(buffer)?.[1];
        if (data === undefined || !buffer.includes('\n\n')) return;
        req.destroy();
        resolve(JSON.parse(data));
      });
      res.on('end', () => reject(new Error(`the stream ended without a result: ${buffer}`)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every product table's rows, as one digest per table. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await stack.sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await stack.sql<{ d: string }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM "${name}" t`,
    );
    digests[name] = row?.d ?? '';
  }
  return digests;
}

const refused = (answer: Answer, message: string) => {
  expect(answer.status).toBe(401);
  expect(answer.data).toBeUndefined();
  expect(answer.errors).toEqual([{ message, extensions: { code: 'UNAUTHENTICATED' } }]);
};
const notRefused = (answer: Omit<Answer, 'status'>) =>
  expect(answer.errors?.filter((e) => e.extensions?.code === 'UNAUTHENTICATED') ?? []).toEqual([]);

describe('every mutation needs a token', () => {
  it(`refuses each without one, from this host and another, and stores nothing (${MUTATIONS.map((f) => f.name).join(', ')})`, async () => {
    expect(MUTATIONS.map((f) => f.name)).toEqual(
      expect.arrayContaining(['startRace', 'cancelRace', 'auditTables', 'auditJobs']),
    );
    const before = await snapshot();
    for (const field of MUTATIONS) {
      for (const host of [undefined, OTHER_HOST]) {
        const answer = await post(`mutation { ${call(field)} }`, { host });
        refused(answer, NEEDS_TOKEN);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('with the token the same calls run: a race and a sweep queued, the seeded ones cancelled, audits stored', async () => {
    const before = await snapshot();
    for (const field of MUTATIONS) {
      const answer = await post(`mutation { ${call(field)} }`, { token: true });
      notRefused(answer);
      if (field.name in EFFECTIVE || field.name === 'cancelRace' || field.name === 'cancelSweep')
        expect(answer.errors, field.name).toBeUndefined();
    }
    const after = await snapshot();
    for (const table of ['Race', 'RaceEvent', 'Audit', 'JobAudit', 'Sweep'])
      expect(after[table], table).not.toBe(before[table]);
    const [seeded] = await stack.sql<{ status: string }>(`SELECT status FROM "Race" WHERE id = $1`, [RACE_ID]);
    expect(seeded?.status).toBe('CANCELLED');
    const [sweep] = await stack.sql<{ status: string }>(`SELECT status FROM "Sweep" WHERE id = $1`, [RACE_ID]);
    expect(sweep?.status).toBe('CANCELLED');
  });
});

describe('reads from another host need a token; from this host they do not', () => {
  it(`refuses every query without one from ${OTHER_HOST} (${QUERIES.map((f) => f.name).join(', ')})`, async () => {
    expect(QUERIES.map((f) => f.name)).toEqual(expect.arrayContaining(['cases', 'races', 'race', 'engineInfo']));
    for (const field of QUERIES) refused(await post(`{ ${call(field)} }`, { host: OTHER_HOST }), READS_NEED_TOKEN);
    // Introspection is a query like any other.
    refused(await post('{ __schema { queryType { name } } }', { host: OTHER_HOST }), READS_NEED_TOKEN);
  });

  it('answers every query with the token from there, and without one from this host', async () => {
    for (const field of QUERIES) {
      notRefused(await post(`{ ${call(field)} }`, { host: OTHER_HOST, token: true }));
      notRefused(await post(`{ ${call(field)} }`, { host: `localhost:${port}` }));
    }
  });

  it(`refuses every subscription without a token from ${OTHER_HOST} (${SUBSCRIPTIONS.map((f) => f.name).join(', ')})`, async () => {
    expect(SUBSCRIPTIONS.map((f) => f.name)).toContain('raceProgress');
    for (const field of SUBSCRIPTIONS) {
      const document = `subscription { ${call(field)} }`;
      expect(await firstEvent(document, OTHER_HOST)).toEqual({
        errors: [{ message: READS_NEED_TOKEN, extensions: { code: 'UNAUTHENTICATED' } }],
      });
      const local = await firstEvent(document, `127.0.0.1:${port}`);
      expect(local.errors).toBeUndefined();
      expect(local.data).toHaveProperty(field.name);
    }
  });
});
