/**
 * The Node the README promises (20.19 and later) is one every installed package admits: each lockfile entry's
 * `engines.node` must take both 20.19.0 and the Node running this test, so `npm ci` prints no EBADENGINE warning.
 * Ranges are read as npm reads them (semver), so `^20.19 || ^22.12 || >=24` passes although it is no subset of
 * `>=20.19`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../scripts/import-graph.mjs';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Entries whose `engines.node` refuses `node`. */
function refusing(node: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    return range && !semver.satisfies(node, range) ? [`${path || '(root)'}@${entry.version}: node ${range}`] : [];
  });
}

describe('every dependency admits the Node the product promises', () => {
  it('the root promises Node 20.19 and later', () => {
    expect(semver.minVersion(root.engines.node)?.version).toBe('20.19.0');
  });

  it.each(['20.19.0', process.versions.node])('every lockfile entry admits node %s', (node) => {
    expect(refusing(node)).toEqual([]);
  });

  it('the check finds a package that wants a newer Node', () => {
    lock.packages['node_modules/planted'] = { version: '1.0.0', engines: { node: '>=22.12.0' } };
    try {
      expect(refusing('20.19.0')).toEqual(['node_modules/planted@1.0.0: node >=22.12.0']);
    } finally {
      delete lock.packages['node_modules/planted'];
    }
  });
});
