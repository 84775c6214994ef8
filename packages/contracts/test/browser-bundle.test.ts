/**
 * `@racelab/contracts` runs in the browser: the dashboard's start-race form checks a race with it. Bundled for the
 * browser from the dashboard's folder, as the form imports it, it resolves without any `node:` module, and the
 * bundle checks a race in the API's words.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const WEB = fileURLToPath(new URL('../../../apps/web', import.meta.url));
const FOR_A_BROWSER = { bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true } as const;

it('bundles for the browser as the form imports it, with no node: import, and the bundle checks a race', async () => {
  const form = "export { checkStartRace } from '@racelab/contracts';";
  const { metafile, outputFiles } = await build({
    stdin: { contents: form, resolveDir: WEB, loader: 'ts' },
    logLevel: 'silent',
    ...FOR_A_BROWSER,
  });
  const inputs = Object.keys(metafile.inputs);
  expect(inputs.filter((i) => i.startsWith('node:') || i.includes('duckdb'))).toEqual([]);
  expect(inputs.some((i) => i.includes('valibot'))).toBe(true);
  const code = outputFiles[0]?.text ?? '';
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  expect(mod.checkStartRace({ caseId: 'B1', runs: 0 })).toEqual({
    ok: false,
    problems: ['runs must be a whole number from 1 to 50, got 0'],
  });
});
