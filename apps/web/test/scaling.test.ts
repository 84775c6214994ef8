/**
 * The Scaling page in a real Chromium against the real API, worker and Postgres, drawn from stored sweeps: the
 * results of real CLI sweeps (test/fixtures/sweeps.json: append-row under none, delta-rs and pyiceberg-like, and a
 * compaction sweep, and an Iceberg append-row sweep with retries off, each with the table the CLI printed) are stored as Sweep rows, plus a copy of one whose N=4
 * point has a lost commit. The plots must have a line per picked sweep and a marker per measured point at the
 * stored value, a dashed forecast line through N = 1..max, the compactor's success at N × rate; the table's cells
 * must be the CLI's; the failed check is red. The form refuses a sweep beyond the bounds in checkSweepInput's words
 * and stores nothing, and a small sweep started from it runs in the worker with its progress bar filling up.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSweepInput, checkSweepResults, type SweepResults, sweepCommits } from '@racelab/contracts';
import { startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openPage, type TestPage } from './helpers/browser';
import { type E2eStack, startE2eStack } from './helpers/stack';

interface Recorded {
  name: string;
  cliTable: string[];
  results: SweepResults;
}
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sweeps.json'), 'utf8')) as {
  sweeps: Recorded[];
};
const recorded = Object.fromEntries(fixture.sweeps.map((s) => [s.name, s])) as Record<
  'none' | 'delta-rs' | 'pyiceberg-like' | 'compaction' | 'iceberg-none',
  Recorded
>;

/** A copy of the `none` sweep whose N=4 point lost a commit: what the page must flag. */
function withLostCommit(r: SweepResults): SweepResults {
  const copy = structuredClone(r);
  const p = copy.points.find((x) => x.writers === 4);
  if (!p) throw new Error('fixture: no N=4 point');
  p.checks = { ...p.checks, exactlyOnce: false, lost: 1 };
  return copy;
}

let stack: E2eStack;
let browser: Browser;
let tab: TestPage;
let db: pg.Client;
const ids: Record<string, string> = {};

async function store(name: string, results: SweepResults, minutesAgo: number): Promise<void> {
  const id = randomUUID();
  ids[name] = id;
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const total = sweepCommits(results.input);
  await db.query(
    `INSERT INTO "Sweep" (id, "createdAt", status, input, done, total, results, "startedAt", "finishedAt", worker)
     VALUES ($1, $2, 'DONE', $3, $4, $4, $5, $2, $2, 'e2e:0')`,
    [id, at, JSON.stringify(results.input), total, JSON.stringify(results)],
  );
}

const sweepCount = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "Sweep"')).rows[0]?.n;

beforeAll(async () => {
  for (const s of fixture.sweeps) expect(checkSweepResults(s.results).ok, s.name).toBe(true);
  stack = await startE2eStack();
  // The supervisor's own embedded server, attached to (not stopped) to store the sweeps as a worker would.
  const server = await startPostgresServer({ dataDir: join(stack.dir, 'db'), attach: true });
  db = new pg.Client({ connectionString: await server.ownerUrl('racelab') });
  await db.connect();
  await store('iceberg-none', recorded['iceberg-none'].results, 45);
  await store('none', recorded.none.results, 40);
  await store('delta-rs', recorded['delta-rs'].results, 30);
  await store('pyiceberg-like', recorded['pyiceberg-like'].results, 20);
  await store('compaction', recorded.compaction.results, 10);
  await store('lost', withLostCommit(recorded.none.results), 5);
  browser = await launch();
  tab = await openPage(browser, stack.webUrl, stack.loginLink);
});
afterAll(async () => {
  await db?.end();
  await browser?.close();
  await stack?.stop();
});

const pick = (name: string) => tab.page.locator(`[data-testid=sweep-row][data-sweep-id="${ids[name]}"] input`).check();
const seriesOf = (chart: Locator, kind: 'measured' | 'forecast') =>
  chart.locator(`[data-testid=chart-series][data-kind=${kind}]`);
/** The vertices of each line of `kind`, per series in order. */
const vertices = (chart: Locator, kind: 'measured' | 'forecast') =>
  seriesOf(chart, kind).evaluateAll((gs) =>
    gs.map((g) => (g.querySelector('polyline')?.getAttribute('points') ?? '').trim().split(/\s+/).length),
  );
const markers = (chart: Locator) =>
  seriesOf(chart, 'measured').evaluateAll((gs) =>
    gs.map((g) =>
      [...g.querySelectorAll('[data-testid=chart-point]')].map((c) => [
        Number(c.getAttribute('data-x')),
        Number(c.getAttribute('data-y')),
      ]),
    ),
  );

describe('scaling', () => {
  it('lists the stored sweeps newest first and plots three policies of append-row with their forecasts', async () => {
    const { page } = tab;
    await page.goto('/races');
    await page.getByRole('link', { name: 'Scaling' }).click();
    await page.getByRole('heading', { name: 'Scaling', level: 1 }).waitFor();
    const rows = page.getByTestId('sweep-row');
    await expect.poll(() => rows.count()).toBe(6);
    expect(await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-sweep-id')))).toEqual(
      ['lost', 'compaction', 'pyiceberg-like', 'delta-rs', 'none', 'iceberg-none'].map((n) => ids[n]),
    );
    for (const name of ['none', 'delta-rs', 'pyiceberg-like']) await pick(name);

    const plots = page.locator('[data-testid=operation-plots][data-operation=append-row]');
    const success = plots.getByTestId('success-chart');
    await expect.poll(() => seriesOf(success, 'measured').count()).toBe(3);
    expect(await seriesOf(success, 'forecast').count()).toBe(3);
    // A marker per measured point, at the stored N and success per attempt, one line per sweep in the order picked.
    const order = [recorded.none, recorded['delta-rs'], recorded['pyiceberg-like']];
    expect(await markers(success)).toEqual(
      order.map((r) => r.results.points.map((p) => [p.writers, p.attempts.successPerAttempt])),
    );
    expect(await vertices(success, 'measured')).toEqual(order.map((r) => r.results.points.length));
    // The forecast's dashed line through every N from 1 to the largest measured, its error stated in the legend.
    expect(await vertices(success, 'forecast')).toEqual(order.map((r) => r.results.forecast?.curve.length));
    expect(order.every((r) => r.results.forecast?.curve.length === 8)).toBe(true);
    expect(await seriesOf(success, 'forecast').first().locator('polyline').getAttribute('stroke-dasharray')).toBe(
      '6 4',
    );
    const legend = await success.locator('.legend li').allTextContents();
    const error = recorded.none.results.forecast?.error.successPerAttemptMeanAbs as number;
    expect(legend).toContain(
      ` Delta · append-row · none · K=4: forecast (mean abs. error ${(100 * error).toFixed(1)}%)`,
    );

    const throughput = plots.getByTestId('throughput-chart');
    expect(await markers(throughput)).toEqual(
      order.map((r) => r.results.points.map((p) => [p.writers, p.commitsPerSec])),
    );
    expect(await vertices(throughput, 'forecast')).toEqual([8, 8, 8]);
    // No compaction sweep picked: no compaction plot.
    expect(await page.getByTestId('compaction-chart').count()).toBe(0);
    await tab.shot('scaling-policies');
  });

  it("shows the CLI's numbers in the table, cell for cell", async () => {
    const { page } = tab;
    for (const name of ['none', 'delta-rs', 'pyiceberg-like'] as const) {
      const table = page.locator(`[data-testid=sweep-table][data-sweep-id="${ids[name]}"]`);
      const header = await table.locator('thead th').allTextContents();
      const cells = await table
        .getByTestId('sweep-point')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      const [cliHeader, ...cliRows] = recorded[name].cliTable.map((line) => line.trim().split(/\s{2,}/));
      expect(header).toEqual(cliHeader);
      expect(cells).toEqual(cliRows);
      expect(await table.locator('[data-checks=failed]').count()).toBe(0);
    }
  });

  it('draws the attempts histogram of a chosen point', async () => {
    const { page } = tab;
    const histogram = page.getByTestId('attempts-histogram');
    await page.locator('select[name=histogram-sweep]').selectOption(ids['delta-rs'] as string);
    await page.locator('select[name=histogram-writers]').selectOption('8');
    const n8 = recorded['delta-rs'].results.points.find((p) => p.writers === 8);
    const bars = () =>
      histogram
        .getByTestId('histogram-bar')
        .evaluateAll((gs) =>
          gs.map((g) => [Number(g.getAttribute('data-bucket')), Number(g.getAttribute('data-count'))]),
        );
    await expect.poll(bars).toEqual(n8?.attempts.histogram.map((h) => [h.attempts, h.commits]));
    expect(n8?.attempts.histogram.length).toBeGreaterThan(1); // the point drawn did contend
  });

  it("plots the compactor's success against the append rate, and flags a lost commit in red", async () => {
    const { page } = tab;
    await pick('compaction');
    const compaction = page.getByTestId('compaction-chart');
    await compaction.waitFor();
    const rate = recorded.compaction.results.input.appendRatePerSec as number;
    expect(await markers(compaction)).toEqual([
      recorded.compaction.results.points.map((p) => [p.writers * rate, p.compactor?.successPerAttempt]),
    ]);
    expect(await page.locator('[data-testid=operation-plots][data-operation=compaction]').count()).toBe(1);

    await pick('lost');
    const table = page.locator(`[data-testid=sweep-table][data-sweep-id="${ids.lost}"]`);
    await table.waitFor();
    const flagged = table.locator('[data-testid=sweep-point][data-checks=failed]');
    expect(await flagged.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-writers')))).toEqual(['4']);
    const badge = flagged.locator('[data-check=exactlyOnce]');
    expect(await badge.textContent()).toBe('NO (lost 1, dup 0)');
    expect(await badge.getAttribute('data-ok')).toBe('false');
    expect(await badge.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(179, 38, 30)');
    expect(
      await flagged
        .locator('td')
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    ).toBe('rgb(251, 231, 229)');
    // The other points' checks of that sweep stay green.
    expect(await table.locator('[data-checks=passed]').count()).toBe(3);
    await tab.shot('scaling-compaction-and-flag');
  });

  it('refuses a sweep beyond the bounds in the form, storing nothing, with checkSweepInput’s words', async () => {
    const { page } = tab;
    const form = page.getByTestId('sweep-form');
    // Refused in the browser: no startSweep leaves it.
    const sent: string[] = [];
    const onRequest = (r: { postData(): string | null }) => {
      if (r.postData()?.includes('startSweep')) sent.push(r.postData() as string);
    };
    page.on('request', onRequest);
    await form.getByLabel('Writers (N list)').fill('65,2');
    await form.getByLabel('Commits per writer (K)').fill('51');
    await form.getByRole('button', { name: 'Start the sweep' }).click();
    const expected = checkSweepInput({
      writers: [65, 2],
      commitsPerWriter: 51,
      operation: 'append-row',
      policy: 'delta-rs',
    });
    expect(expected.ok).toBe(false);
    expect(await form.locator('.state.failed li').allTextContents()).toEqual(expected.ok ? [] : expected.problems);
    page.off('request', onRequest);
    expect(sent).toEqual([]);
    expect(await sweepCount()).toBe(6);
  });

  it('starts a small sweep from the form and follows its progress bar to the end', async () => {
    const { page } = tab;
    const form = page.getByTestId('sweep-form');
    await form.getByLabel('Writers (N list)').fill('1,2');
    await form.getByLabel('Commits per writer (K)').fill('2');
    await form.getByRole('button', { name: 'Start the sweep' }).click();
    const progress = form.getByTestId('sweep-progress');
    await form.locator('[data-testid=sweep-progress][data-status=DONE]').waitFor({ timeout: 120_000 });
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('6');
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('6');
    expect(await sweepCount()).toBe(7);
    // Ended, so listed first and plotted: its table has its two points, every check passed.
    const [row] = (await db.query<{ id: string }>('SELECT id FROM "Sweep" ORDER BY "createdAt" DESC LIMIT 1')).rows;
    const table = page.locator(`[data-testid=sweep-table][data-sweep-id="${row?.id}"]`);
    await table.waitFor();
    expect(
      await table.getByTestId('sweep-point').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-checks'))),
    ).toEqual(['passed', 'passed']);
    await tab.shot('scaling-started');
  });

  it('draws Delta and Iceberg side by side: a line each on the same curves, named by format', async () => {
    const { page } = tab;
    await page.goto('/scaling');
    await page.getByRole('heading', { name: 'Scaling', level: 1 }).waitFor();
    for (const name of ['none', 'iceberg-none']) await pick(name);
    const plots = page.locator('[data-testid=operation-plots][data-operation=append-row]');
    const success = plots.getByTestId('success-chart');
    await expect.poll(() => seriesOf(success, 'measured').count()).toBe(2);
    const order = [recorded.none, recorded['iceberg-none']];
    expect(await markers(success)).toEqual(
      order.map((r) => r.results.points.map((p) => [p.writers, p.attempts.successPerAttempt])),
    );
    expect(await markers(plots.getByTestId('throughput-chart'))).toEqual(
      order.map((r) => r.results.points.map((p) => [p.writers, p.commitsPerSec])),
    );
    const legend = await success.locator('.legend li').allTextContents();
    expect(legend).toContain(' Delta · append-row · none · K=4');
    expect(legend).toContain(' Iceberg (sqlite catalog) · append-row · none · K=4');
    // The Iceberg sweep's table is the CLI's, cell for cell.
    const table = page.locator(`[data-testid=sweep-table][data-sweep-id="${ids['iceberg-none']}"]`);
    const cells = await table
      .getByTestId('sweep-point')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cells).toEqual(recorded['iceberg-none'].cliTable.slice(1).map((line) => line.trim().split(/\s{2,}/)));
    await tab.shot('scaling-delta-iceberg');
  });

  it('has seen no console error or uncaught exception', () => {
    expect(tab.errors).toEqual([]);
  });
});
