/**
 * The code audit on the /audit page, in a real Chromium against the product as `npm start` runs it: a folder
 * under LAB_ROOTS audited by its path, an archive chosen in the file input and uploaded through the dashboard's
 * /api/uploads/code (which takes only the dashboard's signed-in pages and archives' types), the findings by file
 * with their code line, and the past code audits.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { type Zippable, zipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SQL as SQL, TEAM_SQL_LINES as SQL_LINES } from '../../../fixtures/team-sql';
import { launch, openPage, type TestPage } from './helpers/browser';
import { type E2eStack, signInCookie, startE2eStack } from './helpers/stack';

let stack: E2eStack;
let browser: Browser;
let tab: TestPage;
beforeAll(async () => {
  stack = await startE2eStack();
  mkdirSync(join(stack.roots, 'team-code', 'jobs'), { recursive: true });
  writeFileSync(join(stack.roots, 'team-code', 'jobs', 'daily.sql'), SQL);
  browser = await launch();
  tab = await openPage(browser, stack.webUrl, stack.loginLink);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the code audit on /audit', () => {
  it('audits a folder by its path and lists it among the past code audits', async () => {
    const { page } = tab;
    await page.goto('/audit');
    await page.getByLabel('A folder under LAB_ROOTS').fill('team-code');
    await page.getByRole('button', { name: 'Audit folder' }).click();
    const view = page.getByTestId('code-audit');
    await view.waitFor();
    expect(await view.textContent()).toContain('team-code');
    const rows = page.getByTestId('code-audit-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('team-code');
  });

  it('shows the finding at file:line with its code line, the value marked', async () => {
    const { page } = tab;
    await page.goto('/audit');
    await page.getByLabel('A folder under LAB_ROOTS').fill('team-code');
    await page.getByRole('button', { name: 'Audit folder' }).click();
    const view = page.getByTestId('code-audit');
    await view.waitFor();
    expect(await view.getByTestId('code-scanned').textContent()).toBe('1');
    const finding = view.locator('[data-testid=code-finding][data-rule=unknown-conf-key]');
    expect(await finding.getAttribute('data-at')).toBe('jobs/daily.sql:5');
    expect(await finding.getByTestId('code-line').textContent()).toBe(SQL_LINES[4]);
    expect(await finding.locator('mark').textContent()).toBe('Serializable');
    await tab.shot('audit-code');
  });

  it('uploads an archive chosen in the file input and audits it, listing the link it did not unpack', async () => {
    const { page } = tab;
    await page.goto('/audit');
    const zip = zipSync({
      'repo/jobs/daily.sql': new TextEncoder().encode(SQL),
      'repo/link.sql': [new TextEncoder().encode('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    } as Zippable);
    await page
      .locator('input[name=code-archive]')
      .setInputFiles({ name: 'code.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.getByRole('button', { name: 'Upload and audit' }).click();
    const view = page.getByTestId('code-audit');
    await expect
      .poll(async () => (await view.count()) > 0 && (await view.textContent())?.includes('upload code.zip'))
      .toBe(true);
    expect(await view.getByTestId('code-skipped').textContent()).toBe('1');
    expect(await view.getByTestId('code-skipped-file').textContent()).toBe(
      'repo/link.sql: in the archive, a symbolic link: not unpacked',
    );
  });

  it('has seen no console error', () => {
    expect(tab.errors).toEqual([]);
  });
});

describe('/api/uploads/code', () => {
  const url = () => `${stack.webUrl}/api/uploads/code?name=a.zip`;
  const zip = () => new Blob([zipSync({ 'a.sql': new TextEncoder().encode('select 1') }) as Uint8Array<ArrayBuffer>]);

  it('refuses without a session (401), another type (415) and another origin (403)', async () => {
    const cookie = await signInCookie(stack);
    const post = (headers: Record<string, string>) => fetch(url(), { method: 'POST', headers, body: zip() });
    expect((await post({ 'content-type': 'application/zip' })).status).toBe(401);
    expect((await post({ 'content-type': 'text/plain', cookie })).status).toBe(415);
    expect((await post({ 'content-type': 'application/zip', cookie, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    const sent = await post({ 'content-type': 'application/zip', cookie });
    expect(sent.status).toBe(201);
    expect(((await sent.json()) as { upload: string }).upload).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a Content-Length over 50 MB (413) before reading the body', async () => {
    const cookie = await signInCookie(stack);
    const status = await new Promise<number>((done, fail) => {
      const req = request(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/zip', 'content-length': String(50 * 1024 * 1024 + 1), cookie },
      });
      req.on('response', (res) => {
        res.resume();
        done(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', fail);
      // A few bytes of the 50 MB it declares: the answer comes without the rest.
      req.write('PK');
    });
    expect(status).toBe(413);
  });
});
