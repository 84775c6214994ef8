import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A fresh folder for this test file, removed when the file's tests end. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `racelab-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
