/**
 * The dashboard in a real Chromium against the real API, worker and Postgres: start a race and
 * watch it end with the lesson's outcome; the verdicts in the list and on a run card; the isolation page flags capital-W WriteSerializable;
 * the playground's predictions, and a pair raced from it in each order measured as predicted; the audit of a
 * WriteSerializable table; a copy of a table of one's own raced from the form (the table itself untouched), and the
 * playground on that kind of table. Every page is screenshotted into var/screenshots, and no page may log a console
 * error.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { field, writeDeltaTable } from '@racelab/engine';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { launch, openPage, type TestPage } from './helpers/browser';
import { type E2eStack, startE2eStack } from './helpers/stack';

const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

let stack: E2eStack;
let browser: Browser;
let tab: TestPage;
/**
 * The Store page's S3 "store": a TCP server of the test's own that closes every connection at once. There is
 * no S3 server here (the probe on radosgw runs in `npm run test:s3`), so the page is drawn from the real
 * report of a probe that could not run; its connections are counted to show the refusals sent none.
 */
let deadStore: Server;
let storeConnections = 0;
const PROBE_BUCKET = 'probe-e2e';

beforeAll(async () => {
  deadStore = createServer((socket) => {
    storeConnections++;
    socket.destroy();
  });
  await new Promise<void>((r) => deadStore.listen(0, '127.0.0.1', r));
  stack = await startE2eStack(
    {},
    {
      LAB_S3_BUCKETS: PROBE_BUCKET,
      AWS_ENDPOINT_URL: `http://127.0.0.1:${(deadStore.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'probe-e2e',
      AWS_SECRET_ACCESS_KEY: 'probe-e2e',
      AWS_REGION: 'us-east-1',
    },
  );
  browser = await launch();
  tab = await openPage(browser, stack.webUrl, stack.loginLink);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((r) => deadStore?.close(r));
});

describe('races', () => {
  it('starts B1 from the form and watches it end: one commits, one fails, with the exact error', async () => {
    const { page } = tab;
    await page.goto('/');
    await page.waitForURL('**/races');
    await page.getByRole('heading', { name: 'Races', level: 1 }).waitFor();
    await page.locator('#case').selectOption('B1');
    await page.locator('#runs').fill('2');
    await page.locator('#scale').selectOption('0.01');
    await page.getByRole('button', { name: 'Start race' }).click();
    await page.waitForURL(/\/races\/[0-9a-f-]{36}$/);
    // Who started it: this browser's session, signed in with the link.
    expect(await page.getByTestId('started-by').textContent()).toMatch(
      /^ by dashboard session [0-9a-f]{8} \(signed in with the sign-in link\)$/,
    );
    await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('outcome-summary').textContent()).toBe('one commits, one fails · 2 of 2');
    const runs = page.getByTestId('run');
    await expect.poll(() => runs.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const run = runs.nth(i);
      expect(await run.locator('[data-testid=writer][data-committed=false]').count()).toBe(1);
      expect(await run.getByTestId('error-message').textContent()).toBe(ADDED);
      expect(await run.getByTestId('zombies').textContent()).toBe('1 zombie file');
      // Who left it, with how many files and bytes, each count with its noun.
      expect(await run.getByTestId('zombies').locator('xpath=..').textContent()).toMatch(
        /left by vendor[12] \(1 file, [\d.]+ [kMG]?B\): written, never committed/,
      );
      // Three segments a writer: open and prepare, the barrier, the change.
      expect(await run.locator(`[data-testid=timeline-${i + 1}] g > rect`).count()).toBe(6);
    }
    await tab.shot('race-detail');
    await page.getByRole('link', { name: '← All races' }).click();
    // The list says the verdict: the table is a serial result in both runs, and the losing update left its rows.
    const row = page.getByTestId('race-row').first();
    await expect
      .poll(() => row.getByTestId('outcome').textContent())
      .toMatch(
        /^data OK in 2 of 2; vendor([12])'s update failed: its [\d,]+ VendorID \1 rows keep their values \([12] of 2\)/,
      );
    await tab.shot('races');
  });

  it("lists the one case list: the lesson's 22 cases, then the store cases; H1 says it needs a table root on S3", async () => {
    const { page } = tab;
    await page.goto('/races');
    const select = page.locator('#case');
    await expect.poll(() => select.isEnabled()).toBe(true);
    const ids = (group: string) =>
      select
        .locator(`optgroup[data-group=${group}] option`)
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(await ids('lesson')).toHaveLength(22);
    expect(await ids('store')).toEqual(['H1', 'G1', 'G2', 'G3']);
    const h1 = select.locator('option[value=H1]');
    expect(await h1.isDisabled()).toBe(true);
    expect(await h1.textContent()).toContain('needs a table root on S3');
    await select.selectOption('G1');
    expect(await page.getByTestId('case-store').textContent()).toContain('the lab wraps any store with that fault');
    await select.selectOption('B1');
  });

  it('shows the problems of a malformed custom race and stores nothing', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.getByLabel('My own writers').check();
    await page.getByLabel('Predicate').first().fill('VendorID = = 1');
    await page.getByRole('button', { name: 'Start race' }).click();
    const refusal = page.locator('.state.failed');
    await refusal.waitFor();
    expect(await refusal.locator('li').allTextContents()).toEqual([
      "writer first: predicate: unexpected '=' at position 12 in predicate",
    ]);
    expect(page.url()).toMatch(/\/races$/);
    expect(await page.getByTestId('race-row').count()).toBe(1);
  });
});

/** Starts a race through the API itself (a preset's id, or the input) and follows its progress until it ends. */
async function raceThroughApi(race: string | Record<string, unknown>): Promise<string> {
  const post = (query: string, variables: Record<string, unknown>, accept = 'application/json') =>
    fetch(stack.apiUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${stack.token}` },
      body: JSON.stringify({ query, variables }),
    });
  const started = (await (
    await post('mutation($i: StartRaceInput!) { startRace(input: $i) { id } }', {
      i: { runs: 1, scale: 0.01, ...(typeof race === 'string' ? { caseId: race } : race) },
    })
  ).json()) as { data: { startRace: { id: string } } };
  const id = started.data.startRace.id;
  const stream = await post('subscription($id: ID!) { raceProgress(id: $id) { status } }', { id }, 'text/event-stream');
  // The server completes the stream when the race ends.
  for await (const _ of stream.body as unknown as AsyncIterable<Uint8Array>);
  const after = (await (await post('query($id: ID!) { race(id: $id) { status } }', { id })).json()) as {
    data: { race: { status: string } };
  };
  expect(after.data.race.status).toBe('DONE');
  return id;
}

describe('verdicts', () => {
  it('the list says "written twice" for E1, in a bad tone, and "data OK" for A1', async () => {
    const e1 = await raceThroughApi('E1');
    const a1 = await raceThroughApi('A1');
    const { page } = tab;
    await page.goto('/races');
    const verdictOf = (id: string) =>
      page
        .getByTestId('race-row')
        .filter({ has: page.locator(`a[href="/races/${id}"]`) })
        .getByTestId('verdict-summary');
    await verdictOf(e1).waitFor();
    expect(await verdictOf(e1).textContent()).toMatch(/^[\d,]+ rows written twice in 1 of 1$/);
    expect(await verdictOf(e1).getAttribute('class')).toContain('bad');
    expect(await verdictOf(a1).textContent()).toBe('data OK in 1 of 1');
    expect(await verdictOf(a1).getAttribute('class')).toContain('ok');
    const twice = (await verdictOf(e1).textContent())?.split(' ')[0];
    await tab.shot('races-verdicts');

    // E1's run card starts with the verdict, then what differs and some of the rows written twice.
    await page.goto(`/races/${e1}`);
    const verdict = page.getByTestId('run').first().getByTestId('verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-status')).toBe('not-serializable');
    expect(
      await verdict.locator('[data-testid=verdict-differences] tr[data-figure=rowsDuplicated] td').textContent(),
    ).toBe(twice);
    expect(await verdict.locator('[data-testid=verdict-examples] tbody tr').count()).toBeGreaterThan(0);
    await tab.shot('race-verdict-e1');
  });

  it("a compaction ‖ delete race whose delete fails says the delete's rows are still there", async () => {
    const id = await raceThroughApi({
      writers: [
        { name: 'compaction', operation: 'optimize' },
        { name: 'gdpr-delete', operation: 'delete', predicate: 'VendorID = 7', startAfter: 'compaction' },
      ],
    });
    const { page } = tab;
    await page.goto(`/races/${id}`);
    const failed = page.getByTestId('run').first().getByTestId('failed-writers');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(
      /gdpr-delete's delete failed: its [\d,]+ VendorID 7 rows are still there/,
    );
  });
});

describe('isolation settings', () => {
  it('shows the measured matrix and flags capital-W WriteSerializable for delta-rs, with the spelling to use', async () => {
    await raceThroughApi('I4');
    await raceThroughApi('I5');
    const { page } = tab;
    await page.goto('/isolation');
    const callout = page.getByTestId('isolation-callout');
    await callout.waitFor();
    expect(await callout.textContent()).toContain(
      "'WriteSerializable' (capital W) is silently ignored by delta-rs 1.2-1.6.x: commits use Serializable. Write 'writeSerializable'.",
    );
    const cell = (value: string) =>
      page.locator(`[data-testid=isolation-matrix] [data-matrix-value="${value}"] [data-blind-append=true]`);
    await cell('WriteSerializable').waitFor();
    expect(await cell('WriteSerializable').getAttribute('data-committed')).toBe('0');
    expect(await cell('writeSerializable').getAttribute('data-committed')).toBe('1');
    await page.getByRole('textbox', { name: 'Try a value' }).fill('WriteSerializable');
    const reading = page.locator(
      '[data-testid=interpretation][data-value=WriteSerializable] tr[data-engine="delta-rs 1.2-1.6.x"]',
    );
    await reading.waitFor();
    expect(await reading.getAttribute('data-outcome')).toBe('SILENTLY_IGNORED');
    expect(await reading.getAttribute('data-flagged')).toBe('true');
    await tab.shot('isolation');
  });

  it('recommends one spelling per level and never flags the value it recommends; an unset level is flagged', async () => {
    // The matrix has rows for writeSerializable (I5) and WriteSerializable (I4) from the test above.
    const { page } = tab;
    await page.goto('/isolation');
    const advice = page.getByTestId('spelling-advice');
    const level = page.getByLabel('The level you mean');
    const recommended: Record<string, string> = {};
    for (const meant of ['Serializable', 'WriteSerializable', 'SnapshotIsolation']) {
      await level.selectOption(meant);
      await page.locator(`[data-testid=spelling-advice][data-level=${meant}]`).waitFor();
      recommended[meant] = (await advice.getAttribute('data-recommended')) ?? '';
      const flags = advice.getByTitle('the author most likely meant something else');
      expect(await flags.count(), meant).toBe(recommended[meant] ? 0 : 1);
      // Delta Spark's DDL refusing the recommended value is a note beside it, not an error in red.
      if (recommended[meant]) expect(await advice.locator('.error-text').count(), meant).toBe(0);
    }
    // Databricks documents no SnapshotIsolation: no one spelling of it, and the page says who differs.
    expect(recommended).toEqual({
      Serializable: 'serializable',
      WriteSerializable: 'writeSerializable',
      SnapshotIsolation: '',
    });
    expect(await advice.textContent()).toContain('Databricks does not accept it');
    await page.getByTestId('isolation-comparison').waitFor();
    await page.locator('[data-testid=isolation-matrix] [data-matrix-value=writeSerializable]').waitFor();
    const unflagged = async (selector: string) => {
      await page.locator(selector).waitFor();
      expect(await page.locator(selector).textContent(), selector).not.toContain('⚑');
    };
    for (const value of ['serializable', 'writeSerializable']) {
      await unflagged(`[data-testid=isolation-comparison] tr[data-compared-value="${value}"]`);
      expect(await page.locator(`[data-flagged-value="${value}"]`).count(), value).toBe(0);
      expect(await page.getByTestId('isolation-callout').textContent()).not.toContain(`'${value}' is`);
      await page.getByRole('textbox', { name: 'Try a value' }).fill(value);
      await unflagged(`[data-testid=interpretation][data-value="${value}"]`);
      expect(await page.locator(`[data-testid=interpretation] [data-flagged=true]`).count(), value).toBe(0);
    }
    await unflagged('[data-testid=isolation-matrix] [data-matrix-value=writeSerializable]');
    // WriteSerializable, capital W, stays flagged (delta-rs ignores it): the page still flags what it should.
    expect(await page.locator('[data-flagged-value=WriteSerializable]').count()).toBe(1);
    const unset = page.getByTestId('unset-advice');
    expect(await unset.getAttribute('data-flagged')).toBe('true');
    expect(await unset.textContent()).toContain('Databricks commits at WriteSerializable');
  });
});

describe('playground', () => {
  /** Picks the table and the two writers; the prediction's data-second-commits once it shows. */
  const predict = async (table: string, first: string, second: string) => {
    const { page } = tab;
    await page.locator('#table-kind').selectOption(table);
    await page.locator('#first-writer').selectOption(first);
    await page.locator('#second-writer').selectOption(second);
    const p = page.getByTestId('prediction');
    await p.waitFor();
    return p.getAttribute('data-second-commits');
  };

  it('draws both layouts and predicts in the browser, with what the lab measured beside', async () => {
    const { page } = tab;
    await page.goto('/playground?scale=0.01');
    await page
      .getByTestId('heatmap-flat')
      .waitFor({ timeout: 20_000 })
      .catch(async (e) => {
        await tab.shot('playground-debug');
        throw e;
      });
    await page.getByTestId('heatmap-partitioned').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('heatmap-flat').getAttribute('aria-label')).toMatch(/VendorID 7 .* in files 1–7/);
    expect(await predict('flat', 'update-6', 'update-7')).toBe('true');
    expect(await predict('flat', 'update-7', 'update-6')).toBe('false');
    expect(await page.getByTestId('prediction').locator('.error-text').textContent()).toBe(ADDED);
    expect(await predict('partitioned', 'update-1', 'update-2')).toBe('true');
    expect(await predict('flat', 'delete-fare', 'delete-distance')).toBe('false');
    await tab.shot('playground');
    // B1 ran twice in the races test above, both updates released together: whichever committed second failed,
    // and the runs are counted under the order they took.
    expect(await predict('flat', 'update-1', 'update-2')).toBe('false');
    await expect
      .poll(() => page.getByTestId('measured-summary').textContent())
      .toMatch(
        /^B1: (2 runs in this order: SECOND failed in 2|1 run in this order: SECOND failed in 1; 1 more ran the other way|no run in this order; 2 ran the other way)[.;]/,
      );
  });

  it('races FIRST then SECOND with its button, and the runs in that order agree with the prediction: 6→7, 7→6', async () => {
    const { page } = tab;
    const measured = page.getByTestId('measured');
    const pairs = [
      { first: 'update-6', second: 'update-7', commits: true, outcome: 'both commit · 3 of 3' },
      { first: 'update-7', second: 'update-6', commits: false, outcome: 'one commits, one fails · 3 of 3' },
    ];
    for (const { first, second, commits, outcome } of pairs) {
      await page.goto('/playground?scale=0.01');
      expect(await predict('flat', first, second)).toBe(String(commits));
      // Before this order is raced, no run is counted in it (7→6: the runs of 6→7 ran the other way).
      await expect.poll(() => measured.getAttribute('data-in-order-runs')).toBe('0');
      await page.getByRole('button', { name: 'Race FIRST then SECOND' }).click();
      await page.waitForURL(/\/races\/[0-9a-f-]{36}$/);
      await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
      await expect.poll(() => page.getByTestId('outcome-summary').textContent()).toBe(outcome);
      await page.goto('/playground?scale=0.01');
      expect(await predict('flat', first, second)).toBe(String(commits));
      await expect.poll(() => measured.getAttribute('data-in-order-runs')).toBe('3');
      // Agrees with the prediction: SECOND committed in every run in this order, or in none.
      expect(await measured.getAttribute('data-in-order-second-committed')).toBe(commits ? '3' : '0');
    }
    expect(await page.getByTestId('measured-summary').textContent()).toBe(
      'custom races: 3 runs in this order: SECOND failed in 3; 3 more ran the other way; the loser saw:',
    );
    expect(await measured.locator('.error-text').textContent()).toBe(ADDED);
    await tab.shot('playground-measured');
    expect(await predict('flat', 'update-6', 'update-7')).toBe('true');
    await expect
      .poll(() => page.getByTestId('measured-summary').textContent())
      .toBe('custom races: 3 runs in this order: SECOND committed in 3; 3 more ran the other way; no writer failed.');
  });
});

/** Every file under `dir` with the SHA-256 of its bytes, by relative path. */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length + 1)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

describe('a table of your own', () => {
  /** A small table of three appends (ids 1–4, 5–8, 9–12), so three files whose id ranges do not overlap. */
  const writeOrders = async (location: string) => {
    const schema = {
      type: 'struct' as const,
      fields: [field('id', 'long'), field('region', 'string'), field('amount', 'double')],
    };
    for (const first of [1, 5, 9]) {
      const rows = [0, 1, 2, 3].map((i) => ({ id: first + i, region: i % 2 === 0 ? 'eu' : 'us', amount: 10 * i }));
      await writeDeltaTable(location, { kind: 'rows', rows, schema }, { mode: 'append' });
    }
  };

  it('races a copy of a non-lab table from the form: two updates, verdicts on the race page, the source untouched', async () => {
    const source = join(stack.roots, 'mine', 'dv-small');
    cpSync(fixture('delta-golden', 'table-with-dv-small'), source, { recursive: true });
    const before = hashes(source);
    const { page } = tab;
    await page.goto('/races');
    await page.getByLabel('My own writers').check();
    await page.getByLabel('A table of your own').check();
    await page.locator('#table-location').fill('mine/dv-small');
    await page.getByLabel('Predicate').nth(0).fill('value < 5');
    await page.getByLabel(/^Set/).nth(0).fill('value = value + 100');
    await page.getByLabel('Predicate').nth(1).fill('value >= 5');
    await page.getByLabel(/^Set/).nth(1).fill('value = value + 1000');
    await page.locator('#runs').fill('2');
    await page.getByRole('button', { name: 'Start race' }).click();
    await page.waitForURL(/\/races\/[0-9a-f-]{36}$/, { timeout: 30_000 }).catch(async (e) => {
      await tab.shot('own-table-race-debug');
      throw e;
    });
    await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
    const runs = page.getByTestId('run');
    await expect.poll(() => runs.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const verdict = runs.nth(i).getByTestId('verdict');
      await verdict.waitFor();
      expect(await verdict.getAttribute('data-status')).toMatch(/^(serializable|reordered|not-serializable)$/);
      // Both updates rewrite the table's one file: whichever commits second conflicts.
      expect(await runs.nth(i).locator('[data-testid=writer][data-committed=true]').count()).toBe(1);
    }
    await tab.shot('own-table-race');
    expect(hashes(source)).toEqual(before);
  });

  it('two deletes that match no rows: warned when submitted, each "matched no rows: nothing to commit", never "failed"', async () => {
    const source = join(stack.roots, 'mine', 'no-match');
    cpSync(fixture('delta-golden', 'table-with-dv-small'), source, { recursive: true });
    const { page } = tab;
    await page.goto('/races');
    await page.getByLabel('My own writers').check();
    await page.getByLabel('A table of your own').check();
    await page.locator('#table-location').fill('mine/no-match');
    for (const [i, predicate] of ['value = 1000', 'value > 99'].entries()) {
      await page.getByLabel('Operation').nth(i).selectOption('delete');
      await page.getByLabel('Predicate').nth(i).fill(predicate);
    }
    await page.locator('#runs').fill('1');
    await page.getByRole('button', { name: 'Start race' }).click();
    await page.waitForURL(/\/races\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    // Said as soon as the race is submitted, before it runs.
    await expect
      .poll(() => page.getByTestId('race-warnings').textContent())
      .toContain(
        'value = 1000 matches no rows of the table as it is now, so its delete will end with nothing to commit',
      );
    await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
    const run = page.getByTestId('run').first();
    await run.getByTestId('verdict').waitFor();
    expect(await run.getByTestId('verdict').getAttribute('data-status')).toBe('serializable');
    const writers = run.locator('[data-testid=writer]');
    expect(await writers.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(await writers.nth(i).getAttribute('data-outcome')).toBe('NOTHING_TO_COMMIT');
      expect(await writers.nth(i).textContent()).toContain('matched no rows: nothing to commit');
      expect(await writers.nth(i).textContent()).not.toMatch(/fail/i);
    }
    expect(await run.getByTestId('nothing-to-commit').textContent()).toContain('matched no rows: nothing to commit');
    expect(await run.getByTestId('failed-writers').count()).toBe(0);
    expect(await page.getByTestId('outcome-summary').textContent()).toBe(
      'both matched no rows: nothing to commit · 1 of 1',
    );
    const page_ = await page.locator('main').textContent();
    expect(page_).not.toMatch(/\bfail(s|ed)?\b/);
    await tab.shot('nothing-to-commit-race');
    // The race list says the same.
    await page.goto('/races');
    await expect.poll(() => page.locator('main').textContent()).toContain('nothing to commit');
    await tab.shot('nothing-to-commit-race-list');
  });

  it('the playground maps it by a column, counts two predicates per file and forecasts them by engine', async () => {
    await writeOrders(join(stack.roots, 'mine', 'orders'));
    const { page } = tab;
    await page.goto('/playground?scale=0.01');
    const location = page.locator('#your-location');
    // A location outside the roots is the API's to refuse, next to the field.
    await location.fill('../outside');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('location-problem').waitFor();
    expect(await page.getByTestId('location-problem').textContent()).not.toBe('');
    await location.fill('mine/orders');
    await page.getByRole('button', { name: 'Open' }).click();
    const map = page.getByTestId('heatmap-yours');
    await map.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('location-problem').count()).toBe(0);
    expect(await map.getAttribute('data-files')).toBe('3');
    await page.locator('#your-column').selectOption('id');
    // Files are numbered by path: which file holds which ids is read from the map, then held to.
    const bands =
      /^3 files, by id: id in 1\.\.2 in file (\d); id in 3\.\.4 in file \1; id in 5\.\.6 in file (\d); id in 7\.\.8 in file \2; id in 9\.\.10 in file (\d); id in 11\.\.12 in file \3\.$/;
    await expect.poll(() => map.getAttribute('aria-label')).toMatch(bands);
    const [, low, , high] = bands.exec((await map.getAttribute('aria-label')) ?? '') ?? [];
    expect(new Set([low, high]).size).toBe(2);

    // A predicate that does not parse: the API's words under it, and no forecast.
    await page.locator('#your-first-predicate').fill('id < 3');
    await page.locator('#your-first-set').fill('amount = amount + 1');
    await page.locator('#your-second-operation').selectOption('delete');
    await page.locator('#your-second-predicate').fill('id > > 10');
    await page.getByRole('button', { name: 'Count and forecast' }).click();
    const problem = page.getByTestId('your-second-predicate-problem');
    await problem.waitFor();
    expect(await problem.textContent()).not.toBe('');
    const yours = page.getByTestId('your-table');
    expect(await yours.getByTestId('prediction').count()).toBe(0);

    await page.locator('#your-second-predicate').fill('id > 10');
    await page.getByRole('button', { name: 'Count and forecast' }).click();
    const prediction = yours.getByTestId('prediction');
    await prediction.waitFor({ timeout: 60_000 });
    // FIRST rewrites the file of ids 1–4 only; SECOND's predicate reads that of 9–12, and FIRST's new file spans 1..4.
    expect(await prediction.getAttribute('data-second-commits')).toBe('true');
    const engines = await prediction
      .locator('[data-testid=by-engine] li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-engine')));
    expect(engines).toEqual(['delta-rs', 'delta-spark', 'databricks']);
    await expect
      .poll(() => map.getAttribute('aria-label'))
      .toContain(`FIRST's predicate matches rows in file ${low}; SECOND's predicate matches rows in file ${high}`);
    expect(await page.getByTestId('your-second-predicate-problem').count()).toBe(0);
    await tab.shot('playground-your-table');
  });
});

describe('audit', () => {
  it('audits a table whose property is WriteSerializable: flagged, and stored with when it was checked', async () => {
    const rows = {
      kind: 'rows' as const,
      rows: [{ id: 1 }],
      schema: { type: 'struct' as const, fields: [field('id', 'long')] },
    };
    await writeDeltaTable(join(stack.roots, 'jobs', 'nightly'), rows, {
      configuration: { 'delta.isolationLevel': 'WriteSerializable' },
    });
    const { page } = tab;
    await page.goto('/audit');
    await page.getByLabel('Table locations, one per line').fill('jobs/nightly\nlab:flat@0.01');
    await page.getByRole('button', { name: 'Audit tables' }).click();
    const audits = page.getByTestId('audit-row');
    await expect.poll(() => audits.count()).toBe(2);
    const nightly = audits.filter({ hasText: 'jobs/nightly' });
    expect(await nightly.getAttribute('data-flagged')).toBe('true');
    expect(await nightly.textContent()).toContain('WriteSerializable');
    expect(await audits.filter({ hasText: 'lab:flat@0.01' }).getAttribute('data-flagged')).toBe('false');
    // Unset, it is not "fine everywhere": Databricks defaults to WriteSerializable, the others to Serializable.
    expect(await audits.filter({ hasText: 'lab:flat@0.01' }).textContent()).toContain(
      "unset: the engines' defaults differ",
    );
    await tab.shot('audit');
  });
});

describe('jobs audit', () => {
  it('shows findings by job and the pairwise forecast, and races a pair with one click', async () => {
    const { page } = tab;
    await page.goto('/audit');
    await page
      .getByLabel('Jobs manifest (YAML or JSON)')
      .fill(
        [
          'jobs:',
          '  - { name: vendor1, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: update, predicate: VendorID = 1,',
          '      tableProperties: { delta.isolationLevel: WriteSerializable } }',
          '  - { name: vendor2, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: update, predicate: VendorID = 2 }',
        ].join('\n'),
      );
    await page.getByRole('button', { name: 'Audit jobs' }).click();
    const audit = page.getByTestId('jobs-audit');
    await audit.waitFor({ timeout: 60_000 });
    expect(await audit.getAttribute('data-failed')).toBe('true');
    const rules = (selector: string, attribute = 'data-rule') =>
      page.locator(selector).evaluateAll((els, a) => els.map((e) => e.getAttribute(a)), attribute);
    // vendor1's own finding under it; the two the jobs share once, under both, each job pointing to them.
    expect(await rules('[data-testid=job-findings][data-job=vendor1] [data-rule]')).toEqual(['isolation-not-parsed']);
    expect(await rules('[data-testid=shared-findings][data-jobs="vendor1,vendor2"] [data-rule]')).toEqual([
      'predicates-share-files',
      'no-vacuum',
    ]);
    for (const job of ['vendor1', 'vendor2']) {
      const pointers = await rules(
        `[data-testid=job-findings][data-job=${job}] [data-shared-rule]`,
        'data-shared-rule',
      );
      expect(pointers).toEqual(['predicates-share-files', 'no-vacuum']);
    }
    expect(await rules('[data-testid=job-findings][data-job=vendor2] [data-rule]')).toEqual([]);
    const cell = page.locator('[data-testid=pair-matrix] td[data-first=vendor1][data-second=vendor2]');
    expect(await cell.getAttribute('data-commits')).toBe('false');
    await tab.shot('audit-jobs');
    await cell.getByRole('button', { name: 'Race vendor1 then vendor2' }).click();
    await page.waitForURL(/\/races\/[0-9a-f-]{36}$/);
    // Who started it: this browser's session, signed in with the link.
    expect(await page.getByTestId('started-by').textContent()).toMatch(
      /^ by dashboard session [0-9a-f]{8} \(signed in with the sign-in link\)$/,
    );
    await page.locator('[data-testid=race-status][data-status=DONE]').waitFor({ timeout: 120_000 });
    // Measured: vendor2, starting after vendor1 committed, fails in every run, as forecast.
    await expect.poll(() => page.getByTestId('outcome-summary').textContent()).toBe('one commits, one fails · 3 of 3');
    // On the table as the jobs declare it: vendor1's isolation level went with the race.
    expect(await page.getByText('delta.isolationLevel=WriteSerializable').count()).toBe(1);
  });

  it('lists past job audits newest first and opens an older one with its findings', async () => {
    const auditJobs = async (manifest: string) => {
      const res = await fetch(stack.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
        body: JSON.stringify({
          query: 'mutation($m: String!) { auditJobs(manifest: $m) { id } }',
          variables: { m: manifest },
        }),
      });
      return ((await res.json()) as { data: { auditJobs: { id: string } } }).data.auditJobs.id;
    };
    const older = await auditJobs(
      'jobs:\n  - { name: history-old, table: jobs/none, engine: delta-rs 1.6.6, operation: append, checksTableBeforeAppend: true }\n',
    );
    const newer = await auditJobs(
      'jobs:\n  - { name: history-new, table: jobs/none, engine: delta-rs 1.6.6, operation: delete, predicate: id = 1 }\n',
    );
    const { page } = tab;
    await page.goto('/audit');
    const rows = page.getByTestId('job-audit-row');
    await rows.first().waitFor();
    expect((await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-audit-id')))).slice(0, 2)).toEqual([
      newer,
      older,
    ]);
    const row = rows.nth(1);
    expect(await row.textContent()).toContain('history-old');
    await row.getByRole('button', { name: 'Open' }).click();
    const past = page.locator(`[data-testid=past-job-audit][data-audit-id="${older}"]`);
    await past.getByTestId('jobs-audit').waitFor();
    expect(await past.getByTestId('jobs-audit').getAttribute('data-failed')).toBe('true');
    const rules = await past
      .locator('[data-testid=job-findings][data-job=history-old] [data-rule]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
    expect(rules).toEqual(expect.arrayContaining(['check-then-append', 'table-unreadable']));
    expect(await past.locator('[data-testid=job-findings][data-job=history-new]').count()).toBe(0);
    await tab.shot('audit-jobs-history');
  });
});

describe('object store', () => {
  it('refuses bad numbers in the form and a bucket the API does not serve, sending nothing to a store', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.getByRole('link', { name: 'Object store' }).click();
    await page.getByRole('heading', { name: 'Object store', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.state.empty').first().textContent()).toContain('No store probed yet');
    await page.getByLabel('S3 location').fill(`s3://${PROBE_BUCKET}/team`);
    await page.getByLabel('Writers per round').fill('1');
    await page.getByRole('button', { name: 'Probe the store' }).click();
    expect(await page.locator('.state.failed li').allTextContents()).toEqual(['writers: a whole number from 2 to 16']);
    await page.getByLabel('Writers per round').fill('8');
    await page.getByLabel('S3 location').fill('s3://someone-elses-bucket/team');
    await page.getByRole('button', { name: 'Probe the store' }).click();
    await expect
      .poll(() => page.locator('.state.failed').textContent())
      .toBe(`location: bucket 'someone-elses-bucket' is not configured; the configured buckets are ${PROBE_BUCKET}`);
    expect(storeConnections).toBe(0);
    await tab.shot('store-refused');
  });

  it('draws the kept report of a probe whose store drops every connection: could not run, every check not run', async () => {
    const { page } = tab;
    await page.getByLabel('S3 location').fill(`s3://${PROBE_BUCKET}/team`);
    await page.getByLabel('Rounds').fill('2');
    await page.getByRole('button', { name: 'Probe the store' }).click();
    const report = page.locator('[data-testid=store-probe][data-verdict=could-not-run]');
    await report.waitFor({ timeout: 60_000 });
    expect(await report.getByTestId('probe-verdict').textContent()).toBe('could not run');
    expect(await report.getByTestId('probe-summary').textContent()).toMatch(
      /^could not run: writing team\/racelab-probe-[^/]+\/hello: cannot reach http:\/\/127\.0\.0\.1:\d+: /,
    );
    const outcomes = await report
      .getByTestId('probe-check')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-check')}=${r.getAttribute('data-outcome')}`));
    expect(outcomes).toEqual([
      'existing-key-refused=not-run',
      'one-winner=not-run',
      'refused-put-keeps-bytes=not-run',
      'read-after-write=not-run',
    ]);
    expect(storeConnections).toBeGreaterThan(0);
    // Kept: the list below has it, marked as the one shown.
    const row = page.locator('[data-testid=store-probe-row][data-verdict=could-not-run]');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole('button').textContent()).toBe('Shown above');
    await tab.shot('store');
  });
});

describe('no page logs an error', () => {
  it('has seen no console error or uncaught exception', () => {
    expect(tab.errors).toEqual([]);
  });
});
