/**
 * A form that cannot be used says why, in a real Chromium against the product as `npm start` runs it with no S3
 * bucket configured: the /store page's probe form is disabled (its location, numbers and button) and says that
 * LAB_S3_BUCKETS is not set, rather than looking usable and refusing after a submit; and a submit button that
 * waits for input (the history's) says what it waits for, until it is given.
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

describe('forms say why they cannot be used', () => {
  it('/store with no bucket configured: the probe form is disabled and names LAB_S3_BUCKETS', async () => {
    const { page } = tab;
    await page.goto('/store');
    const blocked = page.getByTestId('probe-form-blocked');
    // While the buckets are read the form is held too ("reading the configured buckets…"); then it says why.
    await expect
      .poll(() => blocked.textContent())
      .toMatch(/^No S3 bucket is configured on the API: set LAB_S3_BUCKETS/);
    const location = page.getByLabel('S3 location');
    const button = page.getByRole('button', { name: 'Probe the store' });
    expect(await location.isDisabled()).toBe(true);
    expect(await page.getByLabel('Rounds').isDisabled()).toBe(true);
    expect(await button.isDisabled()).toBe(true);
    // The form carries the reason as its description, for a screen reader too.
    const describedBy = await page.locator('form', { has: location }).getAttribute('aria-describedby');
    expect(describedBy).toBe(await blocked.getAttribute('id'));
    await tab.shot('store-no-bucket');
    expect(tab.errors).toEqual([]);
  });

  it("/history's button says what it waits for, and is pressable once a table is named", async () => {
    const { page } = tab;
    await page.goto('/history');
    const button = page.getByRole('button', { name: 'Read the history' });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    const why = page.getByTestId('disabled-why');
    expect(await why.textContent()).toBe('name a table first');
    expect(await button.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
    await page.getByLabel('Table location').fill('own/t');
    await expect.poll(() => button.isDisabled()).toBe(false);
    expect(await why.count()).toBe(0);
    expect(tab.errors).toEqual([]);
  });
});
