/**
 * The code audit's Python reader on its own: every Python, notebook and dbt file of the corpus gives
 * exactly the settings its `.expected.json` lists, at the same lines and columns (comments, docstrings,
 * prose strings and markdown cells give none); positional and keyword retries, names bound once,
 * parameters of helpers and the constants their calls pass, fragments, and where embedded SQL lands in
 * the host file. The SQL reader is the SQL extractor's part: here a small stand-in reads the
 * `'key' = 'value'` pairs and `SET key = value` of the SQL it is handed, so the tests check what this
 * reader hands over and how positions map back, not how SQL is parsed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notebookSettings } from '../src/audit/code/extract/notebook';
import { pythonFileSettings, type SqlReader, settingsInJinjaConfig } from '../src/audit/code/extract/python';
import type { CodeSetting, Extraction } from '../src/audit/code/setting';

const CORPUS = join(__dirname, 'fixtures/code-corpus');
const MINE = ['python', 'notebooks', 'dbt'];

/** What SQL the reader handed over, with each text's own positions mapped back by the Embedded it came in. */
const handed: string[] = [];

/** Reads `'key' = 'value'` pairs and `SET key = value` from the handed SQL, at their places in the host file. */
const standInSql: SqlReader = async (embedded, host, file, writer) => {
  handed.push(embedded.text);
  const settings: CodeSetting[] = [];
  const at = (start: number, end: number) => {
    const from = host.at(embedded.hostOffset(start));
    const to = host.at(embedded.hostOffset(end - 1) + 1);
    return { line: from.line, column: from.column, endColumn: to.column };
  };
  const add = (key: string, raw: string, index: number, kind: CodeSetting['kind']) => {
    const quoted = raw.startsWith("'");
    settings.push({
      file,
      ...at(index, index + raw.length),
      key,
      value: quoted ? raw.slice(1, -1) : raw,
      raw,
      constant: true,
      kind,
      via: 'TBLPROPERTIES',
      language: 'sql',
      writer,
    });
  };
  for (const m of embedded.text.matchAll(/'(delta\.[\w.]+)'\s*=\s*('[^']*')/g))
    add(m[1] as string, m[2] as string, (m.index as number) + m[0].length - (m[2] as string).length, 'table-property');
  for (const m of embedded.text.matchAll(/\bSET\s+(spark\.[\w.]+)\s*=\s*(\w+)/g))
    add(m[1] as string, m[2] as string, (m.index as number) + m[0].length - (m[2] as string).length, 'spark-conf');
  return { settings, problems: [] };
};

/** Reads one corpus file the way the audit would hand it to this reader. */
function read(file: string, text: string): Promise<Extraction> {
  if (file.endsWith('.ipynb')) return notebookSettings(file, text, standInSql);
  if (file.endsWith('.sql')) return settingsInJinjaConfig(text, file, stem(file), standInSql);
  return pythonFileSettings(file, text, standInSql);
}

function stem(file: string): string {
  return (file.split('/').at(-1) as string).replace(/\.[^.]*$/, '');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const corpus = MINE.flatMap((kind) => filesUnder(join(CORPUS, kind)))
  .filter((path) => !path.endsWith('.expected.json'))
  .map((path) => relative(CORPUS, path).split('\\').join('/'));

describe('the corpus: Python, notebooks, dbt', () => {
  it('holds at least 16 files of these kinds, each with its expected settings', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(16);
    for (const kind of MINE) expect(corpus.some((f) => f.startsWith(`${kind}/`))).toBe(true);
  });

  it.each(corpus)('%s: every setting at its line and column with its value, nothing else', async (file) => {
    const text = readFileSync(join(CORPUS, file), 'utf8');
    const expected = JSON.parse(readFileSync(join(CORPUS, `${file}.expected.json`), 'utf8')) as {
      settings: { line: number; column: number; key: string; value: string | null; constant?: boolean }[];
      problems?: { line: number }[];
    };
    const found = await read(file, text);
    expect(
      found.settings.map((s) => ({
        line: s.line,
        column: s.column,
        key: s.key,
        value: s.value,
        ...(s.keyLine !== undefined && { keyLine: s.keyLine }),
        ...(s.constant ? {} : { constant: false }),
      })),
    ).toEqual(expected.settings);
    expect(found.problems.map((p) => ({ line: p.line }))).toEqual(expected.problems ?? []);
    for (const s of found.settings) {
      expect(s.file).toBe(file);
      // The value is written where the setting says: its raw text starts there in the file.
      const line = text.split('\n')[s.line - 1] as string;
      if (!file.endsWith('.ipynb') && s.endLine === undefined)
        expect(line.slice(s.column - 1, s.endColumn - 1)).toBe(s.raw);
    }
  });
});

const corpusText = (file: string) => readFileSync(join(CORPUS, file), 'utf8');

describe('what each setting is', () => {
  it('delta-rs: table properties of the written table, commit isolation, retries by keyword', async () => {
    const { settings } = await read('python/delta_rs_write_keyword.py', corpusText('python/delta_rs_write_keyword.py'));
    expect(settings.map((s) => [s.kind, s.key, s.raw, s.writer, s.table ?? null, s.via])).toEqual([
      [
        'table-property',
        'delta.isolationLevel',
        '"Serializable"',
        'delta-rs',
        's3://lake/orders',
        'write_deltalake(configuration=…)',
      ],
      [
        'table-property',
        'delta.checkpointInterval',
        '"10"',
        'delta-rs',
        's3://lake/orders',
        'write_deltalake(configuration=…)',
      ],
      [
        'commit-isolation',
        'isolationLevel',
        '"WriteSerializable"',
        'delta-rs',
        null,
        'CommitProperties(custom_metadata=…)',
      ],
      ['commit-retries', 'max_commit_retries', '0', 'delta-rs', null, 'CommitProperties'],
    ]);
  });

  it('CommitProperties by position: custom_metadata first, max_commit_retries second; None is the default, not a setting', async () => {
    const { settings } = await read(
      'x.py',
      'CommitProperties({"isolationLevel": "Serializable"}, 0, [])\nCommitProperties(None, None)\n',
    );
    expect(settings.map((s) => [s.kind, s.value])).toEqual([
      ['commit-isolation', 'Serializable'],
      ['commit-retries', '0'],
    ]);
  });

  it('a name bound once is followed to its literal (placed there, the key line kept); bound twice it is not a constant', async () => {
    const text =
      'R = 0\nCommitProperties(\n    max_commit_retries=R)\nL = "a"\nL = "b"\nspark.conf.set("spark.databricks.delta.x", L)\n';
    const { settings } = await read('x.py', text);
    expect(settings).toMatchObject([
      { line: 1, column: 5, keyLine: 3, value: '0', raw: '0', constant: true },
      { line: 6, column: 44, value: null, raw: 'L', constant: false, kind: 'spark-conf' },
    ]);
  });

  it('a call through an imported alias is the call it names', async () => {
    const text =
      'from deltalake import CommitProperties as CP\nfrom deltalake import write_deltalake as wd\nCP(None, 0)\nwd("t", df, configuration={"delta.appendOnly": "true"})\n';
    const { settings } = await read('x.py', text);
    expect(settings.map((s) => [s.line, s.key, s.value, s.table ?? null])).toEqual([
      [3, 'max_commit_retries', '0', null],
      [4, 'delta.appendOnly', 'true', 't'],
    ]);
  });

  it('a parameter is not a constant where it is used; each call passing a constant adds it, at the call', async () => {
    const { settings } = await read('python/helper_retries.py', corpusText('python/helper_retries.py'));
    expect(settings.map((s) => [s.line, s.raw, s.constant, s.via])).toEqual([
      [5, 'retries', false, 'CommitProperties'],
      [10, 'attempts', false, 'CommitProperties'],
      [14, '0', true, 'CommitProperties through commit()'],
      [15, '4', true, 'CommitProperties through commit()'],
      [16, '1', true, 'CommitProperties through props()'],
    ]);
  });

  it('Spark: confs that look like Delta confs are kept for the judge, others are not settings', async () => {
    const { settings } = await read('python/spark_confs.py', corpusText('python/spark_confs.py'));
    expect(settings.map((s) => [s.key, s.kind, s.writer, s.keyLine ?? null])).toEqual([
      ['spark.databricks.delta.write.isolationLevel', 'spark-conf', 'spark', 8],
      ['spark.databricks.delta.optimizeWrite.enabled', 'spark-conf', 'spark', null],
      ['spark.delta.logStore.class', 'spark-conf', 'spark', null],
      ['spark.databricks.delta.properties.defaults.isolationLevel', 'spark-conf', 'spark', null],
    ]);
  });

  it('a dbt model: the model table when the caller names it, none when it does not', async () => {
    const model = corpusText('dbt/models/orders.sql');
    expect((await settingsInJinjaConfig(model, 'm.sql', 'orders')).settings.map((s) => s.table)).toEqual([
      'orders',
      'orders',
    ]);
    expect((await settingsInJinjaConfig(model, 'm.sql')).settings.map((s) => s.table ?? null)).toEqual([null, null]);
    const jinja =
      "{{ config(tblproperties={'delta.appendOnly': true, 'delta.isolationLevel': var('level') | upper}) }}";
    expect((await settingsInJinjaConfig(jinja, 'j.sql')).settings.map((s) => [s.value, s.raw, s.constant])).toEqual([
      ['true', 'true', true],
      [null, "var('level') | upper", false],
    ]);
    const python = await read('dbt/models/events_model.py', corpusText('dbt/models/events_model.py'));
    expect(python.settings.map((s) => [s.table, s.via])).toEqual([
      ['events_model', 'dbt config(tblproperties=…)'],
      ['events_model', 'dbt config(tblproperties=…)'],
    ]);
  });
});

describe('SQL in Python strings', () => {
  it('hands the SQL over with escapes decoded and f-string fields as placeholders; a value holding a field is not a constant', async () => {
    handed.length = 0;
    const text = [
      "spark.sql(\"ALTER TABLE t SET TBLPROPERTIES (\\n 'delta.isolationLevel' = 'Serializable')\")",
      "spark.sql('ALTER TABLE ' + name + \" SET TBLPROPERTIES ('delta.appendOnly' = 'true')\")",
      "spark.sql(f\"ALTER TABLE {t} SET TBLPROPERTIES ('delta.isolationLevel' = '{level}')\")",
      '"""spark.sql("SET spark.databricks.delta.x = 1")"""',
      '',
    ].join('\n');
    const { settings } = await read('x.py', text);
    expect(handed[0]).toBe("ALTER TABLE t SET TBLPROPERTIES (\n 'delta.isolationLevel' = 'Serializable')");
    expect(handed[1]).toContain("ALTER TABLE __py_field__ SET TBLPROPERTIES ('delta.appendOnly' = 'true')");
    expect(handed).toHaveLength(3);
    const lines = text.split('\n');
    expect(settings.map((s) => [s.line, s.value, s.raw, s.constant])).toEqual([
      [1, 'Serializable', "'Serializable'", true],
      [2, 'true', "'true'", true],
      [3, null, "'{level}'", false],
    ]);
    expect(settings.map((s) => s.writer)).toEqual(['spark', 'spark', 'spark']);
    // Each value is reported where its raw text is in the Python file (past the `\\n` escape on line 1).
    for (const s of settings) expect(lines[s.line - 1]?.slice(s.column - 1, s.endColumn - 1)).toBe(s.raw);
  });

  it("another object's .sql is read as SQL with no writer named", async () => {
    const { settings } = await read(
      'x.py',
      "duckdb.sql(\"ALTER TABLE t SET TBLPROPERTIES ('delta.appendOnly' = 'true')\")\n",
    );
    expect(settings.map((s) => [s.key, s.writer])).toEqual([['delta.appendOnly', null]]);
  });
});

describe('notebooks', () => {
  it('a Jupyter cell: positions in the notebook file, through JSON escapes; markdown, raw cells and outputs are prose', async () => {
    const file = 'notebooks/jupyter_delta_rs.ipynb';
    const text = corpusText(file);
    const { settings } = await read(file, text);
    const lines = text.split('\n');
    expect(settings.map((s) => lines[s.line - 1]?.slice(s.column - 1, s.endColumn - 1))).toEqual([
      '\\"Serializable\\"',
      '0',
    ]);
  });

  it('a file that is not a notebook is a problem at the place the reading stopped, not an exception', async () => {
    const { settings, problems } = await read('broken.ipynb', '{\n "cells": [\n  {"cell_type": "code", "source": [}\n');
    expect(settings).toEqual([]);
    expect(problems).toMatchObject([{ file: 'broken.ipynb', line: 3 }]);
  });

  it('a Databricks source notebook: %sql cells go to the SQL reader with the MAGIC prefix stripped, %md and %scala are not read', async () => {
    handed.length = 0;
    await read('notebooks/databricks_source.py', corpusText('notebooks/databricks_source.py'));
    expect(handed).toEqual([
      "ALTER TABLE main.sales.orders\nSET TBLPROPERTIES ('delta.isolationLevel' = 'Serializable')\n\n",
    ]);
  });
});

describe('fragments and files that do not parse', () => {
  it('a block left open still yields its settings, and no problem is noted', async () => {
    const { settings, problems } = await read('python/fragment_unclosed.py', corpusText('python/fragment_unclosed.py'));
    expect(settings).toHaveLength(2);
    expect(problems).toEqual([]);
  });

  it('code that does not parse and holds no setting is one note, with its line', async () => {
    const { settings, problems } = await read('x.py', 'import os\n\ndef broken(:\n    spark.conf.set(\n');
    expect(settings).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(3);
  });

  it('reads a 1,000-line file in well under a second once the grammar is loaded', async () => {
    const block = readFileSync(join(CORPUS, 'python/delta_rs_write_keyword.py'), 'utf8');
    const lines = block.split('\n').length - 1;
    const text = Array.from({ length: Math.ceil(1000 / lines) }, () => block).join('');
    await read('warm.py', block);
    const started = performance.now();
    const { settings } = await read('big.py', text);
    const ms = performance.now() - started;
    expect(settings.length).toBe(4 * Math.ceil(1000 / lines));
    expect(ms).toBeLessThan(1000);
  });
});
