/**
 * The repository's root folder, found by looking rather than by a fixed number of `..`: our modules run
 * from their sources and from compiled bundles under var/build, and `import.meta.url` is a different file
 * in each.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workspace's own package name (the root package.json): how the repository is recognised from inside it. */
const WORKSPACE_NAME = 'racelab';

/** The nearest folder at or above `from` whose package.json is the workspace root's. */
export function findRepoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === WORKSPACE_NAME) return dir;
    } catch {
      // No package.json here, or not JSON: keep climbing.
    }
    if (dirname(dir) === dir) throw new Error(`no ${WORKSPACE_NAME} workspace above ${from}`);
  }
}

/** This checkout's root. */
export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
