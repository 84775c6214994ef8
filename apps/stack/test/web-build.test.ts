/**
 * `npm start`'s dashboard step reads Next's build output for its progress line. The lines below are
 * Next 16.4.6's own (turbopack, `typescript.ignoreBuildErrors`), as a build printed them.
 */
import { expect, it } from 'vitest';
import { buildPhaseOf, NEXT_PHASES } from '../src/web-build';

const NEXT_OUTPUT = `▲ Next.js 16.4.6 (Turbopack)
✓ Running next.config.ts took 73ms
  Creating an optimized production build ...
✓ Compiled successfully in 16.6s
  Skipping validation of types
  Collecting page data using 1 worker ...
  Generating static pages using 1 worker (0/9) ...
  Generating static pages using 1 worker (4/9)
✓ Generating static pages using 1 worker (9/9) in 1092ms
  Finalizing page optimization ...
Route (app)
┌ ○ /`.split('\n');

it('follows the phases of a Next build, with the pages counted', () => {
  const phases = NEXT_OUTPUT.map(buildPhaseOf).filter((p) => p !== null);
  expect(phases).toEqual([
    { phase: 1, detail: 'compiling' },
    { phase: 2, detail: 'types skipped' },
    { phase: 3, detail: 'collecting page data' },
    { phase: 4, detail: 'generating static pages 0/9' },
    { phase: 4, detail: 'generating static pages 4/9' },
    { phase: 4, detail: 'generating static pages 9/9' },
    { phase: 5, detail: 'finalizing' },
  ]);
  expect(NEXT_PHASES).toHaveLength(5);
});
