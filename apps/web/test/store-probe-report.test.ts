/**
 * The Store page's report drawn from probes recorded on radosgw and through a lying proxy
 * (test/fixtures/store-probes.json): the web e2e has no S3 server, so it draws only a report of a
 * probe that could not run; this draws the checks and the latency picture of real, complete ones.
 * Rendered with React's server renderer; the test reads the same data- attributes the e2e test reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formProblems } from '../components/store/probe-form';
import { ProbeReport } from '../components/store/probe-report';
import { latencyScale, type StoreProbeView } from '../lib/store-probe';

const fixtures = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/store-probes.json'), 'utf8')) as Record<
  'radosgw' | 'ignore-if-none-match',
  StoreProbeView
>;
const draw = (probe: StoreProbeView) => renderToStaticMarkup(createElement(ProbeReport, { probe }));
const attrs = (html: string, marker: string, name: string) =>
  [...html.matchAll(new RegExp(`${marker}[^>]*?${name}="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('the store probe report, drawn', () => {
  it('radosgw: safe, four checks passed, a bar pair per call kind', () => {
    const html = draw(fixtures.radosgw);
    expect(attrs(html, 'data-testid="store-probe"', 'data-verdict')).toEqual(['safe']);
    expect(attrs(html, 'data-testid="probe-check"', 'data-outcome')).toEqual(['passed', 'passed', 'passed', 'passed']);
    const calls = attrs(html, '<g', 'data-call');
    expect(calls).toEqual(fixtures.radosgw.latency.map((l) => l.call));
    expect(calls).toEqual(expect.arrayContaining(['conditional-put-won', 'conditional-put-refused', 'get', 'list']));
    // Two bars (p99 behind, p50 in front) per call kind, each as wide as its latency on one scale.
    const widths = [...html.matchAll(/<rect[^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(calls.length * 2);
    const { at } = latencyScale(fixtures.radosgw.latency);
    const span = Math.max(...widths) / at(Math.max(...fixtures.radosgw.latency.map((l) => l.p99Ms)));
    fixtures.radosgw.latency.forEach((l, i) => {
      expect(widths[2 * i]).toBeCloseTo(Math.max(1, at(l.p99Ms) * span), 5);
      expect(widths[2 * i + 1]).toBeCloseTo(Math.max(1, at(l.p50Ms) * span), 5);
    });
    expect(html).not.toContain('clean-up');
  });

  it('through the lying proxy (ignore-if-none-match): unsafe, the failed checks and their damage shown', () => {
    const html = draw(fixtures['ignore-if-none-match']);
    expect(attrs(html, 'data-testid="store-probe"', 'data-verdict')).toEqual(['unsafe']);
    expect(attrs(html, 'data-testid="probe-check"', 'data-outcome')).toEqual(['failed', 'failed', 'failed', 'passed']);
    expect(html).toContain('an overwritten log entry');
    expect(html).toContain('a lost commit, its rows missing');
  });

  it("the form refuses rounds outside 1-200 and writers outside 2-16 (the API's bounds) before sending", () => {
    expect(formProblems(200, 16)).toEqual([]);
    expect(formProblems(201, 1)).toEqual([
      'rounds: a whole number from 1 to 200',
      'writers: a whole number from 2 to 16',
    ]);
    expect(formProblems(Number('x'), 2.5)).toHaveLength(2);
  });
});
