/**
 * The code audit view's helpers: findings grouped by file in order, a code line split around the value a
 * finding points at (the columns the API gives, 1-based, end exclusive), and which files can be uploaded.
 */
import { describe, expect, it } from 'vitest';
import { archiveType, type CodeFinding, findingsByFile, splitAtValue } from '../lib/code-audit';

const finding = (file: string, line: number, column = 1, rule = 'r'): CodeFinding => ({
  rule,
  severity: 'warning',
  table: null,
  evidence: 'e',
  fix: 'f',
  at: { file, line, column, endColumn: null, message: null, snippet: null },
  related: [],
});

describe('findingsByFile', () => {
  it('groups by file in name order, each by line then column', () => {
    const grouped = findingsByFile([
      finding('b.sql', 9),
      finding('a.py', 3, 5, 'second'),
      finding('b.sql', 2),
      finding('a.py', 3, 1, 'first'),
    ]);
    expect(grouped.map(([file, list]) => [file, list.map((f) => `${f.at.line}:${f.at.column}`)])).toEqual([
      ['a.py', ['3:1', '3:5']],
      ['b.sql', ['2:1', '9:1']],
    ]);
  });
});

describe('splitAtValue', () => {
  const line = "TBLPROPERTIES ('delta.isolationLevel' = 'WriteSerializable');";
  const column = line.indexOf("'WriteSerializable'") + 1;

  it('marks the value from its column to its end column', () => {
    expect(splitAtValue(line, column, column + "'WriteSerializable'".length)).toEqual({
      before: "TBLPROPERTIES ('delta.isolationLevel' = ",
      value: "'WriteSerializable'",
      after: ');',
    });
  });

  it('runs to the end of the line without an end column, and stays inside the line', () => {
    expect(splitAtValue(line, column, null).after).toBe('');
    expect(splitAtValue('short', 40, 50)).toEqual({ before: 'short', value: '', after: '' });
  });
});

describe('archiveType', () => {
  it('takes .zip, .tar.gz and .tgz, and nothing else', () => {
    expect(archiveType('code.ZIP')).toBe('application/zip');
    expect(archiveType('repo.tar.gz')).toBe('application/gzip');
    expect(archiveType('repo.tgz')).toBe('application/gzip');
    expect(archiveType('repo.tar')).toBeNull();
  });
});
