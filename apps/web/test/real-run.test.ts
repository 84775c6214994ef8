/**
 * A race in the real library from the dashboard, in a real Chromium against the product as `npm start` runs it: the
 * start-race form offers "Run with the real library" with the libraries the server has installed that write the
 * case's format (delta-rs for a Delta case, pyiceberg for an Iceberg one, none for a Postgres case, which says so);
 * A1 started so ends with each writer labelled "real delta-rs 1.6.6" beside its outcome, and a race run without it
 * labels them "emulated delta-rs". A server without the Python side offers no real run and says how to install it.
 * This needs the Python side (`npm run setup:python`); no page may log a console
 * error.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openPage, type TestPage } from './helpers/browser';
import { type E2eStack, startE2eStack } from './helpers/stack';

let stack: E2eStack;
let browser: Browser;
let tab: TestPage;
beforeAll(async () => {
  stack = await startE2eStack();
  browser = await launch();
  tab = await openPage(browser, stack.webUrl, stack.loginLink);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const libraryOptions = () =>
  tab.page.locator('#library option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).textContent));

/** Starts A1 (one run, scale 0.01) from the form as it is set, and waits on the race page until it ends DONE. */
async function startA1(): Promise<string[]> {
  const { page } = tab;
  await page.locator('#runs').fill('1');
  await page.locator('#scale').selectOption('0.01');
  await page.getByRole('button', { name: 'Start race' }).click();
  await page.waitForURL(/\/races\/[0-9a-f-]{36}$/);
  await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
  const labels = page.getByTestId('writer-run');
  await expect.poll(() => labels.count()).toBe(2);
  return labels.allTextContents();
}

describe('a race in the real library', () => {
  it("offers the installed libraries that write the case's format, and says when none does", async () => {
    const { page } = tab;
    await page.goto('/races');
    const select = page.locator('#case');
    await expect.poll(() => select.isEnabled()).toBe(true);
    await select.selectOption('A1');
    const real = page.getByLabel('Run with the real library');
    await real.waitFor();
    expect(await real.isChecked()).toBe(false);
    expect(await page.locator('#library').count()).toBe(0);
    await real.check();
    // Every installed Delta library (delta-rs first), none of another format's.
    await expect.poll(libraryOptions).toContain('delta-rs 1.6.6');
    expect(await libraryOptions()).not.toContain('pyiceberg 0.12.0');
    await select.selectOption('F1');
    await expect.poll(libraryOptions).toEqual(['pyiceberg 0.12.0']);
    await select.selectOption('P1');
    await expect
      .poll(() => page.getByTestId('real-unavailable').textContent())
      .toBe('No real library installed here runs postgres cases.');
    expect(await page.getByTestId('real-run').count()).toBe(0);
  });

  it('A1 run with the real library labels each writer real delta-rs 1.6.6 beside its outcome', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.locator('#case').selectOption('A1');
    await page.getByLabel('Run with the real library').check();
    await page.locator('#library').selectOption('delta-rs');
    expect(await startA1()).toEqual(['real delta-rs 1.6.6', 'real delta-rs 1.6.6']);
    expect(await page.getByTestId('real-library').textContent()).toBe(' · in the real delta-rs');
    expect(await page.locator('[data-testid=writer-run][data-run=REAL]').count()).toBe(2);
    await tab.shot('race-real-delta-rs');
  });

  it('A1 run without it labels each writer emulated delta-rs', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.locator('#case').selectOption('A1');
    expect(await startA1()).toEqual(['emulated delta-rs', 'emulated delta-rs']);
    expect(await page.getByTestId('real-library').count()).toBe(0);
    expect(tab.errors).toEqual([]);
  });
});

describe('a server without the Python side', () => {
  let bare: E2eStack;
  let bareTab: TestPage;
  beforeAll(async () => {
    bare = await startE2eStack({}, { RACELAB_PYTHON: '/opt/racelab-test/no-such-venv/bin/python' });
    bareTab = await openPage(browser, bare.webUrl, bare.loginLink);
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('offers no real run, and says the command that installs it', async () => {
    const { page } = bareTab;
    await page.goto('/races');
    await page.locator('#case').selectOption('A1');
    const note = page.getByTestId('real-unavailable');
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      /^The real libraries \(delta-rs, pyiceberg[^)]*\) are not installed on this server: npm run setup:python installs them;/,
    );
    expect(await page.getByTestId('real-run').count()).toBe(0);
    expect(bareTab.errors).toEqual([]);
  });
});
