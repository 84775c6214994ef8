/**
 * What the lab's commands share beyond the command-line conventions (terminal/command-line.ts): the repository,
 * and the work folder they keep their tables and data set in.
 */
import { resolve } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import { userPath } from '../terminal/command-line';

export const REPO = REPO_ROOT;

/** The lab's working folder: --work-dir, else LAB_WORK_DIR, else var/lab in the repository. */
export function workDirOption(options: Record<string, string>): string {
  return userPath(options['work-dir'] ?? process.env.LAB_WORK_DIR ?? resolve(REPO, 'var/lab'));
}
