/**
 * The code audit's YAML and JSON extractors on their corpus (code-corpus/yaml, code-corpus/json: Databricks bundle,
 * job and cluster-policy specs, dbt project and schema files, spark-submit argument lists, comments and prose,
 * templates, broken files), each file against the settings and problems listed beside it, every value's `raw` being
 * the file's own text at the reported place; then the particulars: which table a dbt setting names, how it was
 * set, where the key is when the value is on another line, CRLF files, multi-line values, and what is not read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSettings } from '../src/audit/code/extract/config-settings';
import { jsonExtractor } from '../src/audit/code/extract/json';
import { parseJson } from '../src/audit/code/extract/json-tree';
import { yamlExtractor } from '../src/audit/code/extract/yaml';
import type { CodeSetting, Extraction, Extractor } from '../src/audit/code/setting';

const CORPUS = join(import.meta.dirname, 'fixtures', 'code-corpus');
const EXTRACTORS: Extractor[] = [yamlExtractor, jsonExtractor];

interface Expected {
  settings: { line: number; column: number; key: string; value: string | null; constant?: boolean }[];
  problems?: { line: number }[];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const corpus = ['yaml', 'json']
  .flatMap((kind) => filesUnder(join(CORPUS, kind)))
  .filter((path) => !path.endsWith('.expected.json'))
  .map((path) => relative(CORPUS, path).split('\\').join('/'))
  .sort();

async function extract(file: string): Promise<{ text: string; result: Extraction }> {
  const text = readFileSync(join(CORPUS, file), 'utf8');
  const extractor = EXTRACTORS.find((e) => e.accepts(file));
  if (!extractor) throw new Error(`no extractor accepts ${file}`);
  return { text, result: await extractor.extract(file, text) };
}

function find(settings: CodeSetting[], key: string, line?: number): CodeSetting {
  const found = settings.find((s) => s.key === key && (line === undefined || s.line === line));
  if (!found) throw new Error(`no setting ${key}${line ? ` at line ${line}` : ''}`);
  return found;
}

describe('YAML and JSON corpus', () => {
  it('holds at least ten files, YAML and JSON, each with its expectations', () => {
    expect(corpus.filter((f) => f.startsWith('yaml/')).length).toBeGreaterThanOrEqual(5);
    expect(corpus.filter((f) => f.startsWith('json/')).length).toBeGreaterThanOrEqual(5);
    for (const file of corpus) expect(statSync(join(CORPUS, `${file}.expected.json`)).isFile()).toBe(true);
  });

  it.each(corpus)('%s: every setting at its line and column with its value, and each problem', async (file) => {
    const expected = JSON.parse(readFileSync(join(CORPUS, `${file}.expected.json`), 'utf8')) as Expected;
    const { text, result } = await extract(file);
    expect(
      result.settings.map((s) => ({
        line: s.line,
        column: s.column,
        key: s.key,
        value: s.value,
        ...(s.keyLine !== undefined && { keyLine: s.keyLine }),
        constant: s.constant,
      })),
    ).toEqual(expected.settings.map((s) => ({ constant: true, ...s })));
    expect(result.problems.map((p) => ({ line: p.line }))).toEqual(expected.problems ?? []);
    const lines = text.split('\n');
    for (const s of result.settings) {
      expect(s.file).toBe(file);
      expect(s.language).toBe(file.startsWith('yaml/') ? 'yaml' : 'json');
      // The value is written exactly there: its source text is the line's text from column to endColumn.
      if (s.endLine === undefined) expect(lines[s.line - 1]?.slice(s.column - 1, s.endColumn - 1)).toBe(s.raw);
      if (s.constant) expect(s.value).not.toBeNull();
      else expect(s.value).toBeNull();
    }
  });
});

describe('Databricks specs', () => {
  it('reads a bundle job cluster spark_conf: Delta confs only, quoted and plain values as written', async () => {
    const { result } = await extract('yaml/bundle/databricks.yml');
    expect(result.settings.map((s) => s.key).slice(0, 3)).toEqual([
      'spark.databricks.delta.optimizeWrite.enabled',
      'spark.databricks.delta.write.isolationLevel',
      'spark.databricks.delta.retentionDurationCheck.enable',
    ]);
    const unknown = find(result.settings, 'spark.databricks.delta.write.isolationLevel');
    expect(unknown).toMatchObject({
      line: 30,
      column: 60,
      endColumn: 72,
      value: 'Serializable',
      raw: 'Serializable',
      kind: 'spark-conf',
      via: 'spark_conf',
      writer: 'spark',
    });
    expect(find(result.settings, 'spark.databricks.delta.retentionDurationCheck.enable')).toMatchObject({
      value: 'false',
      raw: "'false'",
    });
    // The comment on line 2 names a key; it is not a setting.
    expect(result.settings.some((s) => s.line === 2)).toBe(false);
  });

  it('reads a bundle variable as the default the file binds it to once, not one a target binds again', async () => {
    const { result } = await extract('yaml/bundle/databricks.yml');
    expect(find(result.settings, 'spark.databricks.delta.properties.defaults.isolationLevel')).toMatchObject({
      value: 'WriteSerializable',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bundle variable, as the YAML writes it
      raw: '${var.isolation_level}',
      constant: true,
    });
    expect(find(result.settings, 'spark.databricks.delta.maxCommitAttempts')).toMatchObject({
      value: null,
      constant: false,
    });
  });

  it('reads spark-submit --conf arguments, as a pair of items or one item, and skips other confs', async () => {
    const { result } = await extract('yaml/bundle/resources/job.yml');
    const viaConf = result.settings.filter((s) => s.via === '--conf');
    expect(viaConf.map((s) => [s.key, s.value, s.line, s.column])).toEqual([
      ['spark.databricks.delta.merge.enableLowShuffle', 'true', 22, 63],
      ['spark.databricks.delta.properties.defaults.isolationLevel', 'Serializable', 23, 83],
    ]);
    expect(result.settings.some((s) => s.key.startsWith('spark.sql.'))).toBe(false);
  });

  it('reads both spark_conf maps of a Jobs API spec, numbers and booleans as written', async () => {
    const { result } = await extract('json/jobs-api-create.json');
    expect(find(result.settings, 'spark.databricks.delta.maxCommitAttempts')).toMatchObject({
      value: '3',
      raw: '3',
      line: 29,
    });
    expect(find(result.settings, 'spark.databricks.delta.isolationLevel')).toMatchObject({
      value: 'WriteSerializable',
      raw: '"WriteSerializable"',
      language: 'json',
    });
  });

  it("gives a cluster policy's fixed value, with the key's line when the value is on another", async () => {
    const { result } = await extract('json/cluster-policy.json');
    expect(find(result.settings, 'spark.databricks.delta.properties.defaults.isolationLevel')).toMatchObject({
      line: 5,
      keyLine: 3,
      value: 'Serializable',
      via: 'cluster policy',
    });
  });

  it('takes an alias for the value its anchor was bound to, and reads every document of the file', async () => {
    const { result } = await extract('yaml/pipeline-anchors.yml');
    expect(find(result.settings, 'spark.databricks.delta.properties.defaults.isolationLevel')).toMatchObject({
      value: 'Serializable',
      raw: '*level',
      constant: true,
      via: 'configuration',
    });
    expect(find(result.settings, 'spark.delta.logStore.class').line).toBe(23);
  });

  it('reports a template, a list or a secret reference as not a constant, with its text', async () => {
    const { result } = await extract('yaml/templated.yml');
    expect(find(result.settings, 'spark.databricks.delta.properties.defaults.isolationLevel')).toMatchObject({
      constant: false,
      value: null,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bundle variable, as the YAML writes it
      raw: '${var.isolation_level}',
    });
    expect(find(result.settings, 'spark.databricks.delta.maxCommitAttempts').raw).toBe(
      '"{{secrets/delta/max_attempts}}"',
    );
    expect(find(result.settings, 'spark.databricks.delta.autoCompact.enabled').constant).toBe(true);
  });
});

describe('dbt', () => {
  it('reads +tblproperties and tblproperties in dbt_project.yml: delta.* keys only, no table named', async () => {
    const { result } = await extract('yaml/dbt/dbt_project.yml');
    expect(result.settings.map((s) => [s.key, s.value, s.via])).toEqual([
      ['delta.isolationLevel', 'WriteSerializable', '+tblproperties'],
      ['delta.enableDeletionVectors', 'true', '+tblproperties'],
      ['delta.isolationLevel', 'Serializable', 'tblproperties'],
      ['delta.appendOnly', 'true', '+tblproperties'],
      ['delta.checkpointInterval', '20', '+tblproperties'],
    ]);
    for (const s of result.settings) {
      expect(s.kind).toBe('table-property');
      expect(s.table).toBeUndefined();
    }
  });

  it("names a schema file's model as the table of its config's tblproperties; prose is not a setting", async () => {
    const { result } = await extract('yaml/dbt/models/schema.yml');
    expect(result.settings.map((s) => [s.table, s.key, s.value])).toEqual([
      ['orders', 'delta.isolationLevel', 'Serializable'],
      ['orders', 'delta.logRetentionDuration', 'interval 30 days'],
      ['customers', 'delta.isolationLevel', 'SnapshotIsolation'],
      ['refunds', 'delta.isolationLevel', null],
    ]);
  });
});

describe('bad input and what is not read', () => {
  it('gives a problem with the line for a broken file and still reads what parsed', async () => {
    const { result } = await extract('yaml/broken.yml');
    expect(result.problems).toEqual([
      expect.objectContaining({ file: 'yaml/broken.yml', line: 5, column: 3, message: expect.stringMatching(/\S/) }),
    ]);
    expect(result.problems[0]?.message).not.toMatch(/at line \d+/);
    expect(find(result.settings, 'spark.databricks.delta.optimizeWrite.enabled').value).toBe('true');
  });

  it('gives a problem, not a crash, for nesting deeper than the stack', async () => {
    const text = `tblproperties: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    for (const [extractor, file] of [
      [yamlExtractor, 'deep.yml'],
      [jsonExtractor, 'deep.json'],
    ] as const) {
      const { settings, problems } = await extractor.extract(file, text);
      expect(settings).toEqual([]);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems[0]?.line).toBe(1);
    }
  });

  it('reports a duplicate key as a problem, and both settings', async () => {
    const { result } = await extract('json/cluster-duplicate-key.json');
    expect(result.problems.map((p) => p.line)).toEqual([6]);
    expect(result.settings.map((s) => s.value)).toEqual(['true', 'false']);
  });

  it('reads nothing from comments, block-scalar prose, string values or keys not under the Delta prefixes', async () => {
    for (const file of ['yaml/comments-only.yml', 'json/prose-only.json']) {
      const { result } = await extract(file);
      expect(result).toEqual({ settings: [], problems: [] });
    }
  });

  it('does not parse a file with no hint of a setting (so a broken unrelated file is not a problem)', async () => {
    expect(await yamlExtractor.extract('ci.yml', 'steps: [run: npm test\n  - bad')).toEqual({
      settings: [],
      problems: [],
    });
  });

  it('accepts .yml, .yaml and .json files only', () => {
    expect(['a.yml', 'b/c.YAML', 'd.json'].map((f) => [yamlExtractor.accepts(f), jsonExtractor.accepts(f)])).toEqual([
      [true, false],
      [true, false],
      [false, true],
    ]);
    expect(jsonExtractor.accepts('n.ipynb')).toBe(false);
  });
});

describe('positions', () => {
  it('counts columns right in a CRLF file and keeps the carriage return out of the value', async () => {
    const text = 'spark_conf:\r\n  spark.databricks.delta.optimizeWrite.enabled: "true"\r\n';
    const { settings } = await yamlExtractor.extract('crlf.yml', text);
    expect(settings).toEqual([
      expect.objectContaining({ line: 2, column: 49, endColumn: 55, value: 'true', raw: '"true"' }),
    ]);
  });

  it('gives a value written over several lines its last line and the key its own line', async () => {
    const text = 'spark_conf:\n  spark.databricks.delta.isolationLevel:\n    "Write\n    Serializable"\n';
    const { settings } = await yamlExtractor.extract('multi.yml', text);
    expect(settings).toEqual([expect.objectContaining({ line: 3, column: 5, endLine: 4, endColumn: 18, keyLine: 2 })]);
  });
});

describe('the JSON reader', () => {
  it('finds in every well-formed corpus JSON file what the YAML parser finds in it, at the same places', async () => {
    for (const file of corpus.filter((f) => f.startsWith('json/'))) {
      const { text, result } = await extract(file);
      if (result.problems.length > 0) continue;
      const asYaml = configSettings(file, text, 'yaml');
      expect(asYaml.problems).toEqual([]);
      expect(result.settings).toEqual(asYaml.settings.map((s) => ({ ...s, language: 'json' })));
    }
  });

  it('keeps each value as written: strings with their escapes, numbers and literals, ranges over the source', () => {
    const text = '\ufeff{"a": "x\\"y\\u00e9", "b": [-1.5e3, true, null], "c": {}}';
    const { contents, errors } = parseJson(text);
    expect(errors).toEqual([]);
    const json = contents?.toJSON();
    expect(json).toEqual({ a: 'x"y\u00e9', b: [-1500, true, null], c: {} });
    const a = (contents as { get(k: string, keep: true): { range: number[]; type: string } }).get('a', true);
    expect(text.slice(a.range[0], a.range[1])).toBe('"x\\"y\\u00e9"');
    expect(a.type).toBe('QUOTE_DOUBLE');
  });

  it.each([
    ['{"a": 1,}', 8, 'expected a key in quotes'],
    ['{"a": "open', 6, 'string not closed'],
    ['{"a": 1} x', 9, 'text after the value'],
    ['[1, 2', 5, 'unexpected end, expected ]'],
    ['{"a": tru}', 6, 'expected a value'],
    ['{"a": "\\q"}', 7, 'bad escape in string'],
  ])('stops at an error and says where: %s', (text, offset, message) => {
    expect(parseJson(text).errors).toEqual([{ offset, message }]);
  });

  it('reports a missing comma and reads on; keeps both entries of a key given twice', () => {
    const { contents, errors } = parseJson('{"a": 1 "b": [1 2], "a": 3}');
    expect(errors.map((e) => [e.offset, e.message])).toEqual([
      [8, 'expected , or }'],
      [16, 'expected , or ]'],
      [20, 'duplicate key'],
    ]);
    expect((contents as unknown as { items: unknown[] }).items).toHaveLength(3);
  });

  it('keeps what it read before an error in the tree', () => {
    const { contents } = parseJson('{"spark_conf": {"k": "v", "x": ');
    expect(contents?.toJSON()).toEqual({ spark_conf: { k: 'v', x: null } });
  });
});
