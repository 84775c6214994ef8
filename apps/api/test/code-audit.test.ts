/**
 * The code audit through the API, over real HTTP against the real API on a real Postgres: a folder under
 * LAB_ROOTS named by its path, and archives uploaded to /uploads/code (refused by size before the body is
 * read, by type, without a token) then audited with `auditCode(upload:)`; what is stored, who ran it, the
 * code line beside each finding, and that nothing is left in the scratch folders.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { type Zippable, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SQL as SQL, TEAM_SQL_LINES as SQL_LINES } from '../../../fixtures/team-sql';
import { gql } from './helpers/client';
import { rawHttp } from './helpers/raw-http';
import { type Stack, startStack } from './helpers/stack';

const text = (s: string) => new TextEncoder().encode(s);

const RESULT = `id source failed auditedAt startedBy { kind label }
  settings { file line column key value kind }
  findings { rule severity evidence fix at { file line column snippet } related { file line snippet } }
  files { scanned skipped { file reason } unparseable { file line message } }`;
const AUDIT = `mutation($path: String, $upload: ID) { auditCode(path: $path, upload: $upload) { ${RESULT} } }`;

interface Place {
  file: string;
  line: number;
  column: number;
  snippet: string | null;
}
interface Result {
  id: string;
  source: string;
  failed: boolean;
  startedBy: { kind: string; label: string } | null;
  settings: { file: string; line: number; column: number; key: string; value: string | null; kind: string }[];
  findings: { rule: string; at: Place; related: Place[] }[];
  files: { scanned: number; skipped: { file: string; reason: string }[]; unparseable: unknown[] };
}

let stack: Stack;
let work: string;
let uploadUrl: string;
beforeAll(async () => {
  const varTmp = resolve(import.meta.dirname, '../../../var/tmp');
  mkdirSync(varTmp, { recursive: true });
  work = mkdtempSync(join(varTmp, 'racelab-code-audit-work-'));
  stack = await startStack({ LAB_WORK_DIR: work });
  uploadUrl = new URL('/uploads/code', stack.apiUrl).href;
  const code = join(stack.dir, 'tables', 'team-code');
  mkdirSync(join(code, 'jobs'), { recursive: true });
  writeFileSync(join(code, 'jobs', 'daily.sql'), SQL);
  writeFileSync(join(code, 'README.md'), 'How the jobs run.\n');
});
afterAll(async () => {
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const audit = (variables: Record<string, unknown>, token: string | { session: string } = stack.token) =>
  gql<{ auditCode: Result }>(stack.apiUrl, AUDIT, variables, token);

async function upload(body: Uint8Array, type = 'application/zip', headers: Record<string, string> = {}) {
  const res = await fetch(`${uploadUrl}?name=code.zip`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: `Bearer ${stack.token}`, ...headers },
    body: new Blob([body as Uint8Array<ArrayBuffer>]),
  });
  return { status: res.status, body: (await res.json()) as { upload?: string; errors?: { message: string }[] } };
}

const uploadsLeft = () => (existsSync(join(work, 'uploads')) ? readdirSync(join(work, 'uploads')) : []);
const scratchLeft = () => (existsSync(join(work, 'code-audits')) ? readdirSync(join(work, 'code-audits')) : []);

describe('a folder under LAB_ROOTS', () => {
  it('is audited, stored with who ran it, and shown by the path as given', async () => {
    const r = await audit({ path: 'team-code/' });
    expect(r.errors).toBeUndefined();
    const result = r.data?.auditCode as Result;
    expect(result.source).toBe('team-code');
    expect(result.startedBy).toEqual({ kind: 'token', label: expect.any(String) });
    const rows = await stack.sql<{ source: string; failed: boolean; startedBy: { kind: string } }>(
      `SELECT source, failed, "startedBy" FROM "CodeAudit" WHERE id = $1`,
      [result.id],
    );
    expect(rows).toEqual([
      { source: 'team-code', failed: result.failed, startedBy: expect.objectContaining({ kind: 'token' }) },
    ]);
    const listed = await gql<{ codeAudits: { id: string }[]; codeAudit: { source: string } }>(
      stack.apiUrl,
      `query($id: ID!) { codeAudits(first: 5) { id } codeAudit(id: $id) { source } }`,
      { id: result.id },
    );
    expect(listed.data?.codeAudits.map((a) => a.id)).toContain(result.id);
    expect(listed.data?.codeAudit.source).toBe('team-code');
    expect(JSON.stringify(r)).not.toContain(stack.dir);
  });

  it('finds the isolation level at its line and column, and the unknown conf key with its code line', async () => {
    const result = (await audit({ path: 'team-code' })).data?.auditCode as Result;
    // The README is no kind of file the audit reads: only the .sql file counts as scanned.
    expect(result.files.scanned).toBe(1);
    const line3 = SQL_LINES[2] as string;
    expect(result.settings).toContainEqual({
      file: 'jobs/daily.sql',
      line: 3,
      column: line3.indexOf("'WriteSerializable'") + 1,
      key: 'delta.isolationLevel',
      value: 'WriteSerializable',
      kind: 'table-property',
    });
    const unknown = result.findings.find((f) => f.rule === 'unknown-conf-key');
    expect(unknown?.at).toMatchObject({ file: 'jobs/daily.sql', line: 5, snippet: SQL_LINES[4] });
  });

  it('refuses a path outside the roots, with .., missing or not given, as BAD_USER_INPUT naming no server folder', async () => {
    for (const [variables, message] of [
      [{ path: '../outside' }, "path: '..' is not allowed in a folder"],
      [{ path: '/etc' }, "path: '/etc' is not inside"],
      [{ path: 'team-code/nothing' }, "path: 'team-code/nothing' does not exist"],
      [{}, 'give exactly one of path and upload'],
      [{ path: 'team-code', upload: 'x' }, 'give exactly one of path and upload'],
    ] as const) {
      const r = await audit(variables);
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message).toContain(message);
      expect(r.errors?.[0]?.message).not.toContain(stack.dir);
    }
  });

  it('needs a token, and runs once per request', async () => {
    const r = await gql(stack.apiUrl, AUDIT, { path: 'team-code' });
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const twice = await gql(
      stack.apiUrl,
      'mutation { a: auditCode(path: "team-code") { id } b: auditCode(path: "team-code") { id } }',
      {},
      stack.token,
    );
    expect(twice.errors?.[0]?.message).toBe(
      'query calls auditCode 2 times, at most 1 per request: send them separately',
    );
  });
});

describe('an uploaded archive', () => {
  it('is refused by its Content-Length over 50 MB before the body is read', async () => {
    const r = await rawHttp(uploadUrl, {
      headers: {
        'content-type': 'application/zip',
        'content-length': String(50 * 1024 * 1024 + 1),
        authorization: `Bearer ${stack.token}`,
      },
      body: 'PK',
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).errors[0]).toEqual({
      message: 'archive of 52428801 bytes; at most 52428800',
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(uploadsLeft()).toEqual([]);
  });

  it('is refused to a client that asks before sending (Expect: 100-continue), which then never sends it', async () => {
    const answer = await new Promise<{ status: number; continued: boolean }>((done, fail) => {
      let continued = false;
      const req = request(uploadUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/zip',
          'content-length': String(60 * 1024 * 1024),
          expect: '100-continue',
          authorization: `Bearer ${stack.token}`,
        },
      });
      req.on('continue', () => {
        continued = true;
        req.destroy();
      });
      req.on('response', (res) => {
        res.resume();
        done({ status: res.statusCode ?? 0, continued });
        req.destroy();
      });
      req.on('error', (e) => (continued ? done({ status: 0, continued }) : fail(e)));
      req.flushHeaders();
    });
    expect(answer).toEqual({ status: 413, continued: false });
  });

  it('is refused with a wrong type (415), without a token or with an unknown one (401), and from another site (403)', async () => {
    const zip = zipSync({ 'a.sql': text('select 1') });
    expect((await upload(zip, 'text/plain')).status).toBe(415);
    expect((await upload(zip, 'application/json')).status).toBe(415);
    const anonymous = await fetch(uploadUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: new Blob([zip as Uint8Array<ArrayBuffer>]),
    });
    expect(anonymous.status).toBe(401);
    expect(
      ((await anonymous.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
    ).toBe('UNAUTHENTICATED');
    expect((await upload(zip, 'application/zip', { authorization: 'Bearer rl_not_a_token_000000' })).status).toBe(401);
    expect((await upload(zip, 'application/zip', { origin: 'https://evil.example' })).status).toBe(403);
    expect(uploadsLeft()).toEqual([]);
  });

  it('is audited once, its links listed as not unpacked, and nothing is left behind', async () => {
    const zip = zipSync({
      'repo/jobs/daily.sql': text(SQL),
      'repo/link.sql': [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    } as Zippable);
    const sent = await upload(zip);
    expect(sent.status).toBe(201);
    const id = sent.body.upload as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const r = await audit({ upload: id });
    expect(r.errors).toBeUndefined();
    const result = r.data?.auditCode as Result;
    expect(result.source).toBe('upload code.zip');
    expect(result.files.skipped).toContainEqual({
      file: 'repo/link.sql',
      reason: 'in the archive, a symbolic link: not unpacked',
    });
    expect(uploadsLeft()).toEqual([]);
    expect(scratchLeft()).toEqual([]);
    const again = await audit({ upload: id });
    expect(again.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(again.errors?.[0]?.message).toContain('an upload is audited once, within the hour');
  });

  it('removes uploads older than an hour when a new one arrives, and keeps younger ones', async () => {
    const dir = join(work, 'uploads');
    mkdirSync(dir, { recursive: true });
    const [old, young] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    for (const id of [old, young]) writeFileSync(join(dir, id), 'PK');
    const hours = (h: number) => new Date(Date.now() - h * 3600_000);
    utimesSync(join(dir, old), hours(1.1), hours(1.1));
    utimesSync(join(dir, young), hours(0.9), hours(0.9));
    const sent = await upload(zipSync({ 'a.sql': text('select 1') }));
    expect(uploadsLeft().sort()).toEqual([young, sent.body.upload, `${sent.body.upload}.json`].sort());
    rmSync(join(dir, young));
    await audit({ upload: sent.body.upload });
    expect(uploadsLeft()).toEqual([]);
  });

  it('refuses an archive with a .. entry as ARCHIVE_REFUSED, leaving nothing behind', async () => {
    const sent = await upload(zipSync({ 'ok.sql': text('select 1'), '../evil.sql': text('boom') }));
    const r = await audit({ upload: sent.body.upload });
    expect(r.errors?.[0]).toMatchObject({
      message: "entry '../evil.sql' has a '..' segment, leading out of the archive",
      extensions: { code: 'ARCHIVE_REFUSED', refusal: 'entry-name' },
    });
    expect(existsSync(join(work, 'evil.sql'))).toBe(false);
    expect(uploadsLeft()).toEqual([]);
    expect(scratchLeft()).toEqual([]);
  });

  it('takes a dashboard session as well as a token, recorded as who ran the audit', async () => {
    const signIn = await fetch(new URL('/session', stack.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: stack.token }),
    });
    const secret = ((await signIn.json()) as { session: string }).session;
    const sent = await upload(zipSync({ 'a.sql': text('select 1') }), 'application/gzip', {
      authorization: `Session ${secret}`,
    });
    // Sent as gzip, it is read as a .tar.gz: a zip is not one.
    expect(sent.status).toBe(201);
    const refused = await audit({ upload: sent.body.upload }, { session: secret });
    expect(refused.errors?.[0]?.extensions?.code).toBe('ARCHIVE_REFUSED');
    expect(refused.errors?.[0]?.message).toMatch(/^the archive is not a readable \.tar\.gz/);
    const zipped = await upload(zipSync({ 'a.sql': text('select 1') }), 'application/zip', {
      authorization: `Session ${secret}`,
    });
    const r = await audit({ upload: zipped.body.upload }, { session: secret });
    expect(r.data?.auditCode.startedBy?.kind).toBe('session');
  });
});
