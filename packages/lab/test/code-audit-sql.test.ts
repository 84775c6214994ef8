/**
 * The SQL, Scala, Java and shell extractors: every corpus file of theirs gives exactly the settings its
 * `.expected.json` lists (at the value's line and column, with its value), nothing from comments or prose;
 * SQL embedded in another file is placed in that file; a statement that does not parse is a problem at its
 * line while the others still count. Settings inside Python handed on by a script, or inside a dbt model's
 * `{{ config(…) }}`, belong to the Python reader: they are listed in the corpus, and may be missing here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { javaExtractor } from '../src/audit/code/extract/java';
import { blankJinja } from '../src/audit/code/extract/jinja-blocks';
import { scalaExtractor } from '../src/audit/code/extract/scala';
import { shellExtractor, shellPython } from '../src/audit/code/extract/shell';
import { sqlExtractor, sqlSettings } from '../src/audit/code/extract/sql';
import type { CodeSetting } from '../src/audit/code/setting';
import { Embedded, LineIndex } from '../src/audit/code/source-map';

const corpus = join(import.meta.dirname, 'fixtures/code-corpus');
const extractors = [sqlExtractor, scalaExtractor, javaExtractor, shellExtractor];

interface Expected {
  line: number;
  column: number;
  keyLine?: number;
  key: string;
  value: string | null;
  constant?: boolean;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.expected.json') ? [] : [path];
  });
}

const shape = (s: CodeSetting | Expected): Expected => ({
  line: s.line,
  column: s.column,
  ...(s.keyLine !== undefined ? { keyLine: s.keyLine } : {}),
  key: s.key,
  value: s.value,
  constant: s.constant ?? true,
});
const order = (a: Expected, b: Expected) => a.line - b.line || a.column - b.column;

/** The lines of `text` that the Python reader owns: Python handed on by a script, a dbt model's config(). */
async function pythonLines(file: string, text: string): Promise<Set<number>> {
  const host = new LineIndex(text);
  const lines = new Set<number>();
  const add = (from: number, to: number) => {
    for (let line = host.at(from).line; line <= host.at(Math.max(from, to - 1)).line; line++) lines.add(line);
  };
  if (file.endsWith('.sh'))
    for (const piece of await shellPython(text)) add(piece.hostOffset(0), piece.hostOffset(piece.text.length - 1) + 1);
  if (file.endsWith('.sql'))
    for (const config of blankJinja(text).configs) add(config.offset, config.offset + config.source.length);
  return lines;
}

const files = ['sql', 'scala', 'java', 'shell'].flatMap((kind) => filesUnder(join(corpus, kind)));

describe('the SQL, Scala, Java and shell corpus', () => {
  it('has a file of each kind the extractors read, each with its expected settings', () => {
    expect(files.length).toBeGreaterThanOrEqual(16);
    for (const file of files)
      expect(
        extractors.some((e) => e.accepts(file)),
        file,
      ).toBe(true);
  });

  for (const path of files) {
    const file = relative(corpus, path);
    it(`finds every setting of ${file} at its line, with its value, and nothing else`, async () => {
      const text = readFileSync(path, 'utf8');
      const expected = JSON.parse(readFileSync(`${path}.expected.json`, 'utf8')) as {
        settings: Expected[];
        problems?: { line: number }[];
      };
      const extractor = extractors.find((e) => e.accepts(file));
      const found = await extractor?.extract(file, text);
      const actual = (found?.settings ?? []).map(shape).sort(order);
      for (const setting of found?.settings ?? []) expect(setting.file).toBe(file);
      const python = await pythonLines(file, text);
      const wanted = expected.settings.map(shape).sort(order);
      const required = wanted.filter((s) => !python.has(s.line));
      expect(actual.filter((s) => !python.has(s.line))).toEqual(required);
      for (const extra of actual.filter((s) => python.has(s.line))) expect(wanted).toContainEqual(extra);
      expect((found?.problems ?? []).map((p) => ({ line: p.line }))).toEqual(expected.problems ?? []);
    });
  }
});

describe('sqlSettings: SQL embedded in another file', () => {
  // A Python file holding `spark.sql("ALTER …")` at line 3: the SQL's value is placed in the Python file.
  const host = "import x\n\nspark.sql(\"ALTER TABLE t SET TBLPROPERTIES ('delta.isolationLevel' = 'Serializable')\")\n";
  const start = host.indexOf('ALTER');
  const sql = host.slice(start, host.indexOf('")'));
  const third = host.split('\n')[2] ?? '';

  it('places a value at its line and column in the host file, with its key, value, table and writer', async () => {
    const embedded = new Embedded();
    embedded.push(sql, start);
    const { settings, problems } = await sqlSettings(embedded, new LineIndex(host), 'jobs/a.py', 'spark');
    expect(problems).toEqual([]);
    expect(settings).toEqual([
      expect.objectContaining({
        file: 'jobs/a.py',
        line: 3,
        column: third.indexOf("'Serializable'") + 1,
        endColumn: third.indexOf("')") + 2,
        key: 'delta.isolationLevel',
        value: 'Serializable',
        raw: "'Serializable'",
        constant: true,
        kind: 'table-property',
        table: 't',
        writer: 'spark',
        language: 'sql',
      }),
    ]);
  });

  it('reports a value an f-string field stands in as not a constant, with the text written there', async () => {
    const fstring = "spark.sql(f\"ALTER TABLE t SET TBLPROPERTIES ('delta.isolationLevel' = '{level}')\")";
    const open = fstring.indexOf('{');
    const close = fstring.indexOf('}') + 1;
    const embedded = new Embedded();
    embedded.push(fstring.slice(12, open), 12);
    embedded.push('_'.repeat(close - open), open, false);
    embedded.push(fstring.slice(close, fstring.length - 2), close);
    const { settings } = await sqlSettings(embedded, new LineIndex(fstring), 'a.py', 'spark');
    expect(settings).toEqual([
      expect.objectContaining({ value: null, constant: false, raw: "'{level}'", column: open }),
    ]);
  });

  it('reports a statement that does not parse at its line, and still reads the statements around it', async () => {
    const text = 'SET spark.databricks.delta.retryWriteConflict.limit = 2;\nSELEC oops;\nSET spark.delta.x=1;';
    const embedded = new Embedded();
    embedded.push(text, 0);
    const { settings, problems } = await sqlSettings(embedded, new LineIndex(text), 'a.sql', 'spark');
    expect(settings.map((s) => [s.line, s.key, s.value])).toEqual([
      [1, 'spark.databricks.delta.retryWriteConflict.limit', '2'],
      [3, 'spark.delta.x', '1'],
    ]);
    expect(problems).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('does not parse') }),
    ]);
  });
});

describe('dbt Jinja', () => {
  it('blanks every block to the same length and line breaks, and hands config() on with its offset', () => {
    const text =
      "{{ config(tblproperties={'a': 'b'}) }}\nselect * from {{ ref('x') }}\n{% if y %}\nwhere 1 = 1\n{% endif %}";
    const { sql, jinja, configs } = blankJinja(text);
    expect(jinja).toBe(true);
    expect(sql).toHaveLength(text.length);
    expect(sql.split('\n').map((line) => line.length)).toEqual(text.split('\n').map((line) => line.length));
    expect(sql).toContain('select * from ');
    expect(sql).not.toMatch(/[{}%]/);
    expect(configs).toEqual([{ source: " config(tblproperties={'a': 'b'}) ", offset: 2 }]);
  });

  it('reads a dbt model table as the file stem', async () => {
    const text = "{{ config(materialized='table') }}\nSET spark.databricks.delta.optimizeWrite.enabled = true;";
    const { settings } = await sqlExtractor.extract('models/daily_orders.sql', text);
    expect(settings).toEqual([expect.objectContaining({ line: 2, table: 'daily_orders', value: 'true' })]);
  });
});

describe('shell scripts hand Python on to the Python reader', () => {
  it('finds the Python of a heredoc and of python -c, placed in the script', async () => {
    const text = 'python3 - <<\'PY\'\nprint(1)\nPY\npython -c "print(2)"\n';
    const pieces = await shellPython(text);
    expect(pieces.map((p) => p.text)).toEqual(['print(1)\n', 'print(2)']);
    const host = new LineIndex(text);
    expect(pieces.map((p) => host.at(p.hostOffset(0)))).toEqual([
      { line: 2, column: 1 },
      { line: 4, column: 12 },
    ]);
  });
});
