/**
 * Debian's Chromium driven by playwright-core (no browser download): one page per test, every
 * console error and uncaught page error collected, and screenshots saved under var/screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const SCREENSHOTS = resolve(import.meta.dirname, '../../../../var/screenshots');

/** `extraArgs` go to Chromium as they are (e.g. `--host-resolver-rules` to give loopback another name). */
export async function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      ...extraArgs,
    ],
  });
}

export interface TestPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  shot(name: string): Promise<void>;
}

/**
 * A page in a browser context of its own, signed in as a person signs in: it opens the sign-in link `npm start`
 * printed (given as `loginLink`), and lands on the races.
 */
export async function openPage(browser: Browser, baseURL: string, loginLink?: string): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  mkdirSync(SCREENSHOTS, { recursive: true });
  if (loginLink) {
    await page.goto(loginLink);
    await page.waitForURL('**/races');
  }
  return {
    page,
    errors,
    shot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
  };
}
