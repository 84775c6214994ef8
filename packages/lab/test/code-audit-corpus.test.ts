/**
 * The code audit on the project's own corpus (test/fixtures/code-corpus/**): every file of a kind the audit reads
 * has a `<file>.expected.json` beside it listing every setting it holds (line, column, key, value, and `constant`
 * when given), the lines where it cannot be read whole (`problems`), and, when given, the findings (rule and line)
 * the judge raises on it. One test per corpus file, named by the file, so the report lists every file checked;
 * a file of a kind the audit reads with no expectations beside it fails, and so does any setting reported from a
 * file that has none (prose, a README). Until every extractor is in, the files of a kind whose extractor finds
 * nothing yet fail here by name: none is skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditCode, type CodeAudit, extractorFor } from '../src/audit/code-scan/index';

const CORPUS = join(import.meta.dirname, 'fixtures', 'code-corpus');
const SUFFIX = '.expected.json';

interface Expected {
  settings: { line: number; column: number; key: string; value: string | null; constant?: boolean }[];
  problems?: { line: number }[];
  findings?: { rule: string; line: number }[];
}

const files = readdirSync(CORPUS, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile())
  .map((d) => relative(CORPUS, join(d.parentPath, d.name)).split(sep).join('/'))
  .sort();
const expectations = files.filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length));
const read = files.filter((f) => !f.endsWith(SUFFIX) && extractorFor(f) !== undefined);

const byPlace = (a: { line: number; column?: number }, b: { line: number; column?: number }) =>
  a.line - b.line || (a.column ?? 0) - (b.column ?? 0);

/**
 * Each top folder of the corpus audited on its own, as a repository would be (one table set two ways is judged
 * within it), its results named from the corpus root.
 */
let audit: CodeAudit;
beforeAll(async () => {
  const folders = readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory());
  const parts = await Promise.all(folders.map((d) => auditCode([join(CORPUS, d.name)])));
  const under = <T extends { file: string }>(folder: string, x: T): T => ({ ...x, file: `${folder}/${x.file}` });
  audit = {
    settings: parts.flatMap((a, i) => a.settings.map((s) => under(folders[i]?.name ?? '', s))),
    findings: parts.flatMap((a, i) => a.findings.map((f) => ({ ...f, at: under(folders[i]?.name ?? '', f.at) }))),
    files: {
      scanned: parts.reduce((n, a) => n + a.files.scanned, 0),
      skipped: parts.flatMap((a) => a.files.skipped),
      unparseable: parts.flatMap((a, i) => a.files.unparseable.map((p) => under(folders[i]?.name ?? '', p))),
    },
    failed: parts.some((a) => a.failed),
  };
}, 180_000);

describe('the code corpus', () => {
  it('has expectations beside every file of a kind the audit reads, and a file beside every expectation', () => {
    expect(read.filter((f) => !expectations.includes(f))).toEqual([]);
    expect(expectations.filter((f) => !files.includes(f))).toEqual([]);
    expect(expectations.length).toBeGreaterThanOrEqual(5);
  });

  it('reports nothing from a file without expectations (prose, a README)', () => {
    const expected = new Set(expectations);
    expect(audit.settings.filter((s) => !expected.has(s.file))).toEqual([]);
    expect(audit.findings.filter((f) => !expected.has(f.at.file))).toEqual([]);
  });

  for (const file of expectations) {
    it(file, () => {
      const want = JSON.parse(readFileSync(join(CORPUS, file + SUFFIX), 'utf8')) as Expected;
      const settings = [...want.settings].sort(byPlace);
      const found = audit.settings
        .filter((s) => s.file === file)
        .map((s, i) => {
          const constant = settings[i]?.constant;
          return {
            line: s.line,
            column: s.column,
            key: s.key,
            value: s.value,
            ...(s.keyLine !== undefined && { keyLine: s.keyLine }),
            ...(constant !== undefined && { constant: s.constant }),
          };
        });
      expect(found, 'settings').toEqual(settings);
      const problems = audit.files.unparseable.filter((p) => p.file === file).map((p) => ({ line: p.line }));
      expect(problems, 'problems').toEqual([...(want.problems ?? [])].sort(byPlace));
      if (want.findings !== undefined) {
        const findings = audit.findings
          .filter((f) => f.at.file === file)
          .map((f) => ({ rule: f.rule, line: f.at.line }));
        expect(findings.sort(byPlace), 'findings').toEqual([...want.findings].sort(byPlace));
      }
    });
  }
});
