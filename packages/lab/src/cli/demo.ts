import { resolve } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import { runDemo } from '../demo';

// The repo's var/tables unless LAB_ROOTS names another root (its first entry).
const root = process.env.LAB_ROOTS?.split(',')[0] || resolve(REPO_ROOT, 'var/tables');
runDemo(resolve(root, 'demo')).catch((e: unknown) => {
  console.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  process.exit(1);
});
