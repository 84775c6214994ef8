/**
 * The code audit's orchestration, with a registry of one test extractor (the real extractors have tests of
 * their own): files named relative to the scanned root with '/', a file argument read in its folder, the quick
 * pre-filter sparing the parser, binary and huge files and symlinks out of the root skipped with the reason,
 * dependency folders not entered, the walk's bound, an extractor that throws turned into a note, a missing path
 * refused, progress reported, an abort obeyed.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Extraction, Extractor } from '../src/audit/code/setting';
import { tempDir } from './helpers/small-base';

const parsed: string[] = [];

/** Reads `.fake` files: a line `KEY = VALUE` is a table property at the value's place; `boom` throws. */
const fakeExtractor: Extractor = {
  name: 'fake',
  accepts: (file) => file.endsWith('.fake'),
  async extract(file, text): Promise<Extraction> {
    parsed.push(file);
    if (text.includes('boom')) throw new Error('the parser broke\nat a line of its own');
    const settings = text.split('\n').flatMap((line, i) => {
      const m = /^(delta\.\w+) = '(\w+)'/.exec(line);
      if (!m?.[1] || !m[2]) return [];
      const column = line.indexOf("'") + 1;
      return [
        {
          file,
          line: i + 1,
          column,
          endColumn: column + m[2].length + 2,
          key: m[1],
          value: m[2],
          raw: `'${m[2]}'`,
          constant: true,
          kind: 'table-property' as const,
          via: 'test',
          language: 'sql' as const,
          writer: 'delta-rs' as const,
        },
      ];
    });
    return { settings, problems: text.includes('half') ? [{ file, line: 2, column: 1, message: 'stopped' }] : [] };
  },
};

vi.mock('../src/audit/code-scan/extractors', () => ({
  EXTRACTORS: [fakeExtractor],
  extractorFor: (file: string) => (fakeExtractor.accepts(file) ? fakeExtractor : undefined),
}));

const { auditCode, CodePathError, MAX_FILE_BYTES } = await import('../src/audit/code-scan/index');

function repo(): string {
  const root = tempDir('code-audit');
  const outside = tempDir('code-audit-outside');
  mkdirSync(join(root, 'jobs', 'nested'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(root, 'jobs', 'a.fake'), "-- a job\ndelta.isolationLevel = 'WriteSerializable'\n");
  writeFileSync(join(root, 'jobs', 'nested', 'b.fake'), "TBLPROPERTIES\ndelta.appendOnly = 'true'\n");
  writeFileSync(join(root, 'jobs', 'plain.fake'), 'nothing to see here\n');
  writeFileSync(join(root, 'jobs', 'readme.md'), "delta.isolationLevel = 'WriteSerializable'\n");
  writeFileSync(join(root, 'jobs', 'broken.fake'), 'isolationLevel boom\n');
  writeFileSync(join(root, 'jobs', 'half.fake'), "half\ndelta.isolationLevel = 'writeSerializable'\n");
  writeFileSync(join(root, 'node_modules', 'pkg', 'c.fake'), "delta.isolationLevel = 'Serializable'\n");
  writeFileSync(join(root, 'blob.fake'), Buffer.from([0x64, 0x65, 0, 0x6c, 0x74, 0x61]));
  writeFileSync(join(root, 'huge.fake'), Buffer.alloc(MAX_FILE_BYTES + 1, 0x20));
  writeFileSync(join(outside, 'secret.fake'), "delta.isolationLevel = 'Serializable'\n");
  symlinkSync(join(outside, 'secret.fake'), join(root, 'jobs', 'out.fake'));
  symlinkSync(outside, join(root, 'elsewhere'));
  symlinkSync(join(root, 'jobs', 'a.fake'), join(root, 'same.fake'));
  symlinkSync(root, join(root, 'jobs', 'loop'));
  return root;
}

describe('auditCode', () => {
  it('finds the settings of a folder, named from its root, and judges them', async () => {
    parsed.length = 0;
    const root = repo();
    const audit = await auditCode([root]);
    expect(audit.settings.map((s) => [s.file, s.line, s.column, s.value])).toEqual([
      ['jobs/a.fake', 2, 24, 'WriteSerializable'],
      ['jobs/half.fake', 2, 24, 'writeSerializable'],
      ['jobs/nested/b.fake', 2, 20, 'true'],
    ]);
    expect(audit.findings.map((f) => [f.rule, f.severity, f.at.file])).toEqual(
      [
        ['file-unparseable', 'note', 'jobs/broken.fake'],
        ['isolation-not-parsed', 'error', 'jobs/a.fake'],
        ['file-unparseable', 'note', 'jobs/half.fake'],
      ].sort((a, b) => (a[2] as string).localeCompare(b[2] as string)),
    );
    expect(audit.failed).toBe(true);
    // The pre-filter: a file with no hint of a setting is read and counted, never parsed.
    expect(parsed).not.toContain('jobs/plain.fake');
    expect(audit.files.scanned).toBe(5);
    expect(audit.files.unparseable).toEqual([
      { file: 'jobs/broken.fake', line: 1, column: 1, message: 'the fake reader failed: the parser broke' },
      { file: 'jobs/half.fake', line: 2, column: 1, message: 'stopped' },
    ]);
    expect(Object.fromEntries(audit.files.skipped.map((s) => [s.file, s.reason]))).toEqual({
      'blob.fake': 'binary (a NUL byte in its first 8 KiB)',
      'huge.fake': '2.0 MB: larger than 2 MB',
      elsewhere: 'a symlink out of the scanned root: not followed',
      'jobs/loop': 'a symlink to the scanned root itself: not followed',
      'jobs/out.fake': 'a symlink out of the scanned root: not followed',
      'node_modules/': 'not scanned: a folder of dependencies, version control or caches',
      'same.fake': 'a symlink to jobs/a.fake, read there',
    });
  });

  it('reads a file argument in its folder, and refuses a path that is not there', async () => {
    const root = repo();
    const audit = await auditCode([join(root, 'jobs', 'nested', 'b.fake')]);
    expect(audit.settings.map((s) => s.file)).toEqual(['b.fake']);
    expect(audit.failed).toBe(false);
    await expect(auditCode([join(root, 'nowhere')])).rejects.toBeInstanceOf(CodePathError);
    const md = await auditCode([join(root, 'jobs', 'readme.md')]);
    expect(md.files.skipped).toEqual([{ file: 'readme.md', reason: 'not a kind of file the code audit reads' }]);
  });

  it('stops at its bound, saying so, reports progress and obeys an abort', async () => {
    const root = repo();
    const progress: [number, number][] = [];
    const audit = await auditCode([root], { maxFiles: 2, onProgress: (d, t) => progress.push([d, t]) });
    expect(audit.files.skipped.map((s) => s.reason)).toContain('the scan stopped at 2 files: the rest were not read');
    expect(progress.at(-1)).toEqual([2, 2]);
    const abort = new AbortController();
    abort.abort();
    await expect(auditCode([root], { signal: abort.signal })).rejects.toThrow();
  });
});
