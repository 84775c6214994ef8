/**
 * The /history page in a real Chromium against the product as `npm start` runs it. Over the real API: a table whose
 * log alone says who was concurrent with whom (fixtures/history-log.ts) drawn mark by mark, each link styled by its
 * evidence, and a refusal shown in the API's words. With a fixed answer in the API's shape (the dashboard's
 * /api/graphql answered by the test): each library's re-judged outcome under the level chosen, the findings and the
 * duplicate keys, so the drawing is checked for what a small hand-written log cannot produce.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_LOG_TRUTH, writeHistoryLog } from '../../../fixtures/history-log';
import type { HistoryView } from '../lib/history';
import { launch, openPage, type TestPage } from './helpers/browser';
import { type E2eStack, startE2eStack } from './helpers/stack';

let stack: E2eStack;
let browser: Browser;
let tab: TestPage;
beforeAll(async () => {
  stack = await startE2eStack();
  writeHistoryLog(join(stack.roots, 'own', 'history'));
  browser = await launch();
  tab = await openPage(browser, stack.webUrl, stack.loginLink);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function readHistory(location: string, key = '') {
  const { page } = tab;
  await page.goto('/history');
  await page.getByLabel('Table location').fill(location);
  await page.getByLabel('Key columns (comma-separated)').fill(key);
  await page.getByRole('button', { name: 'Read the history' }).click();
}

/** The marks and links drawn, as [version, evidence] and [from, to, evidence, dashed]. */
async function drawn() {
  const { page } = tab;
  await page.getByTestId('history-timeline').waitFor();
  const marks = await page
    .getByTestId('history-mark')
    .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-version')), e.getAttribute('data-evidence')]));
  const links = await page
    .getByTestId('history-link')
    .evaluateAll((els) =>
      els.map((e) => [
        Number(e.getAttribute('data-from')),
        Number(e.getAttribute('data-to')),
        e.getAttribute('data-evidence'),
        e.getAttribute('stroke-dasharray') !== null,
      ]),
    );
  return { marks, links };
}

describe('/history over the real API', () => {
  it('is in the navigation', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL('**/history');
    await page.getByRole('heading', { name: 'Table history' }).waitFor();
  });

  it("shows the API's refusal of a location outside the roots", async () => {
    await readHistory('../outside');
    const alert = tab.page.locator('form').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/'\.\.' is not allowed|not inside/);
    expect(await alert.textContent()).not.toContain(stack.dir);
  });

  it('draws a lane per writer, a mark per commit, recorded links solid and inferred ones dashed', async () => {
    await readHistory('own/history');
    const { marks, links } = await drawn();
    expect(marks).toEqual(HISTORY_LOG_TRUTH.map((t) => [t.version, 'evidence' in t ? t.evidence : expect.any(String)]));
    expect(links).toEqual([
      [2, 1, 'recorded', false],
      [3, 1, 'inferred', true],
      [3, 2, 'inferred', true],
    ]);
    expect(await tab.page.getByTestId('history-lane').count()).toBe(2);
    expect(await tab.page.getByTestId('summary-commits').textContent()).toContain('5');
    expect(await tab.page.getByTestId('summary-concurrentCommits').textContent()).toContain('2');
    expect(tab.errors).toEqual([]);
  });
});

const T0 = Date.UTC(2026, 11, 1, 9);
const writer = (library: string, appId: string | null) => ({
  library,
  version: library === 'delta-rs' ? '1.6.0' : '3.2.0',
  engineInfo: null,
  appId,
  userMetadata: null,
});
const commit = (version: number, over: Partial<HistoryView['commits'][number]>) => ({
  version,
  timestamp: T0 + version * 60_000,
  startedAt: null,
  operation: 'WRITE',
  predicate: null,
  readVersion: null,
  isolationLevel: null,
  isBlindAppend: true,
  isolationProperty: 'WriteSerializable',
  concurrentWith: [],
  evidence: 'unknown',
  adds: 1,
  removes: 0,
  writer: writer('delta-spark', null),
  ...over,
});
const judgements = (serializable: string) =>
  ['delta-rs', 'delta-rs-legacy', 'delta-spark', 'databricks'].flatMap((library) => [
    { library, level: 'Serializable', outcome: serializable, conflict: 'ConcurrentAppend', message: null },
    { library, level: 'WriteSerializable', outcome: 'commit', conflict: null, message: null },
    { library, level: 'SnapshotIsolation', outcome: 'commit', conflict: null, message: null },
  ]);

/** What the API would answer for a table with two appends of one key, landed only because of WriteSerializable. */
const FIXED: HistoryView = {
  location: 'own/trips',
  range: { fromVersion: 0, latestVersion: 3, oldestKept: 0, since: null },
  failed: true,
  summary: {
    commits: 4,
    writers: 2,
    concurrentCommits: 1,
    inferredConcurrentCommits: 0,
    unknownConcurrency: 1,
    duplicateKeys: 1,
    longestConcurrentChain: 2,
    commitsPerHour: 80,
    busiestHour: { start: '2026-12-01T09:00:00.000Z', commits: 4, concurrentCommits: 1 },
  },
  commits: [
    commit(0, { operation: 'CREATE TABLE' }),
    commit(1, { evidence: 'recorded', readVersion: 0, writer: writer('delta-spark', 'daily-append') }),
    commit(2, {
      evidence: 'recorded',
      readVersion: 0,
      concurrentWith: [1],
      writer: writer('delta-spark', 'daily-append'),
    }),
    commit(3, { writer: writer('delta-rs', 'backfill') }),
  ],
  rejudgements: [{ version: 2, cannotJudge: null, judgements: judgements('conflict') }],
  duplicates: {
    key: ['trip_id'],
    atVersion: 3,
    distinct: 1,
    truncated: false,
    keys: [
      {
        values: [{ key: 'trip_id', value: 'T-1' }],
        count: 2,
        addedBy: [1, 2].map((version) => ({
          version,
          rows: 1,
          concurrent: true,
          writer: { library: 'delta-spark', version: '3.2.0', appId: 'daily-append' },
        })),
      },
    ],
  },
  findings: [
    {
      rule: 'landed-only-under-write-serializable',
      severity: 'error',
      versions: [2],
      evidence: '1 commit on this table landed only because of WriteSerializable',
      fix: 'Set delta.isolationLevel to Serializable',
    },
  ],
};

describe('/history drawing a full answer', () => {
  it("colours each library's outcome under the level chosen, and lists the findings and duplicate keys", async () => {
    const { page } = tab;
    await page.route('**/api/graphql', (route) =>
      route.request().postData()?.includes('tableHistory')
        ? route.fulfill({ contentType: 'application/json', body: JSON.stringify({ data: { tableHistory: FIXED } }) })
        : route.fallback(),
    );
    try {
      await readHistory('own/trips', 'trip_id');
      await page.getByTestId('history-timeline').waitFor();
      const outcomes = () =>
        page
          .locator('[data-testid="history-outcomes"][data-version="2"] [data-library]')
          .evaluateAll((els) => els.map((e) => [e.getAttribute('data-library'), e.getAttribute('data-outcome')]));
      expect(await outcomes()).toEqual([
        ['delta-rs', 'commit'],
        ['delta-rs-legacy', 'commit'],
        ['delta-spark', 'commit'],
        ['databricks', 'commit'],
      ]);
      await page.getByLabel('Re-judged under').selectOption('Serializable');
      await expect.poll(outcomes).toEqual([
        ['delta-rs', 'conflict'],
        ['delta-rs-legacy', 'conflict'],
        ['delta-spark', 'conflict'],
        ['databricks', 'conflict'],
      ]);
      expect(await page.getByTestId('history-lane').count()).toBe(3);
      expect(await page.getByTestId('history-legend').textContent()).toContain('inferred');
      const finding = page.getByTestId('history-finding');
      expect(await finding.getAttribute('data-rule')).toBe('landed-only-under-write-serializable');
      expect(await finding.textContent()).toContain('v2');
      expect(await page.getByTestId('history-duplicates').textContent()).toContain('T-1');
      expect(await page.getByTestId('summary-duplicateKeys').textContent()).toContain('1');
      // v2 concurrent with v1; v0 and v3 unknown.
      expect(await page.getByTestId('history-concurrent-row').count()).toBe(3);
      await tab.shot('history');
      expect(tab.errors).toEqual([]);
    } finally {
      await page.unroute('**/api/graphql');
    }
  });
});
