import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** `shared/` sits beside the repository (as in CI's clone); SHARED_DIR overrides it. */
export const SHARED = process.env.SHARED_DIR ?? join(REPO, '..', 'shared');
export const FIXTURES = join(SHARED, 'fixtures');

if (!existsSync(FIXTURES)) throw new Error(`fixtures not found at ${FIXTURES}; set SHARED_DIR`);
