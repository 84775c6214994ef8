/**
 * bench/api-edge: what small, tokenless requests cost the API, measured over real HTTP against the
 * real API process (an embedded Postgres, the API and one worker, as the API's tests run them).
 * Each attack is sent once; its wall time, status and response size are printed. Without the
 * limits each of these would stall the API for seconds; with them, each is refused before any resolver runs.
 *
 *   npm run api-edge -w @racelab/bench [-- --levels 20 --schemas 1000 --layouts 100 --matrices 1000]
 */
import { aliased, fragmentBomb, SCHEMA_FRAGMENT } from '../apps/api/test/helpers/attacks';
import { startStack } from '../apps/api/test/helpers/stack';
import { answerHelp } from './lib';

await answerHelp({
  usage: ['npm run api-edge -w @racelab/bench [-- --levels N --schemas N --layouts N --matrices N]'],
  about:
    'What small, tokenless requests cost the API over real HTTP: each attack once, its wall time, status and size.',
  options: {
    '--levels N': 'nesting levels of the fragment bomb (default 20)',
    '--schemas N': 'aliased __schema queries (default 1000)',
    '--layouts N': 'aliased tableLayout queries (default 100)',
    '--matrices N': 'aliased isolationMatrix queries (default 1000)',
  },
  examples: ['npm run api-edge -w @racelab/bench -- --schemas 100'],
});

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

async function send(url: string, query: string) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  const first = (JSON.parse(text) as { errors?: { message: string }[] }).errors?.[0]?.message ?? 'answered';
  return { ms, status: res.status, bytes: text.length, first: first.slice(0, 80) };
}

/** The longest /health round trip while `work` runs: how long the API kept everyone else waiting. */
async function stalledDuring<T>(healthUrl: string, work: Promise<T>): Promise<{ result: T; stall: number }> {
  let done = false;
  let stall = 0;
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      // Once more on a fresh socket if the server closed the kept-alive one while it was busy.
      await fetch(healthUrl).catch(() => fetch(healthUrl));
      stall = Math.max(stall, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await work;
  done = true;
  await poll;
  return { result, stall };
}

const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
const levels = arg('levels', 20);
const attacks: [string, string][] = [
  [`fragment bomb, ${levels} levels`, fragmentBomb(levels)],
  [`fragment bomb, ${levels + 2} levels`, fragmentBomb(levels + 2)],
  [`${arg('schemas', 1000)} aliased __schema`, aliased(arg('schemas', 1000), '__schema { ...S }', SCHEMA_FRAGMENT)],
  ['10 aliased __schema', aliased(10, '__schema { ...S }', SCHEMA_FRAGMENT)],
  [
    `${arg('layouts', 100)} aliased tableLayout`,
    aliased(arg('layouts', 100), 'tableLayout(location: "lab:flat@0.01", countBy: "VendorID") { version }'),
  ],
  [
    `${arg('matrices', 1000)} aliased isolationMatrix`,
    aliased(arg('matrices', 1000), 'isolationMatrix { value runs }'),
  ],
];

const stack = await startStack();
try {
  const health = new URL('/health', stack.apiUrl).href;
  // The lab data set behind lab:flat@0.01 is built on first use: build it before measuring.
  await send(stack.apiUrl, '{ tableLayout(location: "lab:flat@0.01") { version } }');
  console.log('| attack | bytes sent | status | wall | longest /health meanwhile | response bytes | first message |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const [name, query] of attacks) {
    const { result: r, stall } = await stalledDuring(health, send(stack.apiUrl, query));
    console.log(
      `| ${name} | ${query.length} | ${r.status} | ${time(r.ms)} | ${time(stall)} | ${r.bytes} | ${r.first} |`,
    );
  }
} finally {
  await stack.stop();
}
