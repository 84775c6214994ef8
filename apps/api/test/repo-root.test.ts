/**
 * REPO_ROOT is found by looking for the workspace's package.json, so it is the same whether config.ts
 * runs from its source or from a compiled bundle under var/build (where `import.meta.url` is the bundle's).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { findRepoRoot, REPO_ROOT } from '../src/process/config';

const repo = resolve(import.meta.dirname, '../../..');
const outside = mkdtempSync(join(tmpdir(), 'repo-root-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

it('finds the workspace from the source folder and from the bundle folder alike', () => {
  expect(REPO_ROOT).toBe(repo);
  expect(findRepoRoot(join(repo, 'apps/api/src'))).toBe(repo);
  expect(findRepoRoot(join(repo, 'var/build'))).toBe(repo);
});

it('passes over package.json files of other packages, and says so when there is no workspace above', () => {
  const nested = join(outside, 'some-package', 'dist');
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(outside, 'some-package', 'package.json'), JSON.stringify({ name: 'some-package' }));
  writeFileSync(join(outside, 'package.json'), '{ not json');
  expect(() => findRepoRoot(nested)).toThrow(`no racelab workspace above ${nested}`);
  writeFileSync(join(outside, 'package.json'), JSON.stringify({ name: 'racelab' }));
  expect(findRepoRoot(nested)).toBe(outside);
});
