/**
 * The committed full-scale results (docs/lab-results.json) pass the report checker, which recounts
 * the data itself and checks every number in docs/lab-cases.md against them. The synthetic month is
 * regenerated when absent (deterministic: the same data the results came from).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { prepareDataset } from '../src/data/index';
import type { LabResults } from '../src/index';
import { checkResults } from '../src/report/index';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
it.each([
  ['docs/lab-results.json', 20],
  ['docs/lab-results-iceberg.json', 2],
  ['docs/lab-results-ambiguous.json', 3],
])('%s: every case and every number of docs/lab-cases.md checks out', async (name, cases) => {
  const results = JSON.parse(readFileSync(join(REPO, name), 'utf8')) as LabResults;
  expect(results.scale).toBe(1);
  expect(results.dataSource).toBe('synthetic');
  const dataset = await prepareDataset({ scale: 1, cacheDir: join(REPO, 'var/lab/data'), source: 'synthetic' });
  expect(join(REPO, 'docs', results.dataDir)).toBe(dataset.dir);
  const report = await checkResults(results, { baseDir: join(REPO, 'docs') });
  expect(report.cases.flatMap((c) => c.mismatches)).toEqual([]);
  expect(report.checked).toHaveLength(cases);
  expect(report.cases.every((c) => c.runs === 5)).toBe(true);
  expect(report.document.status).toBe('checked');
  expect(report.ok).toBe(true);
});
